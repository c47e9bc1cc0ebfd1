import { readFileSync } from 'node:fs';
import type { Database } from '../../src/db/client';
import { ingestDocuments } from '../../src/ingest/ingest';
import { startTestApp, TEST_ADMIN_KEY, type TestApp } from '../support/app';
import { countingDatabase } from '../support/counting-database';
import { openTestDatabase } from '../support/database';

// /graphql: authentication, admin guard (abuse limits: graphql-limits.test.ts), and the DataLoader promise that a page
// of N games with markets costs a fixed number of SQL statements.

const FIXTURE = 'test/fixtures/feeds/nba-2026-01-24-mixed-status.json';

let base: Database;
let counting: ReturnType<typeof countingDatabase>;
let t: TestApp;
let key: string;

beforeAll(async () => {
  base = await openTestDatabase();
  counting = countingDatabase(base);
  t = await startTestApp({ db: counting.db, feeds: [FIXTURE] });
  // Two more copies of the day under other game ids: 21 games with markets on one day.
  const doc = JSON.parse(readFileSync(FIXTURE, 'utf8'));
  for (const offset of [100_000, 200_000]) {
    const copy = { ...doc, games: doc.games.map((g: any) => ({ ...g, id: g.id + offset })) };
    await ingestDocuments([{ name: `copy+${offset}`, fetchedAt: null, body: copy }], { db: base });
  }
  key = (await t.createKey('pro')).key;
});
afterAll(async () => {
  await t.close();
  await counting.db.prisma.$disconnect();
  await base.close();
});

const PAGE = `query($limit: Int!) {
  games(date: "2026-01-24", limit: $limit) {
    total
    items {
      game_id league_name away_team { abbr } home_team { abbr } teams { id standings { win } }
      boxscore { home_score period_scores { period } }
      markets {
        moneyline { count best_odds { book_name } consensus { book_count average_odds { decimal } } outcomes { team { abbr } odds { american } } }
        spread { count best_odds { book_name } outcomes { team { abbr } point } }
        total { count outcomes { side point } }
      }
    }
  }
}`;

test('when a page of 2 or of 20 games with markets is read, then the same number of SQL statements runs', async () => {
  const statementsFor = async (limit: number) => {
    counting.reset();
    const res = await t.graphql(PAGE, { limit }, key);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.games.items).toHaveLength(limit);
    return counting.count();
  };
  // The first request of a key looks it up; later ones find it in the authenticator's memory.
  await statementsFor(1);
  const two = await statementsFor(2);
  const twenty = await statementsFor(20);
  expect(twenty).toBe(two);
  // count + page + teams + leagues + boxscores + quotes + books: small and fixed
  expect(two).toBeLessThanOrEqual(9);
});

test('when there is no valid key, then errors carry extensions.code UNAUTHENTICATED and no data', async () => {
  for (const k of [undefined, 'sk_' + 'y'.repeat(43)]) {
    const res = await t.graphql('{ sportsbooks { id } }', {}, k);
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  }
  const expired = await t.createKey('pro', { expiresAt: new Date(Date.now() - 1) });
  const res = await t.graphql('{ sportsbooks { id } }', {}, expired.key);
  expect(res.body.errors[0].extensions.code).toBe('SUBSCRIPTION_EXPIRED');
});

test('when a key is valid, then queries mirror REST arguments and errors use the catalogue codes', async () => {
  const res = await t.graphql('{ game(game_id: 264315) { game_id status markets(period: "full") { spread { count } } } }', {}, key);
  expect(res.body.data.game).toMatchObject({ game_id: 264315, status: 'in_progress' });
  const bad = await t.graphql('{ games(limit: 5000) { total } }', {}, key);
  expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  expect(bad.body.errors[0].message).toContain('limit');
  const badDate = await t.graphql('{ games(date: "2026-02-30") { total } }', {}, key);
  expect(badDate.body.errors[0].message).toMatch(/Date/);
});

test('when the admin key reads api_keys, then keys are listed; an API key may not', async () => {
  const admin = await t.graphql('{ api_keys { id prefix plan } }', {}, TEST_ADMIN_KEY);
  expect(admin.body.data.api_keys.length).toBeGreaterThan(0);
  const user = await t.graphql('{ api_keys { id } }', {}, key);
  expect(user.body.errors[0].extensions.code).toBe('FORBIDDEN');
});
