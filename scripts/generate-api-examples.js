#!/usr/bin/env node
// Writes src/rest/examples/responses.json: one real answer of every REST route and of every error
// status, for the examples of the OpenAPI document (src/rest/openapi.ts). The service runs from
// dist/ (npm run build first; `npm run generate:api-examples` does both) on an in-memory database
// holding the recorded feed series test/fixtures/feeds/nba-2026-01-24.jsonl.gz up to 22:17 UTC on
// 24 January 2026, with the clock set just after: games finished, one being played, one postponed,
// the rest to come with a day of line movement. Lists are cut to a few records by the requests'
// own filters, so every example is a body the service really sends.
//
// A new route needs a line in REQUESTS below (rest-openapi.test.ts fails until it has an example).

const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const dist = (p) => require(path.join(root, 'dist', p));
const OUT = path.join(root, 'src', 'rest', 'examples', 'responses.json');
const SERIES = path.join(root, 'test', 'fixtures', 'feeds', 'nba-2026-01-24.jsonl.gz');
// Player props: the first capture of the real WNBA props (test/fixtures), a game of its own.
const PROPS = path.join(root, 'test', 'fixtures', 'feeds', 'theoddsapi', 'wnba-props-2023-05_2023-07.jsonl.gz');
// Player statistics: ESPN's real box scores of those props' games (test/fixtures), linked to their players.
const ESPN = path.join(root, 'test', 'fixtures', 'feeds', 'espn', 'wnba-summary-2023-05_2023-07.jsonl.gz');
const CUTOFF = new Date('2026-01-24T22:17:00Z');
const NOW = new Date('2026-01-24T22:20:00Z');
const DAY = '2026-01-24';
const PREFIX = '/api/v1/nba/odds';

/** The text of a Server-Sent Events stream up to its first snapshot event (up to its blank line). */
async function firstEvent(url, key) {
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`${url}: the stream ended before its first event`);
    text += decoder.decode(value, { stream: true });
    // The stream opens with its retry hint, then the snapshot event.
    const start = text.indexOf('event: live_odds');
    const end = start === -1 ? -1 : text.indexOf('\n\n', start);
    if (end !== -1) {
      await reader.cancel();
      return text.slice(0, end + 1);
    }
  }
}

async function main() {
  const { openDatabase, MEMORY } = dist('db/client');
  const { seedReferenceData } = dist('ingest/seed');
  const { readSources } = dist('ingest/sources');
  const { ingestDocuments } = dist('ingest/ingest');
  const { createKey } = dist('db/account-store');
  const { loadConfig } = dist('config');
  const { createLocalBus } = dist('events/bus');
  const { createLogger } = dist('logger');
  const { createApp } = dist('app');
  const { ERRORS } = dist('errors');

  const db = await openDatabase({ dataDir: MEMORY });
  await seedReferenceData(db.prisma);
  async function* upToCutoff() {
    for await (const document of readSources(SERIES)) if (document.fetchedAt && document.fetchedAt <= CUTOFF) yield document;
  }
  await ingestDocuments(upToCutoff(), { db });
  async function* firstProps() {
    for await (const document of readSources(PROPS)) return yield document;
  }
  await ingestDocuments(firstProps(), { db });
  const propsGame = (await db.prisma.quote.findFirst({ where: { playerId: { gt: 0 } }, select: { gameId: true } })).gameId;
  await ingestDocuments(readSources(ESPN), { db });
  const propQuote = await db.prisma.quote.findFirst({ where: { gameId: propsGame, marketType: 'player_points', side: 'over', lineKey: '' }, orderBy: { id: 'asc' } });
  const linkedPlayer = propQuote.playerId;
  // A starter plan of 2 requests a minute: its third request shows the 429.
  const config = loadConfig({ LOG_LEVEL: 'silent', ADMIN_KEY: 'examples-admin-key-0123456789', DATA_DIR: MEMORY, REST_CACHE_MS: '0', RATE_LIMIT_STARTER: '2' });
  const bus = createLocalBus();
  const app = createApp({ config, db, bus, logger: createLogger(config), now: () => NOW });
  await new Promise((resolve) => app.httpServer.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${app.httpServer.address().port}`;
  const elite = (await createKey(db.prisma, { plan: 'elite', expiresAt: null })).key;
  const starter = (await createKey(db.prisma, { plan: 'starter', expiresAt: null })).key;
  const get = async (url, key) => {
    const res = await fetch(base + PREFIX + url, { headers: key ? { authorization: `Bearer ${key}` } : {} });
    return { status: res.status, body: await res.json() };
  };
  const post = async (url, body, key) => {
    const res = await fetch(base + PREFIX + url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
    return { status: res.status, body: await res.json() };
  };

  try {
    const games = (await get(`/games?date=${DAY}&include_markets=false&include_boxscore=false`, elite)).body.data;
    const live = games.find((g) => g.status === 'in_progress' || g.status === 'live');
    const finished = games.find((g) => g.status === 'closed' || g.status === 'finished');
    const scheduled = games.find((g) => g.status === 'scheduled');
    if (!live || !finished || !scheduled) throw new Error('the fixture no longer has a live, a finished and a scheduled game at the cutoff');
    const book = 68; // DraftKings: a real sportsbook (not an aggregate) that prices every game of the day

    /** operationId -> request (relative to /api/v1/nba/odds). */
    const REQUESTS = {
      Games: `/games?date=${DAY}&game_id=${finished.game_id}&include_markets=false`,
      Game: `/games/${live.game_id}?include_boxscore=true&include_markets=false`,
      GameBoxscore: `/games/${live.game_id}/boxscore`,
      GameMarkets: `/games/${scheduled.game_id}/markets?book_id=${book}`,
      Teams: '/teams?team_id=158,160',
      Players: '/players?league_id=5&limit=2',
      PlayerGames: `/players/${linkedPlayer}/games?limit=2`,
      Leagues: '/leagues',
      Sportsbooks: '/sportsbooks',
      Consensus: `/consensus?date=${DAY}&game_id=${scheduled.game_id}`,
      BettingInfo: `/betting-info?date=${DAY}&game_id=${scheduled.game_id}&market_type=moneyline&book_id=${book}`,
      MoneylineListing: `/markets/moneyline?date=${DAY}&game_id=${scheduled.game_id}&book_id=${book}`,
      SpreadListing: `/markets/spread?date=${DAY}&game_id=${scheduled.game_id}&book_id=${book}`,
      TotalListing: `/markets/total?date=${DAY}&game_id=${scheduled.game_id}&book_id=${book}&side=over`,
      PlayerPropsListing: `/markets/player_props?game_id=${propsGame}&prop_type=points&limit=2`,
      Middles: `/markets/middles?date=${DAY}&market_type=total`,
      LineSignals: `/signals?game_id=${scheduled.game_id}&kind=steam,reverse_line_movement&market_type=spread`,
      LiveOdds: `/live?game_id=${live.game_id}&market_type=moneyline&book_id=${book}`,
      LiveMovement: `/live/movement?game_id=${live.game_id}&market_type=spread&book_id=${book}&period=full_game`,
      HistoricalOdds: `/historical?start_date=${DAY}&end_date=${DAY}&game_id=${finished.game_id}&market_type=total&book_id=${book}`,
      ClosingLines: `/closing?game_id=${finished.game_id}&book_id=${book}&market_type=moneyline`,
    };
    const operations = {};
    for (const [operationId, url] of Object.entries(REQUESTS)) {
      const res = await get(url, elite);
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
      operations[operationId] = { request: `GET ${PREFIX}${url}`, body: res.body };
    }

    // The event stream: its first event (a snapshot of the live game's moneyline at one book).
    const streamUrl = `/stream?game_id=${live.game_id}&market_type=moneyline&book_id=${book}`;
    operations.OddsStream = { request: `GET ${PREFIX}${streamUrl}`, body: await firstEvent(base + PREFIX + streamUrl, elite) };

    // The POST routes, asked about a bet on the finished game's moneyline at its close.
    const close = operations.ClosingLines.body.data.find((c) => c.price && c.side === 'home');
    if (!close) throw new Error('the fixture no longer has a moneyline close for the finished game');
    const bet = { game_id: finished.game_id, book_id: book, market_type: 'moneyline', period: 'full_game', side: 'home', price: close.price.american + 10, placed_at: close.captured_at };
    const BODIES = {
      BetClv: ['/clv', { bets: [bet], devig: 'power' }],
      GradeBets: [
        '/grade',
        {
          bets: [
            { game_id: bet.game_id, market_type: 'moneyline', side: 'home' },
            { game_id: bet.game_id, market_type: 'moneyline', side: 'away' },
            { game_id: propsGame, market_type: 'player_props', prop_type: 'points', player_id: linkedPlayer, side: 'over', line: propQuote.point },
          ],
        },
      ],
    };
    for (const [operationId, [url, body]] of Object.entries(BODIES)) {
      const res = await post(url, JSON.stringify(body), elite);
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
      operations[operationId] = { request: `POST ${PREFIX}${url} ${JSON.stringify(body)}`, body: res.body };
    }

    // The webhook routes: one webhook registered, listed, read, changed, tested, its log read, then
    // deleted (no sender runs here, so the test event stays pending).
    const call = async (method, url, body) => {
      const res = await fetch(base + PREFIX + url, {
        method,
        headers: { authorization: `Bearer ${elite}`, ...(body && { 'content-type': 'application/json' }) },
        ...(body && { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: await res.json() };
    };
    const hook = { url: 'https://hooks.example.com/odds', description: 'value alerts', predicate: { type: 'ev', min_ev_per_100: 3, devig: 'power', market_type: 'spread' } };
    const created = await call('POST', '/webhooks', hook);
    const hookId = created.body.data?.id;
    const WEBHOOK_CALLS = {
      CreateWebhook: ['POST', '/webhooks', hook, created],
      Webhooks: ['GET', '/webhooks'],
      Webhook: ['GET', `/webhooks/${hookId}`],
      UpdateWebhook: ['PATCH', `/webhooks/${hookId}`, { description: 'spread value alerts', enabled: true }],
      TestWebhook: ['POST', `/webhooks/${hookId}/test`],
      WebhookDeliveries: ['GET', `/webhooks/${hookId}/deliveries?limit=10`],
      DeleteWebhook: ['DELETE', `/webhooks/${hookId}`],
    };
    for (const [operationId, [method, url, body, done]] of Object.entries(WEBHOOK_CALLS)) {
      const res = done ?? (await call(method, url, body));
      if (res.status !== 200 && res.status !== 201) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
      operations[operationId] = { request: `${method} ${PREFIX}${url}${body ? ` ${JSON.stringify(body)}` : ''}`, body: res.body };
    }

    const errors = {};
    const record = async (status, url, key) => {
      const res = await get(url, key);
      if (res.status !== status) throw new Error(`${url}: expected ${status}, got ${res.status}`);
      errors[status] = { request: `GET ${PREFIX}${url}`, body: res.body };
    };
    await record(400, '/games?limit=5000', elite);
    await record(401, '/games');
    await record(403, `/historical?start_date=${DAY}&end_date=${DAY}`, starter);
    await record(404, '/games/1', elite);
    const large = await post('/clv', JSON.stringify({ bets: [], padding: 'x'.repeat(101 * 1024) }), elite);
    if (large.status !== 413) throw new Error(`POST /clv with 101 kB: expected 413, got ${large.status}`);
    errors[413] = { request: `POST ${PREFIX}/clv with a body of 101 kB`, body: large.body };
    await get('/sportsbooks', starter); // the starter's second request of the minute
    await record(429, '/sportsbooks', starter); // and its third: refused
    // 500 and 503 cannot be provoked on a healthy service: their bodies are the router's own
    // (src/rest/router.ts) with the catalogue's messages.
    errors[500] = { request: 'GET (any route) when an unexpected error occurs', body: { success: false, error: `${ERRORS.INTERNAL.message} (request id 0f9b7c4e-6a51-4c1e-9d0a-2b8f3e7d5a16)` } };
    errors[503] = { request: 'GET (any route) while the database is not reachable', body: { success: false, error: ERRORS.UNAVAILABLE.message } };

    // Webhook secrets and message ids are random: fixed stand-ins of the same shape keep the file
    // the same from one run to the next (each distinct id keeps its own stand-in).
    const standIns = new Map();
    const text = JSON.stringify({ operations, errors }, null, 2)
      .replace(/whsec_[A-Za-z0-9+/=]+/g, 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD')
      .replace(/msg_[0-9a-f]{32}/g, (id) => {
        if (!standIns.has(id)) standIns.set(id, `msg_${String(standIns.size + 1).padStart(32, '0')}`);
        return standIns.get(id);
      });
    fs.mkdirSync(path.dirname(OUT), { recursive: true });
    fs.writeFileSync(OUT, text + '\n');
    console.log(`wrote ${path.relative(root, OUT)}: ${Object.keys(operations).length} routes, ${Object.keys(errors).length} error statuses`);
  } finally {
    await app.close();
    app.httpServer.closeAllConnections();
    await new Promise((resolve) => app.httpServer.close(resolve));
    await bus.close();
    await db.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
