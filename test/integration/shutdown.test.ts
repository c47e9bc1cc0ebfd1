import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createClient } from 'graphql-ws';
import { io as connect } from 'socket.io-client';
import WebSocket from 'ws';
import { startTestApp } from '../support/app';
import { waitFor } from './live-helpers';

// `odds serve` as deployed (compiled: npm run build) receiving SIGTERM while clients hold sockets the
// server cannot finish on its own: an upgrade on a foreign path whose client half-closed and never
// reads (CLOSE-WAIT on the server's side), a connection that never sent a byte, an idle keep-alive
// connection. The shutdown still ends, with exit code 0 (docs/operations.md, "Shutdown"). And every
// live transport's clients are told when the app closes.

const BIN = path.join(__dirname, '..', '..', 'bin', 'odds.js');

/** `odds serve` on the embedded store in `dataDir`, on a free port: the process, its exit code, and the port once it listens. */
function serve(dataDir: string, env: Record<string, string> = {}) {
  const server = spawn(process.execPath, [BIN, 'serve'], { env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_URL: '', REDIS_URL: '', FEED_URL: '', ...env } });
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
  const listening = new Promise<number>((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const match = /"port":(\d+)/.exec(out);
      if (match && out.includes('listening')) resolve(Number(match[1]));
    });
    server.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  listening.catch(() => {});
  let log = '';
  server.stdout.on('data', (d) => (log += d));
  /** The JSON lines the process has logged so far. */
  const logged = () => log.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { level: number; req?: { url: string }; res?: { statusCode: number } });
  return { server, exited, listening, logged };
}

test('when SIGTERM comes while a CLOSE-WAIT, a silent and an idle keep-alive socket are open, then the server still exits 0', async () => {
  if (!fs.existsSync(path.join(__dirname, '..', '..', 'dist', 'cli', 'index.js'))) throw new Error('dist/ missing: run npm run build');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-shutdown-'));
  const { server, exited, listening } = serve(dataDir);
  const sockets: net.Socket[] = [];
  try {
    const port = await listening;
    const open = () => {
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => {});
      sockets.push(socket);
      return new Promise<net.Socket>((resolve) => socket.once('connect', () => resolve(socket)));
    };
    // A foreign upgrade, then the client's half-close; it never reads what the server says.
    const closeWait = await open();
    closeWait.pause();
    closeWait.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n');
    closeWait.end();
    // Connected, never a byte.
    await open();
    // A keep-alive connection after one answered request.
    const idle = await open();
    const answered = new Promise<void>((resolve) => idle.once('data', () => resolve()));
    idle.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    await answered;

    server.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    for (const socket of sockets) socket.destroy();
    server.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);

test('when SIGTERM comes with SHUTDOWN_DRAIN_MS set, then /readyz answers 503 at once while requests are still served, and the server exits 0 after the drain', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-drain-'));
  // A drain far longer than the checks below need, so a slow machine still makes them inside it.
  const { server, exited, listening, logged } = serve(dataDir, { SHUTDOWN_DRAIN_MS: '5000' });
  try {
    const port = await listening;
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const signalled = Date.now();
    server.kill('SIGTERM');
    let draining = await fetch(`${base}/readyz`);
    // The signal is asynchronous: a request may still come before the process has it.
    while (draining.status === 200 && Date.now() - signalled < 4000) draining = await fetch(`${base}/readyz`);
    expect(draining.status).toBe(503);
    expect(await draining.json()).toEqual({ success: false, data: { status: 'draining' } });
    // Still serving during the drain: the balancer sends nothing new, but what it sent is answered.
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(await exited).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(5000);
    // A deploy writes no error: the not-ready answers are logged as warnings (pino: 40 warn, 50 error).
    const readyz = logged().filter((l) => l.req?.url === '/readyz' && l.res?.statusCode === 503);
    expect(readyz.length).toBeGreaterThan(0);
    expect(readyz.map((l) => l.level)).toEqual(readyz.map(() => 40));
  } finally {
    server.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);

test('when the app closes, then a graphql-ws client gets 1012 (service restart), a Socket.IO client a server disconnect and an SSE client a shutdown event', async () => {
  const t = await startTestApp();
  const { key } = await t.createKey('pro');
  let wsClosed: number | null = null;
  const gql = createClient({ url: `${t.baseUrl.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { apiKey: key }, retryAttempts: 0, lazy: false, onNonLazyError: () => {}, on: { closed: (e: any) => (wsClosed = e.code) } });
  let acknowledged = false;
  gql.on('connected', () => (acknowledged = true));
  const socket = connect(`${t.baseUrl}/live-odds`, { auth: { apiKey: key }, transports: ['websocket'], reconnection: false, forceNew: true });
  let ioReason: string | null = null;
  socket.on('disconnect', (reason) => (ioReason = reason));
  const stream = await fetch(`${t.baseUrl}/api/v1/nba/odds/stream`, { headers: { authorization: `Bearer ${key}` } });
  let text = '';
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk, { stream: true });
  })().catch(() => {});
  await waitFor('every client connected', () => acknowledged && socket.connected && text.includes('event: live_odds'));

  await t.close();
  await reading;
  await waitFor('the clients told', () => wsClosed !== null && ioReason !== null);
  expect(wsClosed).toBe(1012);
  expect(ioReason).toBe('io server disconnect');
  expect(text).toMatch(/event: shutdown\ndata: \{"reason":"server shutting down/);
  await gql.dispose();
});
