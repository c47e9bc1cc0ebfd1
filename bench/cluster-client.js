'use strict';
// A client process of bench/cluster-memory.js: SOCKETS Socket.IO clients of /live-odds (WebSocket)
// and SSE_STREAMS SSE streams, through the balancer at URL, with the API keys of KEYS (comma-separated,
// used in turn). Each client only counts what it gets, as a light real client would. Tells its parent
// `{ ready }` once every client has its first snapshot, then `{ received }` when told `stop`.
const { io } = require('socket.io-client');

const URL_ = process.env.URL;
const KEYS = process.env.KEYS.split(',');
const SOCKETS = Number(process.env.SOCKETS);
const SSE_STREAMS = Number(process.env.SSE_STREAMS);
const FILTERS = [{}, { market_type: 'moneyline' }, { market_type: 'spread' }, { market_type: 'total' }, { market_type: 'player_props' }];

const received = { snapshots: 0, changes: 0, sseBytes: 0, errors: 0 };
const sockets = [];
const streams = [];

function socketClient(i) {
  return new Promise((resolve) => {
    const socket = io(`${URL_}/live-odds`, { transports: ['websocket'], forceNew: true, auth: { apiKey: KEYS[i % KEYS.length], changes: true, ...FILTERS[i % FILTERS.length] } });
    let first = true;
    socket.on('live_odds', (payload) => {
      if (!payload.success) received.errors++;
      else received.snapshots++;
      if (first) {
        first = false;
        resolve();
      }
    });
    socket.on('odds_change', () => received.changes++);
    socket.on('connect_error', () => received.errors++);
    sockets.push(socket);
  });
}

async function sseClient(i) {
  const controller = new AbortController();
  const res = await fetch(`${URL_}/api/v1/nba/odds/stream`, { headers: { authorization: `Bearer ${KEYS[i % KEYS.length]}`, accept: 'text/event-stream' }, signal: controller.signal });
  if (res.status !== 200) {
    received.errors++;
    return;
  }
  streams.push(controller);
  const reader = res.body.getReader();
  let first;
  const firstEvent = new Promise((resolve) => (first = resolve));
  (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true }));
      if (done) return;
      received.sseBytes += value.length;
      first();
    }
  })();
  await firstEvent;
}

process.on('message', async (message) => {
  if (message === 'stop') {
    for (const s of sockets) s.close();
    for (const c of streams) c.abort();
    process.send({ received }, () => process.exit(0));
  }
});

(async () => {
  // A few at a time, as clients arrive, not one burst.
  for (let i = 0; i < SOCKETS; i += 25) await Promise.all(Array.from({ length: Math.min(25, SOCKETS - i) }, (_, j) => socketClient(i + j)));
  for (let i = 0; i < SSE_STREAMS; i++) await sseClient(i);
  process.send({ ready: { sockets: sockets.filter((s) => s.connected).length, streams: streams.length, errors: received.errors } });
})();
