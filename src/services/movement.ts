import { findLineMovement, findLiveGames } from '../db/movement-repository';
import { findSignals } from '../db/signal-repository';
import { compareCodePoints, formatAmerican, labelKey, MOVEMENT_GAME_STATUSES, propTypeOf, signalLabels, storedMarketTypesOf, type LiveMarketType, type MovementGameSet, type Period, type Side } from '../domain';
import { lineMovement } from '../domain/line-movement';
import { list } from './arguments';
import type { ReadContext } from './read-context';

// Line movement (spec 2.8, 4.9): open and current price of every outcome of the games being played.
// The math (line, absolute_change, direction) is src/domain/line-movement.ts. Player props only when
// market_type names them (one record per player, prop, line, side and book: docs/player-props.md).
// Each record's signals are the stored ones (LineSignal, written at ingest) its book took part in:
// read, never detected here (signals are detected on game markets only, so prop records have none).
// The plan gate (line movement) is the caller's.

const SIDE_ORDER = ['away', 'home', 'over', 'under'];

/** What Query.lineMovement is asked for. */
export interface LineMovementQuery {
  games?: MovementGameSet | null | undefined;
  gameId?: readonly number[] | null | undefined;
  marketType?: readonly LiveMarketType[] | null | undefined;
  bookId?: readonly number[] | null | undefined;
  side?: readonly Side[] | null | undefined;
  period?: readonly Period[] | null | undefined;
}

/** Open and current price of every outcome of the games asked for (being played by default), with their stored signals. */
export async function lineMovementOf(ctx: ReadContext, args: LineMovementQuery) {
  const marketTypes = storedMarketTypesOf(list(args.marketType));
  const sides = list(args.side);
  const periods = list(args.period);

  const games = await findLiveGames(ctx.db.prisma, MOVEMENT_GAME_STATUSES[args.games ?? 'live'], list(args.gameId));
  const gameIds = games.map((g) => g.id);
  const [rows, stored] = await Promise.all([
    findLineMovement(ctx.db.prisma, gameIds, { marketTypes, bookIds: list(args.bookId), sides, periods }),
    gameIds.length ? findSignals(ctx.db.prisma, { gameIds, marketTypes }) : [],
  ]);
  const labels = signalLabels(stored);
  const gameById = new Map(games.map((g, i) => [g.id, { game: g, order: i }]));
  rows.sort(
    (a, b) =>
      gameById.get(a.gameId)!.order - gameById.get(b.gameId)!.order ||
      a.bookId - b.bookId ||
      compareCodePoints(a.marketType, b.marketType) ||
      compareCodePoints(a.period, b.period) ||
      a.playerId - b.playerId ||
      Number(a.lineKey !== '') - Number(b.lineKey !== '') ||
      (a.current.point ?? 0) - (b.current.point ?? 0) ||
      SIDE_ORDER.indexOf(a.side) - SIDE_ORDER.indexOf(b.side),
  );
  const players = new Map(
    (await ctx.loaders.playerById.loadMany([...new Set(rows.flatMap((r) => (r.playerId ? [r.playerId] : [])))])).flatMap((p) =>
      p && !(p instanceof Error) ? [[p.id, p] as const] : [],
    ),
  );

  let newest = null as Date | null;
  const records = rows.map((row) => {
    const { game } = gameById.get(row.gameId)!;
    const q = row.current;
    if (!newest || q.seenAt > newest) newest = q.seenAt;
    const m = lineMovement(row.marketType, row.side, row.open, { point: q.point, american: q.american });
    return {
      gameId: row.gameId,
      leagueId: game.leagueId,
      marketType: row.marketType,
      bookId: row.bookId,
      side: row.side,
      teamId: q.teamId,
      period: row.period,
      value: m.currentLine,
      odds: { decimal: q.decimal, american: formatAmerican(q.american), fractional: q.fractional, original: q.american },
      isLive: q.isLive,
      lineMovement: {
        openLine: m.openLine,
        currentLine: m.currentLine,
        absoluteChange: m.absoluteChange,
        direction: m.direction,
        openPrice: m.openPrice,
        currentPrice: m.currentPrice,
        openedAt: row.open.seenAt,
        changedAt: q.changedAt,
      },
      game: { awayTeamId: game.awayTeamId, homeTeamId: game.homeTeamId, startTime: game.startTime, status: game.status },
      player: row.playerId ? { id: row.playerId, name: players.get(row.playerId)?.name ?? `Player ${row.playerId}`, teamId: players.get(row.playerId)?.teamId ?? null } : null,
      propType: propTypeOf(row.marketType),
      isAlternate: row.playerId ? row.lineKey !== '' : null,
      signals: labels.get(labelKey(row.gameId, row.marketType, row.period, row.bookId)) ?? [],
    };
  });
  return { updatedAt: newest, count: records.length, records };
}
