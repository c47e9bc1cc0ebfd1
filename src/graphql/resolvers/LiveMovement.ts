import { requirePlan } from '../../auth/viewer';
import { findLineMovement, findLiveGames } from '../../db/movement-repository';
import { formatAmerican, LIVE_STATUSES, propTypeOf, storedMarketTypesOf } from '../../domain';
import { lineMovement } from '../../domain/line-movement';
import type { LineMovementRecord, QueryResolvers } from '../__generated__/resolvers-types';
import { list } from '../arguments';

// Line movement (spec 2.8, 4.9): open and current price of every outcome of the games being played.
// The math (line, absolute_change, direction) is src/domain/line-movement.ts. Player props only when
// market_type names them (one record per player, prop, line, side and book: docs/player-props.md).

const SIDE_ORDER = ['away', 'home', 'over', 'under'];

export const LiveMovementQuery: QueryResolvers = {
  lineMovement: async (_root, args, ctx) => {
    if (ctx.viewer) requirePlan(ctx.viewer, 'lineMovement', 'live line movement (/odds/live/movement)');
    const marketTypes = storedMarketTypesOf(list(args.marketType));
    const sides = list(args.side);
    const periods = list(args.period);

    const games = await findLiveGames(ctx.db.prisma, LIVE_STATUSES, list(args.gameId));
    const rows = await findLineMovement(
      ctx.db.prisma,
      games.map((g) => g.id),
      { marketTypes, bookIds: list(args.bookId), sides, periods },
    );
    const gameById = new Map(games.map((g, i) => [g.id, { game: g, order: i }]));
    rows.sort(
      (a, b) =>
        gameById.get(a.gameId)!.order - gameById.get(b.gameId)!.order ||
        a.bookId - b.bookId ||
        a.marketType.localeCompare(b.marketType) ||
        a.period.localeCompare(b.period) ||
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
    const records: LineMovementRecord[] = rows.map((row) => {
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
      };
    });
    return { updatedAt: newest, count: records.length, records };
  },
};
