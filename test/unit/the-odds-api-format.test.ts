import { FeedDocumentError, formatOf } from '../../src/ingest/feeds';
import { marketOfKey } from '../../src/ingest/feeds/the-odds-api/markets';
import { normalizeOddsApi, oddsApiGameId } from '../../src/ingest/feeds/the-odds-api/normalize';
import { readSeries } from '../support/feeds';

// The Odds API v4 normaliser on a real event of the WNBA week and on variations of it.

const at = new Date('2026-07-14T16:45:27.000Z');
const event = () => structuredClone(readSeries('theoddsapi/wnba-2026-07-14_2026-07-21.jsonl.gz')[0]!.body[1]);
const normalize = (body: unknown, fetchedAt = at, oddsFormat: string | null = null) => normalizeOddsApi(body, 'test', { fetchedAt, oddsFormat });

describe('The Odds API format', () => {
  test('when a capture is labelled or shaped like The Odds API, then it is recognised as such; a scoreboard is not', () => {
    expect(formatOf({ name: 'x', fetchedAt: at, body: [], envelope: { source: 'the-odds-api' } }).name).toBe('the-odds-api');
    expect(formatOf({ name: 'x', fetchedAt: at, body: [event()] }).name).toBe('the-odds-api');
    expect(formatOf({ name: 'x', fetchedAt: at, body: { timestamp: at.toISOString(), data: event() } }).name).toBe('the-odds-api');
    expect(formatOf({ name: 'x', fetchedAt: at, body: { games: [] } }).name).toBe('actionnetwork');
    expect(formatOf({ name: 'x', fetchedAt: at, body: [event()], envelope: { source: 'a-script.py' } }).name).toBe('the-odds-api');
    expect(formatOf({ name: 'x', fetchedAt: at, body: { what: 1 } }).name).toBe('actionnetwork');
  });

  test('when an event is read, then its three markets are quotes of the right sides, pregame before commence_time', () => {
    const e = event();
    const doc = normalize([e]);
    expect(doc.games).toHaveLength(1);
    expect(doc.games[0]).toMatchObject({ id: oddsApiGameId(e.id), status: 'scheduled', homeTeamId: expect.any(Number), meta: { source_ids: { 'the-odds-api': e.id } } });
    const dk = doc.quotes.filter((q) => q.bookId === 68);
    const h2h = e.bookmakers.find((b: any) => b.key === 'draftkings').markets.find((m: any) => m.key === 'h2h').outcomes;
    expect(dk.find((q) => q.marketType === 'moneyline' && q.side === 'home')!.american).toBe(h2h.find((o: any) => o.name === e.home_team).price);
    expect(dk.find((q) => q.marketType === 'moneyline' && q.side === 'away')!.american).toBe(h2h.find((o: any) => o.name === e.away_team).price);
    expect(new Set(dk.map((q) => `${q.marketType}|${q.side}`))).toEqual(new Set(['moneyline|home', 'moneyline|away', 'spread|home', 'spread|away', 'total|over', 'total|under']));
    expect(doc.quotes.every((q) => !q.isLive && q.period === 'full_game')).toBe(true);
  });

  test('when the capture was taken after commence_time, then its prices are live and the game in progress', () => {
    const e = event();
    const doc = normalize([e], new Date(new Date(e.commence_time).getTime() + 60_000));
    expect(doc.games[0]!.status).toBe('in_progress');
    expect(doc.quotes.every((q) => q.isLive)).toBe(true);
  });

  test('when markets the service does not model appear, then they are ignored; period markets, team totals and player props are read', () => {
    const e = event();
    const book = e.bookmakers[0];
    const [home, away] = [e.home_team, e.away_team];
    book.markets.push(
      { key: 'h2h_lay', outcomes: [{ name: home, price: -120 }, { name: away, price: 110 }] },
      { key: 'alternate_spreads', outcomes: [{ name: home, price: 200, point: -10.5 }] },
      { key: 'player_points', outcomes: [{ name: 'Over', description: 'Someone', price: -110, point: 20.5 }] },
      { key: 'spreads_h1', outcomes: [{ name: home, price: -110, point: -2.5 }, { name: away, price: -110, point: 2.5 }] },
      { key: 'h2h_q1', outcomes: [{ name: home, price: -150 }, { name: away, price: 130 }] },
      { key: 'team_totals', outcomes: [{ name: 'Over', description: home, price: -115, point: 88.5 }, { name: 'Under', description: away, price: -105, point: 84.5 }] },
    );
    const quotes = normalize([e]).quotes.filter((q) => q.bookId === 68);
    expect(quotes.filter((q) => q.period === 'first_half').map((q) => [q.marketType, q.side, q.point])).toEqual([['spread', 'home', -2.5], ['spread', 'away', 2.5]]);
    expect(quotes.filter((q) => q.period === 'first_quarter').map((q) => [q.marketType, q.side, q.american])).toEqual([['moneyline', 'home', -150], ['moneyline', 'away', 130]]);
    expect(quotes.filter((q) => q.marketType.endsWith('team_total')).map((q) => [q.marketType, q.side, q.point])).toEqual([['home_team_total', 'over', 88.5], ['away_team_total', 'under', 84.5]]);
    expect(quotes.filter((q) => q.playerName).map((q) => [q.marketType, q.playerName, q.side, q.point, q.lineKey])).toEqual([['player_points', 'Someone', 'over', 20.5, '']]);
    expect(quotes).toHaveLength(6 + 2 + 2 + 2 + 1);
    expect(marketOfKey('h2h_lay')).toBeNull();
    expect(marketOfKey('totals_q4')).toEqual({ market: 'total', period: 'fourth_quarter' });
  });

  test('when prices are decimal, then each is kept exactly as quoted and American is derived', () => {
    const e = event();
    for (const b of e.bookmakers) for (const m of b.markets) for (const o of m.outcomes) o.price = 1.83;
    const doc = normalize([e], at, 'decimal');
    expect(doc.quotes.every((q) => q.decimal === 1.83 && q.american === -120)).toBe(true);
    // Without the capture's odds_format, a price no American odds can be says decimal.
    expect(normalize([e]).quotes[0]!.decimal).toBe(1.83);
  });

  test('when a price has no American price a 32-bit integer holds, then the capture is refused naming the path', () => {
    for (const [price, format] of [[1.0000000001, 'decimal'], [1e12, 'decimal'], [2 ** 40, 'american']] as const) {
      const e = event();
      e.bookmakers[0].markets[0].outcomes[0].price = price;
      expect(() => normalize([e], at, format)).toThrow(/\[0\]\.bookmakers\[0\]\.markets\[0\]\.outcomes\[0\]\.price.*32-bit/);
    }
  });

  test('when an outcome names neither team, then the capture is refused naming the path', () => {
    const e = event();
    e.bookmakers[0].markets[0].outcomes[0].name = 'Nobody';
    expect(() => normalize([e])).toThrow(/\[0\]\.bookmakers\[0\]\.markets\[0\]\.outcomes\[0\]\.name/);
  });

  test('when the body is not a list of events, then the capture is refused with the path; other sports and unknown teams are skipped', () => {
    expect(() => normalize([{ id: 5 }])).toThrow(FeedDocumentError);
    const other = { ...event(), sport_key: 'icehockey_nhl' };
    const stranger = { ...event(), id: 'abc', home_team: 'Springfield Atoms' };
    const itself = { ...event(), id: 'def', away_team: event().home_team };
    const doc = normalize([other, stranger, itself]);
    expect(doc.games).toEqual([]);
    // Another sport is not ours to serve; a served league's event left out is named, for the log.
    expect(doc.skipped).toEqual([
      { path: '[1]', reason: 'event abc skipped: "Springfield Atoms" is not a team of basketball_wnba (src/ingest/reference-data.ts)' },
      { path: '[2]', reason: `event def skipped: home and away are the same team (${JSON.stringify(event().home_team)})` },
    ]);
  });

  test('when an unlisted bookmaker quotes, then it gets a stable id of its own and a book row named by its title', () => {
    const e = event();
    e.bookmakers[0].key = 'somenewbook_ex';
    e.bookmakers[0].title = 'Some New Exchange';
    const doc = normalize([e]);
    expect(doc.books).toEqual([{ id: expect.any(Number), name: 'Some New Exchange', nameKnown: true, kind: 'exchange', isAggregate: false, isSharp: false }]);
    expect(doc.books![0]!.id).toBeGreaterThanOrEqual(7_000_000);
    expect(normalize([e]).books![0]!.id).toBe(doc.books![0]!.id);
  });

  test('when a props capture carries a yes/no prop, an alternate and a second main line, then each is kept apart', () => {
    const e = event();
    e.bookmakers[0].markets = [
      { key: 'player_double_double', outcomes: [{ name: 'Yes', description: 'A Player', price: 250 }, { name: 'No', description: 'A Player', price: -350 }] },
      { key: 'player_points', outcomes: [{ name: 'Over', description: 'A Player', price: -130, point: 18.5 }, { name: 'Over', description: 'A Player', price: -110, point: 19.5 }] },
      { key: 'player_points_alternate', outcomes: [{ name: 'Over', description: 'A Player', price: 300, point: 25.5 }] },
    ];
    e.bookmakers.splice(1);
    const doc = normalize([e]);
    expect(doc.quotes.map((q) => [q.marketType, q.side, q.point, q.lineKey, q.lineStatus])).toEqual([
      ['player_double_double', 'yes', null, '', 'normal'],
      ['player_double_double', 'no', null, '', 'normal'],
      ['player_points', 'over', 18.5, '', 'normal'],
      ['player_points', 'over', 19.5, '19.5', 'alternate'],
      ['player_points', 'over', 25.5, '25.5', 'alternate'],
    ]);
    expect(doc.quoteKind).toBe('props');
  });

  test('when a prop outcome has no player or a side its prop does not have, then the capture is refused naming the path', () => {
    const e = event();
    e.bookmakers[0].markets = [{ key: 'player_points', outcomes: [{ name: 'Over', price: -110, point: 20.5 }] }];
    expect(() => normalize([e])).toThrow(/description/);
    e.bookmakers[0].markets = [{ key: 'player_points', outcomes: [{ name: 'Yes', description: 'A Player', price: -110, point: 20.5 }] }];
    expect(() => normalize([e])).toThrow(/not a side of player_points/);
  });
});
