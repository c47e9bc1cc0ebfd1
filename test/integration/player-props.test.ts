import { normalizePlayerName } from '../../src/domain';
import { ingestDocuments } from '../../src/ingest/ingest';
import { bookOf } from '../../src/ingest/feeds/the-odds-api/books';
import { readSources, type SourceDocument } from '../../src/ingest/sources';
import { feedPath, readSeries } from '../support/feeds';
import { startTestApp, type TestApp } from '../support/app';

// Player props end to end on the real captures of The Odds API's event-odds endpoint
// (test/fixtures/feeds/theoddsapi/wnba-props-*.jsonl.gz: 138 responses, WNBA 2023, two captures of
// most games about 12 h and 10 min before tip-off). docs/player-props.md.

const PROPS = 'theoddsapi/wnba-props-2023-05_2023-07.jsonl.gz';
const BASE = '/api/v1/nba/odds';
const SOURCE = 'the-odds-api';

type Event = { id: string; commence_time: string; bookmakers: Array<{ key: string; title: string; markets: Array<{ key: string; outcomes: Array<{ name: string; description: string; price: number; point: number }> }> }> };
type Capture = { fetched_at: string; body: { timestamp: string; data: Event } };

/** Every prop price of an event as the service keys it: book, player, prop, point, side. */
function priceKeys(event: Event): Map<string, number> {
  const out = new Map<string, number>();
  for (const b of event.bookmakers) {
    for (const m of b.markets) {
      for (const o of m.outcomes) out.set(`${bookOf(b.key, b.title).id}|${normalizePlayerName(o.description)}|${m.key.replace(/^player_/, '')}|${o.point}|${o.name.toLowerCase()}`, o.price);
    }
  }
  return out;
}

describe('player props: the real WNBA props captures', () => {
  const series = readSeries(PROPS) as unknown as Capture[];
  let t: TestApp;
  let key: string;
  const gameIds = new Map<string, number>();

  beforeAll(async () => {
    t = await startTestApp();
    const docs: SourceDocument[] = [];
    for await (const d of readSources(feedPath(PROPS))) docs.push(d);
    docs.sort((a, b) => a.fetchedAt!.getTime() - b.fetchedAt!.getTime());
    const summary = await ingestDocuments(docs, { db: t.db });
    expect(summary).toMatchObject({ documents: series.length, rejected: 0 });
    key = (await t.createKey('pro')).key;
    for (const g of await t.db.prisma.game.findMany({ select: { id: true, meta: true } })) gameIds.set((g.meta as any).source_ids[SOURCE], g.id);
  }, 300_000);
  afterAll(() => t?.close());

  test('when a game\'s markets are asked with market_type=player_props, then the prices of its last capture are served exactly by book, player, prop, line and side', async () => {
    const last = new Map<string, Capture>();
    for (const c of series) last.set(c.body.data.id, c);
    let checked = 0;
    for (const [sid, capture] of last) {
      // A game last captured in play is later marked unknown (the feed stopped carrying it mid-game,
      // docs/ingest.md) and shows its pregame prices: the as_of test below covers those captures.
      if (new Date(capture.body.timestamp) >= new Date(capture.body.data.commence_time)) continue;
      const res = await t.get(`${BASE}/games/${gameIds.get(sid)}/markets?market_type=player_props`, key);
      expect(res.status).toBe(200);
      const markets = res.body.data.markets;
      expect(Object.keys(markets)).toEqual(['player_props']);
      const served = new Map<string, number>();
      for (const o of markets.player_props?.outcomes ?? []) {
        expect(o.player).toEqual({ id: expect.any(Number), name: expect.any(String), team_id: null });
        if (!o.is_available) continue; // a price the last capture no longer carries
        expect(o.is_live).toBe(false);
        served.set(`${o.book_id}|${normalizePlayerName(o.player.name)}|${o.prop_type}|${o.point}|${o.side}`, o.odds.original);
      }
      const expected = priceKeys(capture.body.data);
      expect(served).toEqual(expected);
      checked += expected.size;
    }
    expect(checked).toBeGreaterThan(3000);
  });

  test('when a game\'s props are asked as of each capture, then every price of that capture is served exactly', async () => {
    let checked = 0;
    for (const capture of series) {
      const event = capture.body.data;
      const res = await t.get(`${BASE}/games/${gameIds.get(event.id)}/markets?market_type=player_props&as_of=${capture.body.timestamp}`, key);
      expect(res.status).toBe(200);
      const live = new Date(capture.body.timestamp) >= new Date(event.commence_time);
      const served = new Map<string, number>();
      for (const o of res.body.data.markets.player_props?.outcomes ?? []) {
        if (o.is_live === live) served.set(`${o.book_id}|${normalizePlayerName(o.player.name)}|${o.prop_type}|${o.point}|${o.side}`, o.odds.original);
      }
      for (const [k, price] of priceKeys(event)) {
        expect({ k, price: served.get(k) }).toEqual({ k, price });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(8000);
  });

  test('when a game is asked without market_type, then its markets leave the props out', async () => {
    const id = gameIds.values().next().value!;
    const res = await t.get(`${BASE}/games/${id}/markets`, key);
    expect(res.status).toBe(200);
    expect(res.body.data.markets.player_props).toBeUndefined();
    const game = await t.get(`${BASE}/games/${id}`, key);
    expect(JSON.stringify(game.body)).not.toContain('prop_type');
  });

  test('when a player is named by several books and games, then the player is one id (matched by league and normalised name)', async () => {
    const names = new Set<string>();
    for (const c of series) for (const b of c.body.data.bookmakers) for (const m of b.markets) for (const o of m.outcomes) names.add(o.description);
    const players = await t.db.prisma.player.findMany();
    expect(players.length).toBe(new Set([...names].map(normalizePlayerName)).size);
    // Books spell her "NaLyssa Smith" and "Nalyssa Smith", and "Delle Donne Elena": one player each.
    expect([...names].filter((n) => normalizePlayerName(n) === 'nalyssa smith').sort()).toEqual(['NaLyssa Smith', 'Nalyssa Smith']);
    expect(players.filter((p) => normalizePlayerName(p.name) === 'nalyssa smith')).toHaveLength(1);
    expect(names).toContain('Delle Donne Elena');
    expect(players.filter((p) => normalizePlayerName(p.name) === normalizePlayerName('Elena Delle Donne'))).toHaveLength(1);
  });

  test('when a prop is graded, then its result is null (no source carries player statistics)', async () => {
    const id = gameIds.values().next().value!;
    const res = await t.get(`${BASE}/games/${id}/markets?market_type=player_props`, key);
    for (const o of res.body.data.markets.player_props.outcomes) expect(o.result).toBeNull();
  });

  test('when the props listing is asked, then each entry\'s fair probability and EV equal an independent de-vig of the same pairs across books', async () => {
    // The current prices: each game's last capture. Pairs: one book's over and under (yes and no) at
    // one player, prop and line; the consensus reference is the mean of the books' de-vigged pairs.
    const last = new Map<string, Capture>();
    for (const c of series) last.set(c.body.data.id, c);
    const pairs = new Map<string, number[][]>();
    const prices = new Map<string, number>();
    for (const [sid, c] of last) {
      for (const b of c.body.data.bookmakers) {
        for (const m of b.markets) {
          const byLine = new Map<string, Map<string, number>>();
          for (const o of m.outcomes) {
            const line = `${sid}|${normalizePlayerName(o.description)}|${m.key}|${o.point}`;
            byLine.set(line, (byLine.get(line) ?? new Map()).set(o.name.toLowerCase(), o.price));
            prices.set(`${line}|${bookOf(b.key, b.title).id}|${o.name.toLowerCase()}`, o.price);
          }
          for (const [line, sides] of byLine) {
            const [over, under] = [sides.get('over'), sides.get('under')];
            if (over === undefined || under === undefined) continue;
            const implied = [over, under].map((a) => 1 / (a > 0 ? 1 + a / 100 : 1 + 100 / -a));
            const total = implied[0]! + implied[1]!;
            pairs.set(line, [...(pairs.get(line) ?? []), [implied[0]! / total, implied[1]! / total]]);
          }
        }
      }
    }
    const sids = new Map([...gameIds].map(([sid, id]) => [id, sid]));
    const res = await t.get(`${BASE}/markets/player_props?game_id=${[...gameIds.values()].join(',')}&devig=multiplicative&reference=consensus&limit=1000&sort=odds`, key);
    expect(res.status).toBe(200);
    const all: any[] = [...res.body.data];
    for (let offset = 1000; all.length === offset; offset += 1000) {
      const more = await t.get(`${BASE}/markets/player_props?game_id=${[...gameIds.values()].join(',')}&devig=multiplicative&reference=consensus&limit=1000&offset=${offset}&sort=odds`, key);
      all.push(...more.body.data);
    }
    expect(all.length).toBe(prices.size);
    for (const e of all) {
      const line = `${sids.get(e.game_id)}|${normalizePlayerName(e.player.name)}|${e.market_type}|${e.point}`;
      expect(e.odds.original).toBe(prices.get(`${line}|${e.book_id}|${e.side}`));
      const books = pairs.get(line);
      if (!books) {
        expect(e.ev.true_probability).toBeNull();
        continue;
      }
      const index = e.side === 'over' ? 0 : 1;
      const fair = books.reduce((sum, p) => sum + p[index]!, 0) / books.length;
      expect(e.ev.reference).toBe('consensus');
      expect(e.ev.reference_book_count).toBe(books.length);
      expect(e.ev.true_probability).toBeCloseTo(fair, 4);
      expect(e.ev.ev_per_100).toBeCloseTo((fair * e.odds.decimal - 1) * 100, 1);
      // Props are prices like any other: only a bettable one is advertised as value (docs/signals.md).
      expect(typeof e.ev.bettable).toBe('boolean');
      if (e.ev.profitable || e.ev.arbitrage) expect(e.ev.bettable).toBe(true);
    }
    // Paged over the whole listing, each page computing it again: more than jest's 30 s default on a loaded machine.
  }, 120_000);

  test('when the props listing is asked with live=pregame, then it lists pregame prices only', async () => {
    const res = await t.get(`${BASE}/markets/player_props?game_id=${[...gameIds.values()].join(',')}&live=pregame&limit=1000`, key);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const e of res.body.data) expect(e.is_live).toBe(false);
  });

  test('when the props listing is asked with a bad filter, then it answers 400 naming the parameter', async () => {
    for (const query of ['prop_type=dunks', 'side=home', 'limit=0', 'player_id=abc', 'sort=best', 'live=soon']) {
      const res = await t.get(`${BASE}/markets/player_props?${query}`, key);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(JSON.stringify(res.body)).toContain(query.split('=')[0]);
    }
  });
});

describe('player props live: the captures up to one taken in play', () => {
  let t: TestApp;
  let key: string;
  let live: Capture;

  beforeAll(async () => {
    t = await startTestApp();
    const docs: SourceDocument[] = [];
    for await (const d of readSources(feedPath(PROPS))) docs.push(d);
    docs.sort((a, b) => a.fetchedAt!.getTime() - b.fetchedAt!.getTime());
    // The first capture taken after its game's commence_time, and everything before it.
    const index = docs.findIndex((d) => new Date((d.body as any).timestamp) >= new Date((d.body as any).data.commence_time));
    live = { fetched_at: '', body: docs[index]!.body as Capture['body'] };
    await ingestDocuments(docs.slice(0, index + 1), { db: t.db });
    key = (await t.createKey('pro')).key;
  }, 300_000);
  afterAll(() => t?.close());

  test('when /live is asked with market_type=player_props, then the game being played lists its live props exactly, and only props', async () => {
    const res = await t.get(`${BASE}/live?market_type=player_props`, key);
    expect(res.status).toBe(200);
    const game = res.body.data.find((g: any) => g.meta?.source_ids?.[SOURCE] === live.body.data.id) ?? res.body.data[0];
    expect(Object.keys(game.markets)).toEqual(['player_props']);
    const served = new Map<string, number>();
    for (const o of game.markets.player_props.outcomes) {
      if (!o.is_available) continue;
      expect(o.is_live).toBe(true);
      served.set(`${o.book_id}|${normalizePlayerName(o.player.name)}|${o.prop_type}|${o.point}|${o.side}`, o.odds.original);
    }
    const expected = new Map([...priceKeys(live.body.data)].map(([k, v]) => [k.split('|').map((part, i) => (i === 1 ? normalizePlayerName(part) : part)).join('|'), v]));
    expect(served).toEqual(expected);
  });

  test('when /live is asked without market_type, then props stay out of the live payload', async () => {
    const res = await t.get(`${BASE}/live`, key);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const g of res.body.data) expect(g.markets.player_props).toBeUndefined();
  });
});

