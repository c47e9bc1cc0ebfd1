import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { OddsApiConfig } from '../../src/config';
import { startOddsApiPoller } from '../../src/ingest/feeds/the-odds-api/poll';
import { OddsApiUsage } from '../../src/ingest/feeds/the-odds-api/usage';
import { ingestDocuments } from '../../src/ingest/ingest';
import type { SourceDocument } from '../../src/ingest/sources';
import { createLogger } from '../../src/logger';
import { readSeries } from '../support/feeds';
import { startTestApp, type TestApp } from '../support/app';

// The Odds API poller against a local stand-in of the API (loopback only): what it asks for, the
// usage headers in /readyz and /metrics, the daily budget, and each kind of upstream failure.

const capture = readSeries('theoddsapi/wnba-2026-07-14_2026-07-21.jsonl.gz')[0]!;
// A real event-odds answer (2023), served by the stand-in as the answer for the game asked about.
const propsCapture = readSeries('theoddsapi/wnba-props-2023-05_2023-07.jsonl.gz')[0]!;
const PROP_MARKETS = ['player_points', 'player_rebounds', 'player_assists', 'player_threes', 'player_points_rebounds_assists'];
const NOW = new Date('2026-07-14T16:45:27.000Z');

interface Stand {
  url: string;
  requests: URL[];
  close(): Promise<void>;
}

/** A server answering each request with `answer(url)`: status, headers, body (or never, for a timeout). */
async function standIn(answer: (url: URL) => { status: number; headers?: Record<string, string>; body?: unknown } | 'hang'): Promise<Stand> {
  const requests: URL[] = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://stand-in');
    requests.push(url);
    const a = answer(url);
    if (a === 'hang') return void hanging.push(res);
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
    res.end(JSON.stringify(a.body ?? null));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function config(baseUrl: string, extra: Partial<OddsApiConfig> = {}): OddsApiConfig {
  return {
    key: 'secret-odds-api-key', baseUrl, sports: ['basketball_wnba'], regions: ['us'], markets: ['h2h', 'spreads', 'totals'], bookmakers: [],
    oddsFormat: 'american', pregameIntervalMs: 3_600_000, liveIntervalMs: 60_000, dailyBudget: 500, timeoutMs: 5_000, propMarkets: [], propsDailyBudget: 250, ...extra,
  };
}

function logLines() {
  const lines: Array<Record<string, any>> = [];
  const stream = new Writable({ write: (chunk, _e, done) => (lines.push(JSON.parse(String(chunk))), done()) });
  return { lines, logger: createLogger({ logLevel: 'info' }, {}, stream) };
}

/** Resolves once `check` holds, looking again after each request or ingest (no timed assertion). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

describe('The Odds API poller', () => {
  let t: TestApp;
  let usage: OddsApiUsage;
  let key: string;

  beforeAll(async () => {
    usage = new OddsApiUsage(500);
    t = await startTestApp({ feedQuotas: new Map([['the-odds-api', usage]]), now: () => NOW });
    key = (await t.createKey('pro')).key;
  }, 120_000);
  afterAll(() => t?.close());

  test('when it polls, then it asks for the configured odds, ingests them, and /readyz and /metrics show the usage headers', async () => {
    const stand = await standIn(() => ({ status: 200, headers: { 'x-requests-remaining': '19970', 'x-requests-used': '30', 'x-requests-last': '3' }, body: capture.body }));
    const docs: SourceDocument[] = [];
    const { logger } = logLines();
    const poller = startOddsApiPoller({ config: config(stand.url), usage, logger, now: () => NOW, ingest: async (d) => void docs.push(d) });
    await until(() => docs.length === 1);
    await poller.stop();
    await stand.close();
    const asked = stand.requests[0]!;
    expect(asked.pathname).toBe('/v4/sports/basketball_wnba/odds');
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({ regions: 'us', markets: 'h2h,spreads,totals', oddsFormat: 'american', apiKey: 'secret-odds-api-key' });
    expect(docs[0]!.envelope).toMatchObject({ source: 'the-odds-api', sport_key: 'basketball_wnba', endpoint: 'odds' });
    expect(docs[0]!.name).not.toContain('secret-odds-api-key');
    const summary = await ingestDocuments(docs, { db: t.db });
    expect(summary).toMatchObject({ rejected: 0, games: capture.body.length });

    const ready = await t.get('/readyz');
    expect(ready.body.data.sources['the-odds-api']).toMatchObject({ requests_remaining: 19970, requests_used: 30, requests_last: 3, spent_today: 3, daily_budget: 500, slowed: false });
    const metrics = await fetch(`${t.baseUrl}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/^odds_api_requests_remaining 19970$/m);
    expect(metrics).toMatch(/^odds_api_spent_today 3$/m);
    void key;
  });

  test('when a game has started, then its scores are asked for until they say completed; finished games are not asked for again', async () => {
    const started = capture.body[0]; // commence_time before NOW: being played
    let completed = false;
    const stand = await standIn((url) =>
      url.pathname.endsWith('/scores')
        ? { status: 200, headers: { 'x-requests-last': '2' }, body: [{ id: started.id, sport_key: 'basketball_wnba', commence_time: started.commence_time, completed, home_team: started.home_team, away_team: started.away_team, scores: null, last_update: null }] }
        : { status: 200, headers: { 'x-requests-last': '3' }, body: capture.body },
    );
    const docs: SourceDocument[] = [];
    // A clock that moves, from NOW: each poll is due one live interval after the last.
    const start = Date.now();
    const clock = () => new Date(NOW.getTime() + Date.now() - start);
    const poller = startOddsApiPoller({ config: config(stand.url, { liveIntervalMs: 5, pregameIntervalMs: 5, dailyBudget: 1e9 }), usage: new OddsApiUsage(1e9), logger: logLines().logger, now: clock, ingest: async (d) => void docs.push(d) });
    await until(() => stand.requests.length >= 2);
    completed = true;
    await until(() => stand.requests.filter((u) => u.pathname.endsWith('/scores')).length >= 2);
    const afterCompleted = stand.requests.length;
    await until(() => stand.requests.length >= afterCompleted + 2);
    await poller.stop();
    await stand.close();
    const scores = stand.requests.filter((u) => u.pathname.endsWith('/scores'));
    expect(scores[0]!.searchParams.get('eventIds')).toBe(started.id);
    // After the answer that said completed, only odds are asked for.
    expect(stand.requests.slice(afterCompleted).every((u) => u.pathname.endsWith('/odds'))).toBe(true);
  });

  test('when prop markets are configured, then event-odds are asked for the games within the props schedule only (started under 3 h ago or starting within 24 h), and they ingest as props', async () => {
    const events = capture.body as Array<{ id: string; commence_time: string; home_team: string; away_team: string }>;
    const stand = await standIn((url) => {
      const m = /^\/v4\/sports\/basketball_wnba\/events\/([^/]+)\/odds$/.exec(url.pathname);
      if (!m) return { status: 200, headers: { 'x-requests-last': '3' }, body: capture.body };
      const e = events.find((x) => x.id === m[1])!;
      return { status: 200, headers: { 'x-requests-last': '5' }, body: { ...propsCapture.body.data, id: e.id, commence_time: e.commence_time, home_team: e.home_team, away_team: e.away_team } };
    });
    const docs: SourceDocument[] = [];
    const propsUsage = new OddsApiUsage(500);
    const poller = startOddsApiPoller({ config: config(stand.url, { propMarkets: PROP_MARKETS }), usage: propsUsage, logger: logLines().logger, now: () => NOW, ingest: async (d) => void docs.push(d) });
    await until(() => docs.length === 5); // odds, scores of the game in play, 3 props
    await poller.stop();
    await stand.close();
    const props = stand.requests.filter((u) => u.pathname.includes('/events/'));
    // In play since 15:02 (under 3 h), tip at 23:10 today, tip at 16:10 tomorrow (23.4 h): yes; 24.4 h and later: no.
    const inSchedule = events.filter((e) => Date.parse(e.commence_time) - NOW.getTime() <= 24 * 3_600_000).map((e) => e.id);
    expect(inSchedule).toHaveLength(3);
    expect(props.map((u) => u.pathname.split('/')[5]).sort()).toEqual([...inSchedule].sort());
    for (const u of props) expect(Object.fromEntries(u.searchParams)).toMatchObject({ markets: PROP_MARKETS.join(','), regions: 'us', oddsFormat: 'american' });
    expect(propsUsage.spentToday).toBe(3 + 3 + 3 * 5);
    const summary = await ingestDocuments(docs, { db: t.db });
    expect(summary).toMatchObject({ rejected: 0 });
    const propGames = await t.db.prisma.quote.groupBy({ by: ['gameId'], where: { playerId: { gt: 0 }, source: 'the-odds-api' } });
    expect(propGames).toHaveLength(3);
  });

  test('when the props budget of the day would be overspent, then no further props are asked for that day and it says so; the game odds go on', async () => {
    const stand = await standIn((url) => ({ status: 200, headers: { 'x-requests-last': url.pathname.includes('/events/') ? '5' : '3' }, body: url.pathname.includes('/events/') ? { ...propsCapture.body.data, id: (capture.body as any[])[1].id } : capture.body }));
    const { lines, logger } = logLines();
    const capped = new OddsApiUsage(500);
    const poller = startOddsApiPoller({ config: config(stand.url, { propMarkets: PROP_MARKETS, propsDailyBudget: 5 }), usage: capped, logger, now: () => NOW, ingest: async () => {} });
    await until(() => lines.some((l) => /props budget of the day is spent/.test(l.msg)));
    await poller.stop();
    await stand.close();
    expect(stand.requests.filter((u) => u.pathname.includes('/events/'))).toHaveLength(1);
    expect(stand.requests.filter((u) => u.pathname.endsWith('/basketball_wnba/odds'))).toHaveLength(1);
  });

  test('when no prop markets are configured, then no event-odds are asked for', async () => {
    const stand = await standIn(() => ({ status: 200, headers: { 'x-requests-last': '3' }, body: capture.body }));
    const docs: SourceDocument[] = [];
    const poller = startOddsApiPoller({ config: config(stand.url), usage: new OddsApiUsage(500), logger: logLines().logger, now: () => NOW, ingest: async (d) => void docs.push(d) });
    await until(() => stand.requests.length >= 2);
    await poller.stop();
    await stand.close();
    expect(stand.requests.every((u) => !u.pathname.includes('/events/'))).toBe(true);
  });

  test('when the day\'s budget is spent, then polling pauses and says so', async () => {
    const stand = await standIn(() => ({ status: 200, headers: { 'x-requests-last': '3', 'x-requests-remaining': '100' }, body: capture.body }));
    const { lines, logger } = logLines();
    const tight = new OddsApiUsage(3);
    const poller = startOddsApiPoller({ config: config(stand.url, { dailyBudget: 3 }), usage: tight, logger, now: () => NOW, ingest: async () => {} });
    await until(() => tight.slowed);
    await poller.stop();
    await stand.close();
    expect(stand.requests).toHaveLength(1);
    expect(lines.some((l) => /budget of the day/.test(l.msg))).toBe(true);
  });

  test('when a budget would run out before midnight at the configured pace, then the polls are spaced out', async () => {
    const stand = await standIn(() => ({ status: 200, headers: { 'x-requests-last': '3' }, body: [] }));
    const paced = new OddsApiUsage(10);
    const poller = startOddsApiPoller({ config: config(stand.url, { dailyBudget: 10, pregameIntervalMs: 60_000 }), usage: paced, logger: logLines().logger, now: () => NOW, ingest: async () => {} });
    await until(() => paced.spentToday === 3);
    await until(() => paced.slowed);
    await poller.stop();
    await stand.close();
    expect(stand.requests).toHaveLength(1);
  });

  test.each([
    [401, 'unauthorized', /refused the key \(401\)/, 'error'],
    [422, 'unprocessable', /refused the request \(422\)/, 'error'],
    [429, 'rate_limited', /rate limiting \(429\)/, 'warn'],
    [500, 'http', /answered with an error/, 'warn'],
  ])('when the API answers %i, then one clear log line says what to do, nothing is ingested and the poller backs off', async (status, kind, message, level) => {
    const stand = await standIn(() => ({ status, headers: status === 429 ? { 'retry-after': '120' } : ({} as Record<string, string>), body: { message: 'nope' } }));
    const { lines, logger } = logLines();
    const failing = new OddsApiUsage(500);
    const ingest = jest.fn(async () => {});
    const poller = startOddsApiPoller({ config: config(stand.url), usage: failing, logger, now: () => NOW, ingest });
    await until(() => failing.lastError !== null);
    await poller.stop();
    await stand.close();
    expect(ingest).not.toHaveBeenCalled();
    const line = lines.find((l) => l.kind === kind)!;
    expect(line.msg).toMatch(message);
    expect(line.level).toBe(level === 'error' ? 50 : 40);
    expect(line.retryInMs).toBeGreaterThanOrEqual(status === 429 ? 120_000 : 120_000);
    expect(JSON.stringify(lines)).not.toContain('secret-odds-api-key');
    expect(failing.snapshot().last_error).toMatchObject({ kind });
  });

  test('when the API does not answer in time, then a timeout is logged as such and backed off', async () => {
    const stand = await standIn(() => 'hang');
    const { lines, logger } = logLines();
    const slow = new OddsApiUsage(500);
    const poller = startOddsApiPoller({ config: config(stand.url, { timeoutMs: 50 }), usage: slow, logger, now: () => NOW, ingest: async () => {} });
    await until(() => slow.lastError !== null);
    await poller.stop();
    await stand.close();
    expect(lines.find((l) => l.kind === 'timeout')?.msg).toMatch(/did not answer in time/);
  });
});
