import type http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

// The HTTP server's side of the live transports: upgrades nobody serves, and the end of every
// connection at shutdown (docs/operations.md, "Shutdown").

/** Longest a shutdown waits for requests in flight before it destroys the connections left, ms. */
export const SHUTDOWN_GRACE_MS = 5000;

/** Whether an upgrade is Socket.IO's (engine.io serves /socket.io/ and answers its own refusals). */
export function isSocketIoPath(req: http.IncomingMessage): boolean {
  return (req.url ?? '').startsWith('/socket.io/');
}

const REFUSAL = JSON.stringify({ success: false, error: 'no WebSocket or other upgrade is served at this path: graphql-ws is on /graphql, Socket.IO on /socket.io/ (namespace /live-odds)' });

/** Answers an upgrade on a path no transport serves with 404 and closes the socket at once. */
export function refuseUpgrade(socket: Duplex): void {
  if (!socket.writable) return void socket.destroy();
  socket.end(
    `HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(REFUSAL)}\r\n\r\n${REFUSAL}`,
  );
  // A client that never reads the answer (or never closes its side) does not keep the socket.
  setTimeout(() => socket.destroy(), 1000).unref();
}

/**
 * Every socket of `server`, upgraded ones included (Node's closeAllConnections does not see those).
 * `drain(ms)` resolves when all have closed, destroying those still open after `ms`.
 */
export function trackConnections(server: http.Server) {
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  return {
    get size() {
      return open.size;
    },
    async drain(ms: number): Promise<void> {
      if (!open.size) return;
      await new Promise<void>((resolve) => {
        // A keep-alive connection whose last response just ended is idle now: closed at once.
        const sweep = setInterval(() => {
          server.closeIdleConnections();
          if (open.size) return;
          clearInterval(sweep);
          clearTimeout(timer);
          resolve();
        }, 20);
        const timer = setTimeout(() => {
          clearInterval(sweep);
          for (const socket of open) socket.destroy();
          resolve();
        }, ms);
        timer.unref();
      });
    },
  };
}
