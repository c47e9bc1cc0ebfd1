import net from 'node:net';
import { startTestApp, type TestApp } from '../support/app';

// Client input that once reached a query and answered 500 (issue 12): each is now a 400 naming the
// parameter on REST and BAD_USER_INPUT on GraphQL, or a harmless literal match. Generated inputs over
// every route and operation: fuzz.test.ts.

const BASE = '/api/v1/nba/odds';
const DATE_RULE = 'must be a real calendar date YYYY-MM-DD from 1900-01-01 to 2999-12-31';
let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp({ feeds: ['test/fixtures/feeds/nba-2026-01-24-mixed-status.json'], now: () => new Date('2026-01-24T18:00:00Z') });
  key = (await t.createKey('elite')).key;
});
afterAll(() => t.close());

const get = (path: string) => t.get(BASE + path, key);
const historical = (at: string) => `/historical?start_date=2026-01-24&end_date=2026-01-24&at=${encodeURIComponent(at)}`;

describe('when a parameter is out of its documented range, then REST answers 400 naming it', () => {
  test.each([
    ...['/games', '/consensus', '/betting-info', '/markets/moneyline', '/markets/spread', '/markets/total', '/games/264317', '/games/264317/boxscore', '/games/264317/markets'].flatMap(
      (path) => ['9999-12-31', '0000-01-01', '1899-12-31', '3000-01-01'].map((d) => [`${path}?date=${d}`, `invalid parameter date: ${DATE_RULE}`]),
    ),
    ['/games?start_date=9999-12-31', `invalid parameter start_date: ${DATE_RULE}`],
    ['/games?end_date=0000-01-01', `invalid parameter end_date: ${DATE_RULE}`],
    ['/historical?start_date=9999-12-01&end_date=9999-12-31', `invalid parameter start_date: ${DATE_RULE}`],
    ['/games?status=__proto__', 'invalid parameter status: must be one of scheduled, live, in_progress, finished, closed, postponed, cancelled, unknown'],
    ['/games?status=constructor', 'invalid parameter status: must be one of scheduled, live, in_progress, finished, closed, postponed, cancelled, unknown'],
    ['/games?status=toString', 'invalid parameter status: must be one of scheduled, live, in_progress, finished, closed, postponed, cancelled, unknown'],
    ['/teams?conference=east%00', 'invalid parameter conference: must be text of 1 to 50 characters without control characters'],
    ['/teams?division=%00', 'invalid parameter division: must be text of 1 to 50 characters without control characters'],
    ['/leagues?sport=basket%00ball', 'invalid parameter sport: must be text of 1 to 50 characters without control characters'],
    ['/games?start_date=2026-01-25&end_date=2026-01-24', 'invalid parameter start_date: must not be after end_date'],
    ['/historical?start_date=2026-01-25&end_date=2026-01-24', 'invalid parameter end_date: must not be before start_date'],
    ['/historical?end_date=2026-01-24', 'invalid parameter start_date: is required, a day written YYYY-MM-DD'],
  ])('GET %s', async (path, error) => {
    const res = await get(path);
    expect(res.body).toEqual({ success: false, error });
    expect(res.status).toBe(400);
  });

  test.each(['1,1,1', '-1', '1.5', '2026-02-30', '0000-01-01', '-000001-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '2026-01-24T24:00:00Z', '2026-01-24 19:00', 'now', '1e3'])(
    'GET /historical?at=%s',
    async (at) => {
      const res = await get(historical(at));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^invalid parameter at: must be an ISO 8601 instant/);
    },
  );

  test('ISO 8601 instants of every documented shape are accepted', async () => {
    for (const at of ['2026-01-24', '2026-01-24T19:30Z', '2026-01-24T19:30:00Z', '2026-01-24T19:30:00.123Z', '2026-01-24T14:30:00-05:00', '2026-01-24T19:30:00']) {
      const res = await get(historical(at));
      expect([at, res.status]).toEqual([at, 200]);
    }
  });
});

describe('when a text filter holds LIKE syntax, then it matches literally', () => {
  test.each([
    ['/teams?conference=%25', 0],
    ['/teams?conference=_', 0],
    ['/teams?division=%25a', 0],
    ['/teams?conference=%5C', 0],
    ['/leagues?sport=%5C', 0],
    ['/leagues?sport=%25', 0],
    ['/leagues?sport=basketbal_', 0],
    ['/leagues?sport=BASKETBALL', 2],
    ['/teams?league_id=4&conference=EAST', 15],
  ])('GET %s finds %i', async (path, count) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(count);
  });
});

describe('when the same inputs come through GraphQL, then they are BAD_USER_INPUT, never INTERNAL_SERVER_ERROR', () => {
  // Scalars (Date, DateTime) are checked when variables are coerced; the REST operations pass every
  // parameter as a variable. (Written inline, a bad literal is GraphQL's GRAPHQL_VALIDATION_FAILED.)
  const historicalAt = 'query ($at: DateTime) { historicalOdds(startDate: "2026-01-24", endDate: "2026-01-24", at: $at) { total } }';
  test.each<[string, Record<string, unknown> | undefined, RegExp]>([
    // Closed sets are enums: a word that is no value of the enum (even an inherited key) is refused
    // while the variables are coerced.
    ['query ($s: GameStatusFilter) { games(status: $s) { total } }', { s: '__proto__' }, /does not exist in "GameStatusFilter" enum/],
    ['query ($s: GameStatusFilter) { games(status: $s) { total } }', { s: 'constructor' }, /does not exist in "GameStatusFilter" enum/],
    ['query ($date: Date) { games(date: $date) { total } }', { date: '9999-12-31' }, /Date must be a real calendar date YYYY-MM-DD from 1900-01-01 to 2999-12-31/],
    ['query ($date: Date) { consensus(date: $date) { gameId } }', { date: '0000-01-01' }, /Date must be a real calendar date/],
    ['query ($c: String) { teams(conference: $c) { id } }', { c: 'east\u0000' }, /^invalid parameter conference: /],
    ['{ teams(division: "") { id } }', undefined, /^invalid parameter division: /],
    ['{ leagues(sport: "a\\u0000") { id } }', undefined, /^invalid parameter sport: /],
    [historicalAt, { at: '0000-01-01' }, /DateTime must be an ISO 8601 instant/],
    [historicalAt, { at: '-000001-01-01T00:00:00Z' }, /DateTime must be an ISO 8601 instant/],
    [historicalAt, { at: '1,1,1' }, /DateTime must be an ISO 8601 instant/],
    [historicalAt, { at: 1.5 }, /DateTime must be an ISO 8601 instant/],
    ['query ($m: MarketType!) { marketListing(marketType: $m) { gameId } }', { m: '__proto__' }, /does not exist in "MarketType" enum/],
    ['query ($m: [MarketType!]) { bettingInfo(marketType: $m) { gameId } }', { m: ['constructor'] }, /does not exist in "MarketType" enum/],
    ['query ($s: [Side!]) { lineMovement(side: $s) { count } }', { s: ['__proto__'] }, /does not exist in "Side" enum/],
    ['query ($p: [Period!]) { lineMovement(period: $p) { count } }', { p: ['toString'] }, /does not exist in "Period" enum/],
    ['{ marketListing(marketType: TOTAL, side: [HOME]) { gameId } }', undefined, /^invalid parameter side: must be one of over, under/],
  ])('%s %j', async (query, variables, message) => {
    const res = await t.graphql(query, variables, key);
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(res.body.errors[0].message).toMatch(message);
  });

  test('LIKE syntax in GraphQL text arguments matches literally', async () => {
    const res = await t.graphql('{ teams(conference: "%") { id } leagues(sport: "\\\\") { id } }', undefined, key);
    expect(res.body).toEqual({ data: { teams: [], leagues: [] } });
  });
});

describe('when the HTTP parser refuses a request, then the answer is the error envelope', () => {
  test('a URL over 16 kB answers 431 with a JSON body', async () => {
    const res = await fetch(`${t.baseUrl}${BASE}/games?date=${'x'.repeat(17_000)}`);
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ success: false, error: 'request header fields too large: the URL and headers must stay under 16 kB' });
  });

  test('malformed HTTP answers 400 with a JSON body', async () => {
    const { port } = new URL(t.baseUrl);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({ success: false, error: 'invalid request: malformed HTTP' });
  });
});
