import { createHook } from 'node:async_hooks';
import { openTestDatabase } from '../support/database';

// A suite that ends cleanly: opening (and migrating) a store then closing it leaves no timer that
// keeps the process alive. The schema engine's timers once outlived a migration by 10 s, so jest
// force-exited its workers ("failed to exit gracefully") and CLI commands lingered.

test('when a fresh store is migrated and closed, then none of the timers it started keeps the process alive', async () => {
  const started = new Map<number, { hasRef(): boolean }>();
  const hook = createHook({
    init(id, type, _trigger, resource) {
      if (type === 'Timeout') started.set(id, resource as { hasRef(): boolean });
    },
    destroy(id) {
      started.delete(id);
    },
  }).enable();
  try {
    const db = await openTestDatabase();
    await db.close();
  } finally {
    hook.disable();
  }
  // a timer that has fired or was cleared no longer holds the loop, whatever its object says
  const holding = [...started.values()]
    .filter((t) => t.hasRef() && (t as { _destroyed?: boolean })._destroyed !== true)
    .map((t) => `a ${(t as { _idleTimeout?: number })._idleTimeout} ms timer`);
  expect(holding).toEqual([]);
});
