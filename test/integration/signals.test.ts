import {
  DEFAULT_SIGNAL_THRESHOLDS,
  findLeaders,
  findReverseLineMovement,
  findSteam,
  openingToCurrent,
  priceMoves,
  SIDES_BY_MARKET,
  type BettingSplit,
  type HistoryPrice,
} from '../../src/domain';
import { feedPath } from '../support/feeds';
import { startTestApp, type TestApp } from '../support/app';

// Line-movement signals (issue 23; docs/signals.md) validated on the real capture series of
// 2026-01-24 and 2026-04-29 (test/fixtures/feeds) with the default thresholds: the history the
// ingest stores, read back, gives these steam, reverse-line-movement and leader events, and each one
// is checked against the raw moves behind it. The counts are the ones docs/signals.md reports.

const EXPECTED: Record<string, { steam: number; rlm: number; leaders: number; ledAndFollowed: number }> = {
  '2026-01': { steam: 86, rlm: 78, leaders: 186, ledAndFollowed: 77 },
  '2026-04': { steam: 28, rlm: 24, leaders: 44, ledAndFollowed: 16 },
};

describe('line-movement signals on the real series', () => {
  let t: TestApp;
  let prices: HistoryPrice[];
  let splits: BettingSplit[];

  beforeAll(async () => {
    t = await startTestApp({ feeds: [feedPath('nba-2026-01-24.jsonl.gz'), feedPath('nba-2026-04-29-playoffs.jsonl.gz')] });
    const aggregates = new Set((await t.db.prisma.sportsbook.findMany({ where: { isAggregate: true } })).map((b) => b.id));
    const rows = await t.db.prisma.oddsHistory.findMany({ where: { period: 'full_game', marketType: { in: ['moneyline', 'spread', 'total'] } }, orderBy: { id: 'asc' } });
    prices = rows.filter((r) => !aggregates.has(r.bookId));
    // The public-betting shares the ingest stored last (the feed's bet_info): see docs/signals.md on what this approximates.
    // One share per game, market and side: the lowest book id's (the feed's public figures are per book).
    splits = (await t.db.prisma.publicBetting.findMany({ where: { period: 'full_game' }, orderBy: [{ bookId: 'asc' }, { id: 'asc' }] }))
      .filter((s) => s.ticketsPercent !== null)
      .map((s) => ({ gameId: s.gameId, marketType: s.marketType, side: s.side, ticketsPercent: s.ticketsPercent!, moneyPercent: s.moneyPercent }));
  }, 300_000);
  afterAll(() => t.close());

  describe.each(Object.keys(EXPECTED))('the %s series', (month) => {
    const ofSeries = () => prices.filter((p) => p.seenAt.toISOString().startsWith(month));

    test('when read with the defaults, then it gives the documented numbers of steam, RLM and leader events', () => {
      const moves = priceMoves(ofSeries());
      const leaders = findLeaders(ofSeries());
      expect({
        steam: findSteam(moves).length,
        rlm: findReverseLineMovement(moves, splits, SIDES_BY_MARKET).length,
        leaders: leaders.length,
        ledAndFollowed: leaders.filter((l) => l.followers.some((f) => f.afterSeconds > 0)).length,
      }).toEqual(EXPECTED[month]);
    });

    test('when a steam event is listed, then at least 3 distinct books moved its side the same way by the threshold within 15 minutes, pregame', () => {
      for (const e of findSteam(priceMoves(ofSeries()))) {
        expect(new Set(e.moves.map((m) => m.bookId)).size).toBeGreaterThanOrEqual(DEFAULT_SIGNAL_THRESHOLDS.steamBooks);
        expect(e.isLive).toBe(false);
        expect(e.endedAt.getTime() - e.startedAt.getTime()).toBeLessThanOrEqual(DEFAULT_SIGNAL_THRESHOLDS.steamWindowMinutes * 60_000);
        for (const m of e.moves) {
          expect(m.direction).toBe(e.direction);
          expect(m.size).toBeGreaterThanOrEqual(m.unit === 'points' ? 0.5 : 10);
          // The raw move: the book's consecutive stored prices.
          const before = ofSeries().filter((p) => p.bookId === m.bookId && p.gameId === m.gameId && p.marketType === m.marketType && p.side === m.side && !p.isLive && p.seenAt < m.at);
          const last = before.sort((a, b) => b.seenAt.getTime() - a.seenAt.getTime())[0]!;
          expect({ point: last.point, american: last.american }).toEqual(m.from);
        }
      }
    });

    test('when an RLM event is listed, then the majority of tickets is on one side and the line moved toward the other', () => {
      for (const e of findReverseLineMovement(priceMoves(ofSeries()), splits, SIDES_BY_MARKET)) {
        expect(e.majorityTicketsPercent).toBeGreaterThanOrEqual(60);
        expect(e.towardSide).not.toBe(e.majoritySide);
        const [first] = SIDES_BY_MARKET[e.marketType as 'spread'];
        for (const m of e.moves) expect(m.direction === 1 ? first : SIDES_BY_MARKET[e.marketType as 'spread'][1]).toBe(e.towardSide);
      }
    });

    test('when a leader event is listed, then no other book was on its number just before, and followers came later', () => {
      for (const e of findLeaders(ofSeries())) {
        for (const f of e.followers) {
          expect(f.bookId).not.toBe(e.leaderBookId);
          expect(f.afterSeconds).toBeGreaterThanOrEqual(0);
        }
      }
    });
  });

  test('when opening and current prices are read per book, then the opening is the first stored price and the current the last', () => {
    const oc = openingToCurrent(prices);
    expect(oc.length).toBeGreaterThan(0);
    for (const o of oc.slice(0, 200)) {
      const rows = prices.filter((p) => p.gameId === o.gameId && p.bookId === o.bookId && p.marketType === o.marketType && p.side === o.side && p.isLive === o.isLive);
      const times = rows.map((r) => r.seenAt.getTime());
      expect(o.open.at.getTime()).toBe(Math.min(...times));
      expect(o.current.at.getTime()).toBe(Math.max(...times));
    }
  });
});
