import { createHook } from 'node:async_hooks';
import { io } from 'socket.io-client';
import { openTestDatabase } from '../support/database';
import { startTestApp } from '../support/app';

// A suite that ends cleanly: what a store or an app opens, closing them closes, so nothing they
// started keeps the process alive. The schema engine's timers once outlived a migration by 10 s, so
// jest force-exited its workers ("failed to exit gracefully") and CLI commands lingered.
//
// Every async resource created while `run` runs is recorded (timers, sockets, servers, ...); those
// still referenced and not destroyed at the end are what would hold the process.
async function holdersLeftBy(run: () => Promise<void>): Promise<string[]> {
  const started = new Map<number, { type: string; resource: { hasRef?(): boolean; _destroyed?: boolean; _idleTimeout?: number } }>();
  const hook = createHook({
    init(id, type, _trigger, resource) {
      started.set(id, { type, resource: resource as never });
    },
    destroy(id) {
      started.delete(id);
    },
  }).enable();
  try {
    await run();
    // closed handles are destroyed on the next turns of the loop
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    hook.disable();
  }
  return [...started.values()]
    .filter(({ resource }) => typeof resource.hasRef === 'function' && resource.hasRef() && resource._destroyed !== true)
    .map(({ type, resource }) => (type === 'Timeout' ? `a ${resource._idleTimeout} ms timer` : type));
}

test('when a fresh store is migrated and closed, then none of the timers or connections it started keeps the process alive', async () => {
  const holding = await holdersLeftBy(async () => {
    const db = await openTestDatabase();
    await db.close();
  });
  expect(holding).toEqual([]);
});

test('when the app serves REST, GraphQL, /metrics and a live Socket.IO client and is then closed, then nothing it opened keeps the process alive', async () => {
  const holding = await holdersLeftBy(async () => {
    const app = await startTestApp();
    const { key } = await app.createKey('elite');
    expect((await app.get('/api/v1/nba/odds/games', key)).status).toBe(200);
    expect((await app.graphql('{ __typename }', {}, key)).status).toBe(200);
    expect((await app.get('/metrics')).status).toBe(200);
    const socket = io(`${app.baseUrl}/live-odds`, { auth: { apiKey: key }, transports: ['websocket'], reconnection: false, forceNew: true });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    socket.disconnect();
    await app.close();
  });
  expect(holding).toEqual([]);
});
