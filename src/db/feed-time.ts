import type { PrismaClient } from './client';

/**
 * The data's time: the newest feed document time written (`IngestState.feedTime`, moved forward by
 * every capture's statement). Null on an empty store. One row, whatever the history holds.
 */
export async function newestFeedTime(prisma: PrismaClient): Promise<Date | null> {
  const state = await prisma.ingestState.findUnique({ where: { id: 1 }, select: { feedTime: true } });
  return state?.feedTime ?? null;
}
