import { normalizePlayerName } from '../../src/domain';
import { ingestDocuments } from '../../src/ingest/ingest';
import { bookOf } from '../../src/ingest/feeds/the-odds-api/books';
import { readSources, type SourceDocument } from '../../src/ingest/sources';
import { feedPath } from '../support/feeds';
import { startTestApp, type TestApp } from '../support/app';
import { openApiChecker } from '../support/openapi';

// Closing-line value of player prop bets (POST /clv), closes of yes/no props (GET /closing) and prop
// bets on POST /grade, on the real captures of The Odds API's event-odds endpoint
// (test/fixtures/feeds/theoddsapi/wnba-props-*.jsonl.gz: two captures of most games, about 12 h and
// 10 min before tip-off, so a real close and real moves). docs/player-props.md,
// docs/closing-and-grading.md. Every expected figure is computed here from the captures themselves,
// with the formulas written out (American -> decimal, multiplicative de-vig, mean of the books).
//
// No capture holds a yes/no prop, and the simulator quotes none: for the yes/no cases the test adds a
// player_double_double market (prices written below) to one real event's two pregame captures, at two
// of the books that captured the player, so it goes through the real ingest path beside real props.

const PROPS = 'theoddsapi/wnba-props-2023-05_2023-07.jsonl.gz';
const BASE = '/api/v1/nba/odds';
const SOURCE = 'the-odds-api';

type Outcome = { name: string; description: string; price: number; point?: number };
type Event = { id: string; commence_time: string; bookmakers: Array<{ key: string; title: string; markets: Array<{ key: string; outcomes: Outcome[] }> }> };
type Body = { timestamp: string; data: Event };

/** Decimal odds of an American price, by the definition. */
const decimalOf = (american: number) => (american > 0 ? 1 + american / 100 : 1 + 100 / -american);
/** The cents scale: -100 and +100 are one point. */
const centsOf = (american: number) => (american > 0 ? american - 100 : american + 100);
/** Multiplicative de-vig of a two-way pair: each side's implied probability over their sum. */
const fairPair = (a: number, b: number) => {
  const [ia, ib] = [1 / decimalOf(a), 1 / decimalOf(b)];
  return [ia / (ia + ib), ib / (ia + ib)] as const;
};

/** The captures, pregame ones per event in time order, and the document list ingested. */
async function captures(): Promise<SourceDocument[]> {
  const docs: SourceDocument[] = [];
  for await (const d of readSources(feedPath(PROPS))) docs.push(d);
  return docs.sort((a, b) => a.fetchedAt!.getTime() - b.fetchedAt!.getTime());
}

/** One book's outcomes of one player's prop in a capture: `${book}|${player}|${market}` -> outcomes. */
function propsOf(event: Event): Map<string, Outcome[]> {
  const out = new Map<string, Outcome[]>();
  for (const b of event.bookmakers) {
    for (const m of b.markets) {
      for (const o of m.outcomes) {
        const k = `${bookOf(b.key, b.title).id}|${normalizePlayerName(o.description)}|${m.key}`;
        out.set(k, [...(out.get(k) ?? []), o]);
      }
    }
  }
  return out;
}

const side = (outcomes: Outcome[], name: string) => outcomes.find((o) => o.name.toLowerCase() === name)!;

describe('CLV of player prop bets and closes of yes/no props: the real WNBA props captures', () => {
  let t: TestApp;
  let key: string;
  const gameIds = new Map<string, number>();
  const playerIds = new Map<string, number>();
  /** Events captured at least twice before tip-off, with their pregame captures in order. */
  const pregame = new Map<string, Body[]>();
  /** The event, player and books given a double-double market, with the prices written for it. */
  let yesNo: { sid: string; player: string; bookA: number; bookB: number; first: Body; last: Body };
  const DOUBLE_DOUBLE = {
    first: { yes: 260, no: -380 }, // book A only, 12 h before
    lastA: { yes: 230, no: -320 },
    lastB: { yes: 240, no: -340 },
  };

  const post = async (path: string, body: unknown) => {
    const res = await fetch(t.baseUrl + BASE + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    t = await startTestApp();
    const docs = await captures();
    for (const d of docs) {
      const body = d.body as Body;
      if (new Date(body.timestamp) >= new Date(body.data.commence_time)) continue;
      pregame.set(body.data.id, [...(pregame.get(body.data.id) ?? []), body]);
    }
    for (const [sid, list] of pregame) if (list.length < 2) pregame.delete(sid);
    expect(pregame.size).toBeGreaterThan(10);

    // The yes/no prop: the first player (in capture order) whose points two books quoted in the last
    // pregame capture, the first of them also in the first capture.
    const quoted = (body: Body, player: string) => body.data.bookmakers.filter((b) => b.markets.some((m) => m.key === 'player_points' && m.outcomes.some((o) => o.description === player)));
    const found = [...pregame].flatMap(([sid, list]) =>
      [...new Set(list[0]!.data.bookmakers.flatMap((b) => b.markets.filter((m) => m.key === 'player_points').flatMap((m) => m.outcomes.map((o) => o.description))))].flatMap((player) => {
        const [a, b] = quoted(list.at(-1)!, player);
        return a && b && quoted(list[0]!, player).some((x) => x.key === a.key) ? [{ sid, list, player, a, b }] : [];
      }),
    )[0];
    expect(found).toBeDefined();
    const { sid, player, a, b } = found!;
    const first = found!.list[0]!;
    const last = found!.list.at(-1)!;
    const market = (yes: number, no: number) => ({ key: 'player_double_double', outcomes: [{ name: 'Yes', description: player, price: yes }, { name: 'No', description: player, price: no }] });
    first.data.bookmakers.find((x) => x.key === a.key)!.markets.push(market(DOUBLE_DOUBLE.first.yes, DOUBLE_DOUBLE.first.no));
    a.markets.push(market(DOUBLE_DOUBLE.lastA.yes, DOUBLE_DOUBLE.lastA.no));
    b.markets.push(market(DOUBLE_DOUBLE.lastB.yes, DOUBLE_DOUBLE.lastB.no));
    yesNo = { sid, player, bookA: bookOf(a.key, a.title).id, bookB: bookOf(b.key, b.title).id, first, last };

    const summary = await ingestDocuments(docs, { db: t.db, bus: t.bus });
    expect(summary.rejected).toBe(0);
    key = (await t.createKey('pro')).key;
    for (const g of await t.db.prisma.game.findMany({ select: { id: true, meta: true } })) gameIds.set((g.meta as any).source_ids[SOURCE], g.id);
    for (const p of await t.db.prisma.playerAlias.findMany()) playerIds.set(p.alias, p.playerId);
  }, 300_000);
  afterAll(() => t?.close());

  /**
   * Bets taken at the first capture's price on a main line that stood at the same point in the last
   * capture, with the close and fair close expected from the captures: the close of a book's prop is
   * its price in the last pregame capture that quoted it (the history keeps a price until it moves),
   * and the fair close is the mean of the multiplicative de-vig of every book's closing pair at the
   * bet's line. Only props whose every book quoted one line per capture are taken (a book listing
   * several lines in its main market keeps them as alternates: tested apart).
   */
  function propBets(limit: number) {
    const out: Array<{ bet: Record<string, unknown>; close: number; fair: number; books: number }> = [];
    for (const [sid, list] of pregame) {
      const snapshots = list.map((c) => propsOf(c.data));
      const last = snapshots.at(-1)!;
      for (const [k, outcomes] of snapshots[0]!) {
        const [bookId, player, market] = k.split('|');
        if (market === 'player_double_double' || outcomes.length !== 2) continue;
        const later = last.get(k);
        const line = side(outcomes, 'over').point!;
        if (side(outcomes, 'under').point !== line || !later || later.length !== 2 || side(later, 'over').point !== line || side(later, 'under').point !== line) continue;
        if (side(later, 'over').price === side(outcomes, 'over').price) continue;
        // Every book's close of this player's prop: its newest capture's pair, one line only.
        const closes = new Map<string, Outcome[]>();
        let single = true;
        for (const snap of snapshots) {
          for (const [k2, o2] of snap) {
            const [b2, p2, m2] = k2.split('|');
            if (p2 !== player || m2 !== market) continue;
            if (o2.length !== 2) single = false;
            closes.set(b2!, o2);
          }
        }
        if (!single) continue;
        const pairs = [...closes.values()].filter((o) => side(o, 'over').point === line && side(o, 'under').point === line).map((o) => fairPair(side(o, 'over').price, side(o, 'under').price)[0]);
        if (pairs.length < 2) continue;
        out.push({
          bet: {
            game_id: gameIds.get(sid),
            book_id: Number(bookId),
            market_type: 'player_props',
            prop_type: market!.replace(/^player_/, ''),
            player_id: playerIds.get(player!),
            side: 'over',
            line,
            price: side(outcomes, 'over').price,
            placed_at: list[0]!.timestamp,
          },
          close: side(later, 'over').price,
          fair: pairs.reduce((s, p) => s + p, 0) / pairs.length,
          books: pairs.length,
        });
        if (out.length === limit) return out;
      }
    }
    return out;
  }

  test('when prop bets taken 12 h before tip-off are measured, then each closes at its book\'s last pregame price and its fair close is the books\' de-vigged pairs at its line', async () => {
    const cases = propBets(40);
    expect(cases.length).toBe(40);
    const res = await post('/clv', { bets: cases.map((c) => c.bet), devig: 'multiplicative' });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(cases.length);
    res.body.data.forEach((clv: any, i: number) => {
      const { bet, close, fair, books } = cases[i]!;
      const price = bet.price as number;
      expect(clv).toMatchObject({ index: i, game_id: bet.game_id, book_id: bet.book_id, market_type: 'player_props', prop_type: bet.prop_type, player: { id: bet.player_id }, side: 'over', line: bet.line });
      expect(clv.book).toMatchObject({ same_line: true, close: { market_type: 'player_props', prop_type: bet.prop_type, player: { id: bet.player_id }, is_alternate: false, point: bet.line, price: { american: close } } });
      expect(clv.book.cents).toBe(centsOf(price) - centsOf(close));
      expect(clv.book.implied_probability).toBeCloseTo(1 / decimalOf(close) - 1 / decimalOf(price), 12);
      // No sharp book quotes these props: the fair close is the consensus of the books at the line.
      expect(clv).toMatchObject({ sharp: null, sharp_book_id: 4999, sharp_missing_reason: 'not_quoted_before_start', fair_missing_reason: null });
      expect(clv.fair).toMatchObject({ devig_method: 'multiplicative', source: 'consensus', book_count: books, reference_line: bet.line, point_adjusted: false });
      expect(clv.fair.probability).toBeCloseTo(fair, 12);
      expect(clv.fair.clv_probability).toBeCloseTo(fair - 1 / decimalOf(price), 12);
      expect(clv.fair.clv_ev_percent).toBeCloseTo((fair * decimalOf(price) - 1) * 100, 10);
    });
    // The closes moved both ways: some bets beat the close, some did not.
    const cents = res.body.data.map((c: any) => c.book.cents);
    expect(cents.some((c: number) => c > 0) && cents.some((c: number) => c < 0)).toBe(true);
  });

  test('when the bet\'s line is one the book did not close at, then the book\'s main-line close is shown without cents, and the fair close is null with its reason', async () => {
    const { bet, close } = propBets(1)[0]!;
    const res = await post('/clv', [{ ...bet, line: (bet.line as number) + 10 }]);
    expect(res.status).toBe(200);
    const clv = res.body.data[0];
    expect(clv.book).toMatchObject({ same_line: false, cents: null, implied_probability: null, close: { point: bet.line, price: { american: close } } });
    // Props have no key-number model: another line's pair is not moved to the bet's.
    expect(clv).toMatchObject({ fair: null, fair_missing_reason: 'no_closing_pair_at_line' });
  });

  test('when the bet\'s book never quoted the player\'s prop, then its close is null with the reason, and the fair close still comes from the other books', async () => {
    const { bet, fair } = propBets(1)[0]!;
    const res = await post('/clv', { bets: [{ ...bet, book_id: 4999 }], devig: 'multiplicative' });
    const clv = res.body.data[0];
    expect(clv).toMatchObject({ book: null, book_missing_reason: 'not_quoted_before_start', sharp: null });
    expect(clv.fair.probability).toBeCloseTo(fair, 12);
  });

  test('when a book listed two lines of one prop, then a bet at the second is measured against that line\'s close (an alternate)', async () => {
    // A book listing a player's prop at two lines in its main market keeps the first as the main line.
    let found: { bet: Record<string, unknown>; close: number } | undefined;
    for (const [sid, list] of pregame) {
      const last = propsOf(list.at(-1)!.data);
      for (const [k, outcomes] of last) {
        const overs = outcomes.filter((o) => o.name === 'Over');
        if (overs.length < 2) continue;
        const [bookId, player, market] = k.split('|');
        const alternate = overs[1]!;
        found = {
          bet: { game_id: gameIds.get(sid), book_id: Number(bookId), market_type: 'player_props', prop_type: market!.replace(/^player_/, ''), player_id: playerIds.get(player!), side: 'over', line: alternate.point, price: -110 },
          close: alternate.price,
        };
        break;
      }
      if (found) break;
    }
    expect(found).toBeDefined();
    const res = await post('/clv', [found!.bet]);
    expect(res.body.data[0].book).toMatchObject({ same_line: true, cents: centsOf(-110) - centsOf(found!.close), close: { is_alternate: true, point: found!.bet.line, price: { american: found!.close } } });
  });

  describe('yes/no props', () => {
    test('when the closing lines of props are asked, then a yes/no prop closes on each side with no point, and side=yes narrows to it', async () => {
      const gameId = gameIds.get(yesNo.sid);
      const res = await t.get(`${BASE}/closing?game_id=${gameId}&market_type=player_props`, key);
      expect(res.status).toBe(200);
      const dd = res.body.data.filter((c: any) => c.prop_type === 'double_double');
      const closeOf = (book: number, s: string) => dd.find((c: any) => c.book_id === book && c.side === s);
      expect(dd).toHaveLength(4);
      expect(closeOf(yesNo.bookA, 'yes')).toMatchObject({ market_type: 'player_props', player: { id: playerIds.get(normalizePlayerName(yesNo.player)) }, point: null, is_alternate: false, price: { american: DOUBLE_DOUBLE.lastA.yes } });
      expect(closeOf(yesNo.bookA, 'no')).toMatchObject({ point: null, price: { american: DOUBLE_DOUBLE.lastA.no } });
      expect(closeOf(yesNo.bookB, 'yes')).toMatchObject({ price: { american: DOUBLE_DOUBLE.lastB.yes } });
      const yes = await t.get(`${BASE}/closing?game_id=${gameId}&market_type=player_props&side=yes`, key);
      expect(yes.body.data.map((c: any) => [c.prop_type, c.side])).toEqual([
        ['double_double', 'yes'],
        ['double_double', 'yes'],
      ]);
      // The game markets' closes are not changed by the new sides: without market_type no prop is listed.
      expect((await t.get(`${BASE}/closing?game_id=${gameId}`, key)).body.data).toEqual([]);
    });

    test('when a yes bet is measured, then its close and fair close come from the yes/no pairs', async () => {
      const bet = { game_id: gameIds.get(yesNo.sid), book_id: yesNo.bookA, market_type: 'player_props', prop_type: 'double_double', player_id: playerIds.get(normalizePlayerName(yesNo.player)), side: 'yes', price: DOUBLE_DOUBLE.first.yes, placed_at: yesNo.first.timestamp };
      const res = await post('/clv', { bets: [bet], devig: 'multiplicative' });
      expect(res.status).toBe(200);
      const clv = res.body.data[0];
      const close = DOUBLE_DOUBLE.lastA.yes;
      expect(clv).toMatchObject({ market_type: 'player_props', prop_type: 'double_double', side: 'yes', line: null });
      // Bet +260, close +230: 30 cents, 1/3.3 - 1/3.6 in probability.
      expect(clv.book).toMatchObject({ same_line: true, cents: 30, close: { side: 'yes', point: null, price: { american: close } } });
      expect(clv.book.implied_probability).toBeCloseTo(1 / 3.3 - 1 / 3.6, 12);
      const p = (fairPair(DOUBLE_DOUBLE.lastA.yes, DOUBLE_DOUBLE.lastA.no)[0] + fairPair(DOUBLE_DOUBLE.lastB.yes, DOUBLE_DOUBLE.lastB.no)[0]) / 2;
      expect(clv.fair).toMatchObject({ source: 'consensus', book_count: 2, reference_line: null, point_adjusted: false });
      expect(clv.fair.probability).toBeCloseTo(p, 12);
      expect(clv.fair.clv_ev_percent).toBeCloseTo((p * 3.6 - 1) * 100, 10);
    });

    test('when yes/no closes are asked through GraphQL, then closingLines(side: [NO]) serves them', async () => {
      const res = await t.graphql(
        `{ closingLines(gameId: [${gameIds.get(yesNo.sid)}], marketType: [PLAYER_PROPS], side: [NO]) { propType side point price { american } } }`,
        {},
        key,
      );
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.closingLines).toHaveLength(2);
      expect(res.body.data.closingLines).toContainEqual({ propType: 'double_double', side: 'NO', point: null, price: { american: DOUBLE_DOUBLE.lastB.no } });
    });
  });

  test('when a prop bet is measured through GraphQL, then betClv answers as the REST route', async () => {
    const { bet, close } = propBets(1)[0]!;
    const res = await t.graphql(
      `query($bets: [ClvBetInput!]!) { betClv(bets: $bets) { marketType propType player { id } book { sameLine cents close { propType point price { american } } } fairMissingReason } }`,
      { bets: [{ gameId: bet.game_id, bookId: bet.book_id, marketType: 'PLAYER_PROPS', propType: bet.prop_type, playerId: bet.player_id, side: 'OVER', line: bet.line, price: bet.price }] },
      key,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.betClv[0]).toEqual({
      marketType: 'PLAYER_PROPS',
      propType: bet.prop_type,
      player: { id: bet.player_id },
      book: { sameLine: true, cents: centsOf(bet.price as number) - centsOf(close), close: { propType: bet.prop_type, point: bet.line, price: { american: close } } },
      fairMissingReason: null,
    });
  });

  test('when prop bets are graded before any box score, then each is pending (not_final) with its reason, beside a game bet\'s', async () => {
    const { bet } = propBets(1)[0]!;
    const { game_id, market_type, prop_type, player_id, side: s, line } = bet;
    const res = await post('/grade', [
      { game_id, market_type, prop_type, player_id, side: s, line },
      { game_id, market_type: 'player_props', prop_type: 'double_double', player_id, side: 'no' },
      { game_id, market_type: 'moneyline', side: 'home' },
    ]);
    expect(res.status).toBe(200);
    const [prop, yesNoProp, game] = res.body.data;
    expect(prop).toMatchObject({ index: 0, market_type: 'player_props', prop_type, player: { id: player_id }, line, result: null, result_missing_reason: 'not_final', home_points: null, away_points: null, graded_at: null });
    expect(yesNoProp).toMatchObject({ prop_type: 'double_double', side: 'no', line: null, result: null, result_missing_reason: 'not_final' });
    expect(game).toMatchObject({ market_type: 'moneyline', prop_type: null, player: null, result: null, result_missing_reason: 'not_final' });
  });

  describe('refusals', () => {
    const good = () => propBets(1)[0]!.bet;
    const cases: Array<[string, (b: Record<string, unknown>) => Record<string, unknown>, string]> = [
      ['an unknown prop_type', (b) => ({ ...b, prop_type: 'dunks' }), 'invalid parameter bets[0].prop_type: must be one of points, rebounds, assists, threes'],
      ['a prop_type that is not text', (b) => ({ ...b, prop_type: 7 }), 'invalid parameter bets[0].prop_type: must be a prop type such as points'],
      ['no prop_type', (b) => ({ ...b, prop_type: undefined }), 'invalid parameter bets[0].prop_type: is required on a player_props bet'],
      ['no player_id', (b) => ({ ...b, player_id: undefined }), 'invalid parameter bets[0].player_id: is required on a player_props bet'],
      ['a player_id that is text', (b) => ({ ...b, player_id: 'x' }), 'invalid parameter bets[0].player_id: must be an integer player id'],
      ['a player_id of 0', (b) => ({ ...b, player_id: 0 }), 'invalid parameter bets[0].player_id: must be an integer player id'],
      ['an unknown player', (b) => ({ ...b, player_id: 987654 }), 'invalid parameter bets[0].player_id: no player 987654'],
      ['a side of a yes/no prop on an over/under prop', (b) => ({ ...b, side: 'yes' }), 'invalid parameter bets[0].side: must be one of over, under for a'],
      ['a side of an over/under prop on a yes/no prop', (b) => ({ ...b, prop_type: 'double_double', line: undefined }), 'invalid parameter bets[0].side: must be one of yes, no for a double_double prop bet'],
      ['a team side on a prop', (b) => ({ ...b, side: 'home' }), 'invalid parameter bets[0].side: must be one of over, under for a'],
      ['a line on a yes/no prop', (b) => ({ ...b, prop_type: 'triple_double', side: 'yes', line: 0.5 }), 'invalid parameter bets[0].line: must be absent on a triple_double prop bet'],
      ['no line on an over/under prop', (b) => ({ ...b, line: null }), 'invalid parameter bets[0].line: is required on a'],
      ['a line that is not a half point', (b) => ({ ...b, line: 18.3 }), 'invalid parameter bets[0].line: must be a multiple of 0.5'],
      ['a line of 0', (b) => ({ ...b, line: 0 }), 'invalid parameter bets[0].line: must be above 0 and at most 500'],
      ['a negative line', (b) => ({ ...b, line: -4.5 }), 'invalid parameter bets[0].line: must be above 0 and at most 500'],
      ['a period a prop is not stored for', (b) => ({ ...b, period: 'first_half' }), 'invalid parameter bets[0].period: must be full_game on a'],
      ['a prop_type on a game bet', (b) => ({ ...b, market_type: 'total' }), 'invalid parameter bets[0].prop_type: is only taken on a player_props bet'],
      ['a player_id on a game bet', (b) => ({ ...b, market_type: 'total', prop_type: undefined }), 'invalid parameter bets[0].player_id: is only taken on a player_props bet'],
      ['a stored prop market as market_type', (b) => ({ ...b, market_type: 'player_points' }), 'invalid parameter bets[0].market_type: must be one of moneyline, spread, total, player_props'],
    ];
    test.each(cases)('when a prop bet has %s, then POST /clv answers 400 naming the field', async (_what, change, message) => {
      const res = await post('/clv', { bets: [change(good())] });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error).toContain(message);
    });
    test.each(cases)('when a prop bet has %s, then POST /grade answers 400 naming the field', async (_what, change, message) => {
      const { book_id: _b, price: _p, placed_at: _a, ...bet } = change(good());
      const res = await post('/grade', [bet]);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(message);
    });

    test('when the player plays in another league than the game, then 400 names player_id', async () => {
      const bet = good();
      const game = await t.db.prisma.game.findUniqueOrThrow({ where: { id: bet.game_id as number } });
      const other = await t.db.prisma.league.findFirstOrThrow({ where: { id: { not: game.leagueId } } });
      // A player of the other league (written here: the captures hold WNBA players only).
      const player = await t.db.prisma.player.create({ data: { leagueId: other.id, name: 'Other League Player' } });
      for (const path of ['/clv', '/grade']) {
        const res = await post(path, [{ ...bet, player_id: player.id, ...(path === '/grade' && { book_id: undefined, price: undefined, placed_at: undefined }) }]);
        expect(res.status).toBe(400);
        expect(res.body.error).toContain(`invalid parameter bets[0].player_id: player ${player.id} plays in another league than game ${bet.game_id}`);
      }
    });

    test('when the second bet of several is bad, then the 400 names it by its index', async () => {
      const res = await post('/clv', [good(), { ...good(), prop_type: 'dunks' }]);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('invalid parameter bets[1].prop_type');
    });

    test('when a bad prop bet is sent through GraphQL, then the error names the same field', async () => {
      const bet = good();
      const res = await t.graphql(
        `query($bets: [ClvBetInput!]!) { betClv(bets: $bets) { index } }`,
        { bets: [{ gameId: bet.game_id, bookId: bet.book_id, marketType: 'PLAYER_PROPS', propType: 'double_double', playerId: bet.player_id, side: 'YES', line: 1.5, price: 200 }] },
        key,
      );
      expect(res.body.errors[0].message).toContain('invalid parameter bets[0].line: must be absent on a double_double prop bet');
    });
  });

  test('when a game is cancelled, then its prop bets and prop outcomes are void (the game\'s status alone), not ungraded', async () => {
    // A game none of the other tests reads: its status is changed here as the feed would change it.
    const used = new Set([...propBets(40).map((c) => c.bet.game_id), gameIds.get(yesNo.sid)]);
    const sid = [...pregame.keys()].reverse().find((s) => !used.has(gameIds.get(s)))!;
    const gameId = gameIds.get(sid)!;
    const outcome = propsOf(pregame.get(sid)!.at(-1)!.data).entries().next().value!;
    const [, player, market] = outcome[0].split('|');
    const over = side(outcome[1], 'over');
    const bet = { game_id: gameId, market_type: 'player_props', prop_type: market!.replace(/^player_/, ''), player_id: playerIds.get(player!), side: 'over', line: over.point };
    const before = await post('/grade', [bet]);
    expect(before.body.data[0]).toMatchObject({ result: null, result_missing_reason: 'not_final' });
    await t.db.prisma.game.update({ where: { id: gameId }, data: { status: 'cancelled' } });
    const after = await post('/grade', [bet]);
    expect(after.body.data[0]).toMatchObject({ game_status: 'cancelled', result: 'void', result_missing_reason: null, graded_at: expect.any(String) });
    const markets = await t.get(`${BASE}/games/${gameId}/markets?market_type=player_props`, key);
    expect(markets.status).toBe(200);
    const results = new Set(markets.body.data.markets.player_props.outcomes.map((o: any) => o.result));
    expect([...results]).toEqual(['void']);
  });

  test('when prop bets are sent, then requests and responses validate against /api/v1/openapi.json', async () => {
    const doc = (await t.get('/api/v1/openapi.json')).body;
    const openapi = openApiChecker(doc);
    const check = openapi.check;
    const op = (path: string, method: string) => openapi.op(BASE + path, method);
    const { bet } = propBets(1)[0]!;
    const yes = { ...bet, prop_type: 'double_double', side: 'yes', line: undefined, game_id: gameIds.get(yesNo.sid), player_id: playerIds.get(normalizePlayerName(yesNo.player)), placed_at: undefined };
    const clvBody = JSON.parse(JSON.stringify({ bets: [bet, { ...bet, line: 99.5 }, yes] }));
    check(op('/clv', 'post').requestBody.content['application/json'].schema, clvBody);
    check(op('/clv', 'post').responses[200].content['application/json'].schema, (await post('/clv', clvBody)).body);
    const gradeBody = clvBody.bets.map(({ book_id: _b, price: _p, placed_at: _a, ...b }: any) => b);
    check(op('/grade', 'post').requestBody.content['application/json'].schema, gradeBody);
    check(op('/grade', 'post').responses[200].content['application/json'].schema, (await post('/grade', gradeBody)).body);
    check(op('/closing', 'get').responses[200].content['application/json'].schema, (await t.get(`${BASE}/closing?game_id=${gameIds.get(yesNo.sid)}&market_type=player_props&side=yes,no`, key)).body);
  });
});
