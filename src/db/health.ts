import type { PrismaClient } from './client';

/**
 * One round trip that proves the database answers, and the time of the newest price move it holds
 * (read from the seenAt index, not a scan): how fresh the data behind every route is.
 */
export async function probeDatabase(prisma: PrismaClient): Promise<{ latestPriceAt: Date | null }> {
  const [row] = await prisma.$queryRawUnsafe<Array<{ latest: Date | null }>>('SELECT max("seenAt") AS latest FROM "OddsHistory"');
  return { latestPriceAt: row?.latest ?? null };
}
