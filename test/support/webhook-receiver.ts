import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request a receiver got: its Standard Webhooks headers, body, and what it answered. */
export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  json: any;
  /** The signature verified with the receiver's secret (standardwebhooks' verify). */
  verified: boolean;
  /** The status answered, or null when the receiver died before answering. */
  answered: number | null;
}

/**
 * How the receiver answers the next request: a status, `die` (close the server and every socket
 * before answering) or `hang` (never answer).
 */
export type Answer = number | 'die' | 'hang';

/**
 * A real webhook receiver on 127.0.0.1 (node:http): verifies each request's signature with the
 * webhook's secret and answers as `answers` says (then 200). `kill()` stops it like a crash (sockets
 * destroyed), `start()` brings it back on the same port.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  answers: Answer[] = [];
  secret = '';
  port = 0;
  private server: http.Server | null = null;
  private sockets = new Set<Socket>();

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Webhook ids the receiver accepted (answered 2xx), in order. */
  get accepted(): string[] {
    return this.received.filter((r) => r.answered !== null && r.answered < 300).map((r) => r.id);
  }

  async start(): Promise<void> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let verified = false;
        try {
          new Webhook(this.secret).verify(body, req.headers as Record<string, string>);
          verified = true;
        } catch {
          verified = false;
        }
        const answer = this.answers.shift() ?? 200;
        const entry: Received = {
          id: String(req.headers['webhook-id']),
          timestamp: String(req.headers['webhook-timestamp']),
          signature: String(req.headers['webhook-signature']),
          body,
          json: JSON.parse(body),
          verified,
          answered: typeof answer === 'number' ? answer : null,
        };
        this.received.push(entry);
        if (answer === 'die') {
          void this.kill();
          return;
        }
        if (answer === 'hang') return;
        res.writeHead(answer, { 'content-type': 'text/plain', ...(answer >= 300 && answer < 400 && { location: 'http://127.0.0.1:9/elsewhere' }) });
        res.end(answer < 300 ? 'ok' : 'failing');
      });
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Stops at once: no new connections, open ones destroyed mid-request. */
  async kill(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}
