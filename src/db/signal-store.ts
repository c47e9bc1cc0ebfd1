import {
  DEFAULT_SIGNAL_THRESHOLDS,
  findLeaders,
  findReverseLineMovement,
  findSteam,
  MARKET_TYPES,
  priceMoves,
  SIDES_BY_MARKET,
  type PriceMove,
  type SignalKind,
  type SignalThresholds,
} from '../domain';
import type { PrismaClient } from './client';

// Line-movement signals at ingest (issue 23; docs/signals.md): after a capture commits, the pregame
// history of the games whose prices it moved is read back, the detectors of src/domain/signals.ts
// run over it with the public-betting shares stored by that capture, and every event not yet stored
// is stored under its key. Requests only read the table: nothing is computed per request. An event
// keeps the figures of the capture that first showed it (for RLM, the shares then).


const moveData = (m: PriceMove) => ({
  book_id: m.bookId,
  at: m.at.toISOString(),
  from_point: m.from.point,
  from_american: m.from.american,
  to_point: m.to.point,
  to_american: m.to.american,
  size: m.size,
  unit: m.unit,
});

/** What recordSignals stored: enough for the events bus to name it (subscribers read the row by key). */
export interface StoredSignal {
  key: string;
  kind: SignalKind;
  gameId: number;
  marketType: string;
}

/**
 * Detects and stores the signals of `gameIds` as of the capture at `at`. Only games not yet started
 * are read (the detectors read pregame prices), so the work per capture is bounded by the slate.
 * Resolves the events newly stored and the leaders whose followers changed (the push channels
 * announce them: docs/live-protocol.md).
 */
export async function recordSignals(prisma: PrismaClient, gameIds: readonly number[], at: Date, thresholds: SignalThresholds = DEFAULT_SIGNAL_THRESHOLDS): Promise<StoredSignal[]> {
  if (!gameIds.length) return [];
  const games = await prisma.game.findMany({ where: { id: { in: [...gameIds] }, status: 'scheduled' }, select: { id: true } });
  if (!games.length) return [];
  const ids = games.map((g) => g.id);
  const [aggregates, rows, shares] = await Promise.all([
    prisma.sportsbook.findMany({ where: { isAggregate: true }, select: { id: true } }),
    prisma.oddsHistory.findMany({
      where: { gameId: { in: ids }, period: 'full_game', isLive: false, marketType: { in: [...MARKET_TYPES] }, seenAt: { lte: at } },
      select: { gameId: true, bookId: true, marketType: true, period: true, side: true, isLive: true, point: true, american: true, seenAt: true },
    }),
    prisma.publicBetting.findMany({ where: { gameId: { in: ids }, period: 'full_game', ticketsPercent: { not: null } }, orderBy: [{ bookId: 'asc' }, { id: 'asc' }] }),
  ]);
  const skip = new Set(aggregates.map((b) => b.id));
  const prices = rows.filter((r) => !skip.has(r.bookId));
  const moves = priceMoves(prices);
  const splits = shares.map((s) => ({ gameId: s.gameId, marketType: s.marketType, side: s.side, ticketsPercent: s.ticketsPercent!, moneyPercent: s.moneyPercent }));
  const events: Array<{ key: string; kind: SignalKind; gameId: number; marketType: string; period: string; side: string; at: Date; data: object }> = [];
  for (const e of findSteam(moves, thresholds)) {
    events.push({
      key: `steam|${e.gameId}|${e.marketType}|${e.period}|${e.side}|${e.direction}|${e.startedAt.toISOString()}`,
      kind: 'steam',
      gameId: e.gameId,
      marketType: e.marketType,
      period: e.period,
      side: e.side,
      at: e.startedAt,
      data: { direction: e.direction === 1 ? 'toward_side' : 'away_from_side', books: e.moves.length, ended_at: e.endedAt.toISOString(), moves: e.moves.map(moveData) },
    });
  }
  for (const e of findReverseLineMovement(moves, splits, SIDES_BY_MARKET, thresholds)) {
    events.push({
      key: `reverse_line_movement|${e.gameId}|${e.marketType}|${e.period}|${e.towardSide}|${e.startedAt.toISOString()}`,
      kind: 'reverse_line_movement',
      gameId: e.gameId,
      marketType: e.marketType,
      period: e.period,
      side: e.towardSide,
      at: e.startedAt,
      data: {
        toward_side: e.towardSide,
        majority_side: e.majoritySide,
        majority_tickets_percent: e.majorityTicketsPercent,
        majority_money_percent: e.majorityMoneyPercent,
        books: e.moves.length,
        moves: e.moves.map(moveData),
      },
    });
  }
  for (const e of findLeaders(prices, thresholds)) {
    events.push({
      key: `market_leader|${e.gameId}|${e.marketType}|${e.period}|${e.side}|${e.number}|${e.at.toISOString()}`,
      kind: 'market_leader',
      gameId: e.gameId,
      marketType: e.marketType,
      period: e.period,
      side: e.side,
      at: e.at,
      data: { number: e.number, leader_book_id: e.leaderBookId, followers: e.followers.map((f) => ({ book_id: f.bookId, after_seconds: f.afterSeconds })) },
    });
  }
  if (!events.length) return [];
  const named = ({ key, kind, gameId, marketType }: StoredSignal): StoredSignal => ({ key, kind, gameId, marketType });
  // A leader's followers grow after it is first stored: its row is brought up to date.
  const leaders = events.filter((e) => e.kind === 'market_leader');
  const others = events.filter((e) => e.kind !== 'market_leader');
  const select = { key: true, kind: true, gameId: true, marketType: true } as const;
  const created = others.length ? await prisma.lineSignal.createManyAndReturn({ data: others.map((e) => ({ ...e, detectedAt: at })), skipDuplicates: true, select }) : [];
  const stored = new Map(
    (await prisma.lineSignal.findMany({ where: { gameId: { in: ids }, kind: 'market_leader' }, select: { key: true, data: true } })).map((r) => [r.key, JSON.stringify(r.data)]),
  );
  const fresh = leaders.filter((e) => !stored.has(e.key));
  const out = [...created, ...(fresh.length ? await prisma.lineSignal.createManyAndReturn({ data: fresh.map((e) => ({ ...e, detectedAt: at })), skipDuplicates: true, select }) : [])].map((r) => named(r as StoredSignal));
  for (const e of leaders) {
    const before = stored.get(e.key);
    if (before === undefined || before === JSON.stringify(e.data)) continue;
    await prisma.lineSignal.update({ where: { key: e.key }, data: { data: e.data } });
    out.push(named(e));
  }
  return out;
}

/** Stored signals, newest first; absent filters do not filter. */
export async function findSignals(
  prisma: PrismaClient,
  filter: { gameIds?: readonly number[] | undefined; kinds?: readonly string[] | undefined; marketTypes?: readonly string[] | undefined; keys?: readonly string[] | undefined },
) {
  return prisma.lineSignal.findMany({
    where: {
      ...(filter.keys && { key: { in: [...filter.keys] } }),
      ...(filter.gameIds && { gameId: { in: [...filter.gameIds] } }),
      ...(filter.kinds && { kind: { in: [...filter.kinds] } }),
      ...(filter.marketTypes && { marketType: { in: [...filter.marketTypes] } }),
    },
    orderBy: [{ at: 'desc' }, { id: 'desc' }],
  });
}
