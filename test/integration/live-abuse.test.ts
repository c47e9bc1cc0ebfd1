import net from 'node:net';
import { createClient, type Client } from 'graphql-ws';
import { io as connect, type Socket } from 'socket.io-client';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../support/app';
import { feedPath } from '../support/feeds';
import { waitFor } from './live-helpers';

// The limits of the live core (src/live/core.ts) as a hostile-but-honest client meets
// them, one test per abuse (issue 19): a budget shared by HTTP and sockets, the cap on operations per
// connection, frames over 64 kB refused from their header, a client that stops reading cut, errors
// masked with codes as on HTTP, upgrades on foreign paths refused at once.

/** Runs one operation on a graphql-ws client; resolves with what came back (data or errors). */
function once(client: Client, query: string, variables: Record<string, unknown> = {}): Promise<{ data?: any; errors?: any[] }> {
  return new Promise((resolve) => {
    let result: { data?: any; errors?: any[] } = {};
    client.subscribe(
      { query, variables },
      {
        next: (r) => (result = r as typeof result),
        error: (e) => resolve({ errors: Array.isArray(e) ? e : [e] }),
        complete: () => resolve(result),
      },
    );
  });
}

const wsClient = (t: TestApp, key: string): Client =>
  createClient({ url: `${t.baseUrl.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { apiKey: key }, retryAttempts: 0, lazy: false, onNonLazyError: () => {} });

/** Sends raw bytes after an upgrade request to `path`; resolves with every byte the server sent until it closed. */
function rawUpgrade(t: TestApp, path: string, headers: string, after: Buffer = Buffer.alloc(0)): Promise<Buffer> {
  const { port } = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    let upgraded = false;
    socket.on('data', (d) => {
      chunks.push(d);
      // The frame goes once the server said 101 (the server reads nothing of it before).
      if (!upgraded && Buffer.concat(chunks).includes('\r\n\r\n') && after.length) {
        upgraded = true;
        socket.write(after);
      }
    });
    socket.on('close', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`);
  });
}

/** The header of a masked client text frame announcing `length` bytes (8-byte length form), and 4 bytes of it. */
function hugeFrameStart(length: number): Buffer {
  const header = Buffer.alloc(14);
  header[0] = 0x81; // FIN, text
  header[1] = 0x80 | 127; // masked, 64-bit length
  header.writeBigUInt64BE(BigInt(length), 2);
  header.writeUInt32BE(0x01020304, 10); // mask key
  return Buffer.concat([header, Buffer.from('abcd')]);
}

/** The close code in a server close frame (unmasked, opcode 8) found in `bytes`, or null. */
function closeCodeIn(bytes: Buffer): number | null {
  const at = bytes.indexOf(Buffer.from([0x88]), bytes.indexOf('\r\n\r\n') + 4);
  return at >= 0 && bytes.length >= at + 4 ? bytes.readUInt16BE(at + 2) : null;
}

const WS_HEADERS = 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n';

describe('abuse of the live transports', () => {
  let t: TestApp;
  const clients: Client[] = [];
  const sockets: Socket[] = [];

  beforeAll(async () => {
    // A small budget for the starter plan and a small unsent-bytes cap make each limit quick to reach.
    t = await startTestApp({ feeds: [feedPath('nba-2026-01-24-mixed-status.json')], env: { RATE_LIMIT_STARTER: '6', SSE_MAX_BUFFERED_BYTES: '16384' } });
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.dispose();
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(() => t.close());

  test('when a starter key spends its budget over HTTP and graphql-ws, then both draw on one budget and the socket refusal carries RATE_LIMITED', async () => {
    const { key } = await t.createKey('starter');
    for (let i = 0; i < 3; i++) expect((await t.get('/api/v1/nba/odds/sportsbooks', key)).status).toBe(200);
    const client = wsClient(t, key);
    clients.push(client);
    for (let i = 0; i < 3; i++) expect(await once(client, '{ __typename }')).toEqual({ data: { __typename: 'Query' } });
    const refused = await once(client, '{ __typename }');
    expect(refused.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/6 requests per minute on the starter plan/), extensions: { code: 'RATE_LIMITED' } })]);
    // Spent on the socket, it shows on HTTP.
    const http = await t.get('/api/v1/nba/odds/sportsbooks', key);
    expect(http.status).toBe(429);
    expect(http.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  test('when a starter key has spent its budget over HTTP, then a Socket.IO subscribe is refused in its ack with the same limit', async () => {
    const { key } = await t.createKey('starter');
    for (let i = 0; i < 6; i++) expect((await t.get('/api/v1/nba/odds/sportsbooks', key)).status).toBe(200);
    const socket = connect(`${t.baseUrl}/live-odds`, { auth: { apiKey: key }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    const ack: any = await new Promise((resolve) => socket.emit('subscribe', { game_id: 1 }, resolve));
    expect(ack).toEqual({ success: false, error: expect.stringMatching(/^Too many requests: rate limit exceeded: 6 requests per minute on the starter plan, retry in \d+ s$/) });
  });

  test('when a connection opens more operations than the cap, then the one past it is refused with a code and the others keep running', async () => {
    const { key } = await t.createKey('elite');
    const client = wsClient(t, key);
    clients.push(client);
    const errors: any[] = [];
    const started: number[] = [];
    for (let i = 0; i < 21; i++) {
      client.subscribe({ query: 'subscription { liveOddsChanges { seq } }' }, { next: () => started.push(i), error: (e) => errors.push(e), complete: () => {} });
    }
    await waitFor('the refusal', () => errors.length > 0);
    expect(errors).toEqual([[expect.objectContaining({ message: expect.stringMatching(/at most 20 run at once/), extensions: { code: 'RATE_LIMITED' } })]]);
    // The 20 keep running: a query now is past the cap too.
    expect(await once(client, '{ __typename }')).toEqual({ errors: [expect.objectContaining({ extensions: { code: 'RATE_LIMITED' } })] });
  });

  test.each([
    ['graphql-ws', '/graphql', 'Sec-WebSocket-Protocol: graphql-transport-ws\r\n'],
    ['Socket.IO', '/socket.io/?EIO=4&transport=websocket', ''],
  ])('when a %s client announces a 50 MB frame before any key, then the socket is closed with 1009 from the header alone', async (_name, path, protocol) => {
    // Only the header and 4 bytes are sent: the close comes without the server waiting for the body.
    const answer = await rawUpgrade(t, path, WS_HEADERS + protocol, hugeFrameStart(50 * 1024 * 1024));
    expect(answer.toString('latin1')).toMatch(/^HTTP\/1\.1 101/);
    expect(closeCodeIn(answer)).toBe(1009);
  });

  test('when a Socket.IO client stops reading while pushes pile up, then it is cut with a reason and counted', async () => {
    const { key } = await t.createKey('elite');
    const metric = async () => Number(/^sse_slow_clients_cut_total (\S+)$/m.exec(await (await fetch(`${t.baseUrl}/metrics`)).text())?.[1] ?? 0);
    const before = await metric();
    const socket = connect(`${t.baseUrl}/live-odds`, { auth: { apiKey: key }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    const payloads: any[] = [];
    socket.on('live_odds', (p) => payloads.push(p));
    let disconnected = false;
    socket.on('disconnect', () => (disconnected = true));
    socket.emit('subscribe', {});
    await waitFor('the first snapshot', () => payloads.length > 0);
    // The client's side stops reading (it still writes): every resync is a full snapshot it leaves unread.
    const raw = (socket.io.engine.transport as unknown as { ws: { _socket: net.Socket } }).ws._socket;
    raw.pause();
    const ask = setInterval(() => {
      for (let i = 0; i < 20; i++) socket.emit('resync');
    }, 20);
    try {
      await waitForAsync('the cut to be counted', async () => (await metric()) > before);
    } finally {
      clearInterval(ask);
    }
    raw.resume();
    await waitFor('the disconnect', () => disconnected, 10_000);
  });

  test('when a graphql-ws operation fails inside, then its error is masked as on HTTP, and a plan refusal carries its code', async () => {
    const { key } = await t.createKey('starter');
    const starter = wsClient(t, key);
    clients.push(starter);
    const plan = await once(starter, '{ historicalOdds(startDate: "2026-01-24", endDate: "2026-01-24") { total } }');
    expect(plan.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/plan/i), extensions: { code: 'FORBIDDEN' } })]);

    const pro = wsClient(t, (await t.createKey('pro')).key);
    clients.push(pro);
    const result = await once(pro, 'mutation ($d: String) { createWebhook(input: { url: "https://example.com/hook", description: $d, predicate: { type: STATUS_CHANGE } }) { id } }', { d: 'a\u0000b' });
    for (const error of result.errors ?? []) {
      expect(error.extensions?.code).toEqual(expect.any(String));
      expect(JSON.stringify(error)).not.toMatch(/dist\/|src\/|\.js:|\.ts:|stacktrace|\n\s+at /);
    }
    // A syntax error keeps its message and gets the code HTTP gives it.
    expect((await once(pro, '{ nope')).errors).toEqual([expect.objectContaining({ extensions: { code: 'GRAPHQL_PARSE_FAILED' } })]);
  });

  test('when a client asks an upgrade on a path no transport serves, then it gets 404 and the socket is closed at once', async () => {
    const answer = await rawUpgrade(t, '/healthz', 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n');
    expect(answer.toString('latin1')).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    expect(answer.toString('latin1')).toMatch(/graphql-ws is on \/graphql/);
  });
});

/** Resolves when the async `predicate` holds (polled), or rejects after `timeoutMs` naming `what`. */
async function waitForAsync(what: string, predicate: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!(await predicate())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
