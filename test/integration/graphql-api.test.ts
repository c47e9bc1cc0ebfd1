import { readFileSync } from 'node:fs';
import { getIntrospectionQuery, type IntrospectionEnumType, type IntrospectionSchema, type IntrospectionType } from 'graphql';
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
      gameId leagueName awayTeam { abbr } homeTeam { abbr } teams { id standings { win } }
      boxscore { homeScore periodScores { period } }
      markets {
        moneyline { count bestOdds { bookName } consensus { bookCount averageOdds { decimal } } outcomes { team { abbr } odds { american } } }
        spread { count bestOdds { bookName } outcomes { team { abbr } point } }
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
  const res = await t.graphql('{ game(gameId: 264315) { gameId status markets(period: FULL_GAME) { spread { count } } } }', {}, key);
  expect(res.body.data.game).toMatchObject({ gameId: 264315, status: 'in_progress' });
  const bad = await t.graphql('{ games(limit: 5000) { total } }', {}, key);
  expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  expect(bad.body.errors[0].message).toContain('limit');
  const badDate = await t.graphql('{ games(date: "2026-02-30") { total } }', {}, key);
  expect(badDate.body.errors[0].message).toMatch(/Date/);
});

test('when the admin key reads apiKeys, then keys are listed; an API key may not', async () => {
  const admin = await t.graphql('{ apiKeys { id prefix plan accountId createdAt } }', {}, TEST_ADMIN_KEY);
  expect(admin.body.data.apiKeys.length).toBeGreaterThan(0);
  expect(admin.body.data.apiKeys[0]).toMatchObject({ plan: 'PRO', accountId: expect.stringMatching(/^acct_/), createdAt: expect.stringMatching(/^\d{4}-/) });
  const user = await t.graphql('{ apiKeys { id } }', {}, key);
  expect(user.body.errors[0].extensions.code).toBe('FORBIDDEN');
});

describe('when the served schema is introspected with the standard query (getIntrospectionQuery)', () => {
  let schema: IntrospectionSchema;
  beforeAll(async () => {
    const elite = (await t.createKey('elite')).key;
    const res = await t.graphql(getIntrospectionQuery({ descriptions: true }), {}, elite);
    expect(res.body.errors).toBeUndefined();
    schema = res.body.data.__schema;
  });
  const own = () => schema.types.filter((type) => !type.name.startsWith('__'));
  const fieldsOf = (type: IntrospectionType) => ('fields' in type && type.fields) || [];

  test('then the closed sets are enums (at least 6) whose values are UPPER_CASE', () => {
    const enums = own().filter((type): type is IntrospectionEnumType => type.kind === 'ENUM');
    expect(enums.map((e) => e.name)).toEqual(expect.arrayContaining(['MarketType', 'Side', 'Period', 'GameStatusFilter', 'DevigMethod', 'ListingSort', 'Plan']));
    expect(enums.length).toBeGreaterThanOrEqual(6);
    const notUpper = enums.flatMap((e) => e.enumValues.filter((v) => !/^[A-Z][A-Z0-9_]*$/.test(v.name)).map((v) => `${e.name}.${v.name}`));
    expect(notUpper).toEqual([]);
  });

  test('then no field or argument name has an underscore', () => {
    const named = own().flatMap((type) => fieldsOf(type).flatMap((f) => [`${type.name}.${f.name}`, ...f.args.map((a) => `${type.name}.${f.name}(${a.name})`)]));
    expect(named.length).toBeGreaterThan(200);
    expect(named.filter((name) => name.includes('_'))).toEqual([]);
  });

  test('then every type, field, argument and enum value has a description', () => {
    const missing = own().flatMap((type) => [
      ...(type.description ? [] : [type.name]),
      ...fieldsOf(type).flatMap((f) => [...(f.description ? [] : [`${type.name}.${f.name}`]), ...f.args.filter((a) => !a.description).map((a) => `${type.name}.${f.name}(${a.name})`)]),
      ...(type.kind === 'ENUM' ? type.enumValues.filter((v) => !v.description).map((v) => `${type.name}.${v.name}`) : []),
    ]);
    expect(missing).toEqual([]);
  });

  test('then an enum argument takes the UPPER_CASE value and a lower-case word is a validation error', async () => {
    const ok = await t.graphql('{ games(date: "2026-01-24", status: LIVE) { items { gameId status } } }', {}, key);
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.games.items.length).toBeGreaterThan(0);
    expect(ok.body.data.games.items.every((g: { status: string }) => g.status === 'in_progress' || g.status === 'live')).toBe(true);
    const lower = await t.graphql('query($s: GameStatusFilter) { games(status: $s) { total } }', { s: 'live' }, key);
    expect(lower.status).toBe(400);
    expect(lower.body.errors[0].message).toMatch(/GameStatusFilter/);
  });
});
