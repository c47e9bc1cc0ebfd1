import { createClient } from 'graphql-ws';
import { io as connect, type Socket } from 'socket.io-client';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../support/app';
import { waitFor } from './live-helpers';

// Live connections per key are capped by plan (LIVE_CONNECTIONS_*), Socket.IO and graphql-ws
// together: one past the cap is refused with a clear reason, and a closed one frees its place.

let t: TestApp;
const sockets: Socket[] = [];
beforeAll(async () => {
  t = await startTestApp({ env: { LIVE_CONNECTIONS_STARTER: '2' } });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

const open = (apiKey: string) =>
  new Promise<{ socket: Socket; error?: Error & { data?: any } }>((resolve) => {
    const socket = connect(`${t.baseUrl}/live-odds`, { auth: { apiKey }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    socket.on('connect', () => resolve({ socket }));
    socket.on('connect_error', (error) => resolve({ socket, error }));
  });

test('when a Starter key opens one live connection past its cap, then it is refused saying so; closing one frees a place', async () => {
  const { key } = await t.createKey('starter');
  const first = await open(key);
  expect(first.error).toBeUndefined();
  // The second place is taken over graphql-ws: the cap counts both transports.
  const closed: Array<{ code: number; reason: string }> = [];
  const ws = createClient({ url: t.baseUrl.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { apiKey: key }, retryAttempts: 0, lazy: false, onNonLazyError: () => {}, on: { closed: (e: any) => closed.push({ code: e.code, reason: String(e.reason) }) } });
  await new Promise((resolve, reject) => ws.subscribe({ query: '{ ok }' }, { next: resolve, error: reject, complete: () => {} }));

  const third = await open(key);
  expect(third.error?.message).toMatch(/Too many connections: the starter plan allows 2 live connections per API key/);
  expect(third.error?.data).toEqual({ reason: 'connections', status: 429 });
  const fourth = createClient({ url: t.baseUrl.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { apiKey: key }, retryAttempts: 0, lazy: false, onNonLazyError: () => {}, on: { closed: (e: any) => closed.push({ code: e.code, reason: String(e.reason) }) } });
  await waitFor('the graphql-ws refusal', () => closed.some((c) => c.code === 4429));
  await fourth.dispose();

  first.socket.close();
  let freed: Awaited<ReturnType<typeof open>> | undefined;
  for (let i = 0; i < 25 && (!freed || freed.error); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100)); // the server sees the close
    freed = await open(key);
  }
  expect(freed?.error).toBeUndefined();
  await ws.dispose();
});

test('when another key connects, then it has its own places', async () => {
  const a = await t.createKey('starter');
  const b = await t.createKey('starter');
  for (const key of [a.key, a.key, b.key, b.key]) expect((await open(key)).error).toBeUndefined();
});
