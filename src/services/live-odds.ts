import { newestFeedTime } from '../db/feed-time';
import { liveSnapshotRows } from '../db/live-repository';
import { LIVE_STATUSES } from '../domain';
import type { ReadContext } from './read-context';

// The reads behind the live odds snapshot (GET /odds/live, Query.liveGames and every push of
// Subscription.liveOdds and the Socket.IO snapshots; src/graphql/resolvers/LiveOdds.ts loadLiveOdds).

/**
 * The games being played (narrowed to `gameId` when given), their scores and quotes, and their player
 * props when `props`, all from one database snapshot (src/db/live-repository.ts).
 */
export function liveSnapshot(ctx: Pick<ReadContext, 'db'>, gameId: number | null, props: boolean) {
  return liveSnapshotRows(ctx.db.prisma, LIVE_STATUSES, gameId != null ? [gameId] : undefined, props);
}

/** The data's time when no game is being played: the newest feed document stored (null: none yet). */
export const dataTime = (ctx: Pick<ReadContext, 'db'>): Promise<Date | null> => newestFeedTime(ctx.db.prisma);
