import { openDatabase, MEMORY } from '../../src/db/client';
import { startTestApp, type TestApp } from '../support/app';
import { createPostgresServer, POSTGRES_BIN } from '../support/postgres-server';
import { freePort } from '../support/redis-server';
import { waitFor } from './live-helpers';

// PostgreSQL restarting under load: requests meanwhile get 503 envelopes (GraphQL: UNAVAILABLE),
// never a 500, and the service answers again once the database is back, without a restart.

if (!POSTGRES_BIN) console.warn('database-outage.test.ts skipped: no PostgreSQL binaries');
const describeWithServer = POSTGRES_BIN ? describe : describe.skip;

describeWithServer('PostgreSQL restart', () => {
  let server: ReturnType<typeof createPostgresServer>;
  let t: TestApp;

  beforeAll(async () => {
    server = createPostgresServer(await freePort());
    server.start();
    const db = await openDatabase({ dataDir: MEMORY, databaseUrl: server.url });
    t = await startTestApp({ db, feeds: ['test/fixtures/feeds/nba-2026-01-24-mixed-status.json'] });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await t?.db.close();
    server?.remove();
  });

  test('when the database stops under load and comes back, then requests get 503 meanwhile and 200 again after, with no 500', async () => {
    const { key } = await t.createKey('pro');
    const statuses: number[] = [];
    let stop = false;
    // A steady load of reads (the key lookup and the games query both touch the database).
    const load = (async () => {
      while (!stop) {
        const res = await t.get('/api/v1/nba/odds/games?limit=2', key);
        statuses.push(res.status);
        if (res.status !== 200) expect(res.body).toEqual({ success: false, error: expect.stringMatching(/unavailable|not reachable/i) });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await waitFor('requests served', () => statuses.includes(200));
    server.stop();
    await waitFor('a 503 while the database is down', () => statuses.includes(503), 15_000);
    // The key is verified from memory now, so the query itself meets the outage: a field error.
    const gql = await t.graphql('{ games(limit: 1) { total } }', {}, key);
    expect(gql.body.errors[0].extensions.code).toBe('UNAVAILABLE');
    const ready = await t.get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.data.database.ok).toBe(false);
    expect((await t.get('/healthz')).status).toBe(200);
    server.start();
    const before = statuses.length;
    await waitFor('200 again after the restart', () => statuses.slice(before).includes(200), 30_000);
    stop = true;
    await load;
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
  }, 120_000);
});
