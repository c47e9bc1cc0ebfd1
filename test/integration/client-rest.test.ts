import { OddsApiError, OddsClient } from '../../clients/typescript/src';
import { startTestApp, type TestApp } from '../support/app';

// The typed TypeScript client (clients/typescript, issue 38) against the service serving a real
// capture: each method answers the `data` of its route, results carry the rate-limit headers, and
// every refusal is an OddsApiError with the status, its code and the service's message.

const FIXTURE = 'test/fixtures/feeds/nba-2026-01-24-mixed-status.json';
const PATH = '/api/v1/nba/odds';

describe('the TypeScript client on a real capture', () => {
  let t: TestApp;
  let key: string;
  let client: OddsClient;
  let gameId: number;

  beforeAll(async () => {
    // A small Starter budget, so a test can spend it (429); Pro keys keep the default. The app's
    // clock is pinned: the first test reads each route twice, a moment apart, and a field that moves
    // with the clock (age_seconds) could cross a second between the two reads (seen once in CI).
    t = await startTestApp({ feeds: [FIXTURE], env: { RATE_LIMIT_STARTER: '3' }, now: () => new Date('2026-01-25T12:00:00Z') });
    key = (await t.createKey('elite')).key;
    client = new OddsClient({ baseUrl: t.baseUrl, apiKey: key });
    gameId = (await t.get(`${PATH}/games?date=2026-01-24&limit=1`, key)).body.data[0].game_id;
  });
  afterAll(() => t.close());

  test('when each read method is called, then it answers the data of its route for the same arguments', async () => {
    // [method call, the route's path and query]
    const cases: Array<[string, () => Promise<{ data: unknown }>, string]> = [
      ['listGames', () => client.listGames({ date: '2026-01-24', limit: 3 }), '/games?date=2026-01-24&limit=3'],
      ['getGame', () => client.getGame(gameId), `/games/${gameId}`],
      ['getBoxscore', () => client.getBoxscore(gameId), `/games/${gameId}/boxscore`],
      ['getGameMarkets', () => client.getGameMarkets(gameId, { market_type: ['spread'], book_id: [68] }), `/games/${gameId}/markets?market_type=spread&book_id=68`],
      ['listTeams', () => client.listTeams(), '/teams'],
      ['listPlayers', () => client.listPlayers({ limit: 5 }), '/players?limit=5'],
      ['listLeagues', () => client.listLeagues(), '/leagues'],
      ['listSportsbooks', () => client.listSportsbooks(), '/sportsbooks'],
      ['getConsensus', () => client.getConsensus({ date: '2026-01-24' }), '/consensus?date=2026-01-24'],
      ['getBettingInfo', () => client.getBettingInfo({ date: '2026-01-24' }), '/betting-info?date=2026-01-24'],
      ['listMoneylines', () => client.listMoneylines({ game_id: [gameId] }), `/markets/moneyline?game_id=${gameId}`],
      ['listSpreads', () => client.listSpreads({ game_id: [gameId] }), `/markets/spread?game_id=${gameId}`],
      ['listTotals', () => client.listTotals({ game_id: [gameId] }), `/markets/total?game_id=${gameId}`],
      ['listPlayerProps', () => client.listPlayerProps({ game_id: [gameId] }), `/markets/player_props?game_id=${gameId}`],
      ['listMiddles', () => client.listMiddles(), '/markets/middles'],
      ['listSignals', () => client.listSignals(), '/signals'],
      ['getLiveOdds', () => client.getLiveOdds({ market_type: 'total' }), '/live?market_type=total'],
      ['getLineMovement', () => client.getLineMovement({ game_id: [gameId] }), `/live/movement?game_id=${gameId}`],
      ['getHistoricalOdds', () => client.getHistoricalOdds({ start_date: '2026-01-24', end_date: '2026-01-24', book_id: [68], limit: 5 }), '/historical?start_date=2026-01-24&end_date=2026-01-24&book_id=68&limit=5'],
      ['getClosingLines', () => client.getClosingLines({ game_id: [gameId] }), `/closing?game_id=${gameId}`],
    ];
    for (const [name, call, path] of cases) {
      const rest = await t.get(PATH + path, key);
      expect({ name, status: rest.status }).toEqual({ name, status: 200 });
      const result = await call();
      expect({ name, data: result.data }).toEqual({ name, data: rest.body.data });
    }
  });

  test('when bets are graded and their CLV asked, then the POST methods answer the data of their routes', async () => {
    const bets = [{ game_id: gameId, market_type: 'moneyline' as const, side: 'home' as const }];
    expect((await client.gradeBets({ bets })).data).toEqual((await t.request('POST', `${PATH}/grade`, key, { bets })).body.data);
    const clvBets = [{ game_id: gameId, market_type: 'moneyline' as const, side: 'home' as const, book_id: 68, price: 150 }];
    expect((await client.betClv({ bets: clvBets })).data).toEqual((await t.request('POST', `${PATH}/clv`, key, { bets: clvBets })).body.data);
  });

  test('when a webhook is created, read, changed, tested and deleted, then each method answers as its route', async () => {
    const local = new OddsClient({ baseUrl: t.baseUrl, apiKey: (await t.createKey('pro')).key });
    // A public address: the service refuses private targets unless WEBHOOK_ALLOW_PRIVATE_TARGETS.
    const created = await local.createWebhook({ url: 'https://example.com/hook', predicate: { type: 'arbitrage' } });
    expect(created.status).toBe(201);
    const id = (created.data as { id: number }).id;
    expect((await local.listWebhooks()).data).toEqual([expect.objectContaining({ id })]);
    expect((await local.getWebhook(id)).data).toMatchObject({ id, url: 'https://example.com/hook' });
    expect((await local.updateWebhook(id, { enabled: false })).data).toMatchObject({ id, enabled: false });
    expect((await local.testWebhook(id)).data).toMatchObject({ event_type: 'webhook.test', status: 'pending' });
    expect((await local.listWebhookDeliveries(id)).data).toEqual([expect.objectContaining({ event_type: 'webhook.test' })]);
    await local.deleteWebhook(id);
    await expect(local.getWebhook(id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  test('when a call succeeds, then its result carries the key budget of the X-RateLimit headers and the request id', async () => {
    const first = await client.listLeagues();
    const second = await client.listLeagues();
    expect(first.rateLimit).toEqual({ limit: 6000, remaining: expect.any(Number), resetSeconds: expect.any(Number), retryAfterSeconds: null });
    expect(second.rateLimit.remaining).toBe(first.rateLimit.remaining! - 1);
    expect(first.requestId).toMatch(/\S/);
    expect(first.body).toMatchObject({ success: true, count: first.data.length });
  });

  /** The OddsApiError a call rejects with. */
  const refusal = async (call: Promise<unknown>): Promise<OddsApiError> => {
    const error = await call.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OddsApiError);
    return error as OddsApiError;
  };

  test('when a parameter is invalid, then the call throws a 400 OddsApiError naming the parameter in the service words', async () => {
    const error = await refusal(client.listGames({ limit: 0 }));
    expect(error).toMatchObject({ status: 400, code: 'bad_request', message: expect.stringMatching(/^invalid parameter limit: /) });
    expect(error.details).toMatchObject({ parameter: 'limit', body: { success: false, error: error.message }, requestId: expect.any(String) });
    expect(error.rateLimit.limit).toBe(6000);
    // A route's required parameter, missing: the types demand it, a cast gets it past them.
    expect(await refusal(client.getHistoricalOdds({ start_date: '2026-01-24' } as never))).toMatchObject({ status: 400, details: { parameter: 'end_date' } });
  });

  test('when the key is missing, unknown or revoked, then the call throws a 401 OddsApiError', async () => {
    const error = await refusal(new OddsClient({ baseUrl: t.baseUrl, apiKey: 'sk_not_a_key' }).listGames());
    expect(error).toMatchObject({ status: 401, code: 'unauthorized', message: expect.stringMatching(/API key/i) });
    expect(error.rateLimit).toEqual({ limit: null, remaining: null, resetSeconds: null, retryAfterSeconds: null });
  });

  test('when the plan does not include the route, then the call throws a 403 OddsApiError naming the plans', async () => {
    const starter = new OddsClient({ baseUrl: t.baseUrl, apiKey: (await t.createKey('starter')).key });
    const error = await refusal(starter.getLineMovement());
    expect(error).toMatchObject({ status: 403, code: 'forbidden', message: expect.stringMatching(/pro/i) });
  });

  test('when the game does not exist, then the call throws a 404 OddsApiError', async () => {
    expect(await refusal(client.getGame(2147483000))).toMatchObject({ status: 404, code: 'not_found', message: expect.stringMatching(/not found/i) });
  });

  test('when the key has spent its budget, then the call throws a 429 OddsApiError with Retry-After', async () => {
    const starter = new OddsClient({ baseUrl: t.baseUrl, apiKey: (await t.createKey('starter')).key });
    for (let i = 0; i < 3; i++) await starter.listLeagues();
    const error = await refusal(starter.listLeagues());
    expect(error).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(error.rateLimit).toMatchObject({ limit: 3, remaining: 0, retryAfterSeconds: expect.any(Number) });
    expect(error.rateLimit.retryAfterSeconds).toBeGreaterThan(0);
  });
});
