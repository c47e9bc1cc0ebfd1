import type { PrismaClient } from './client';

/**
 * The data's time: when the newest feed document stored was seen (the latest `Game.seenAt`, which every
 * document carrying the game moves forward). Null on an empty store. The games table holds one row
 * per game, so this stays small as history grows.
 */
export async function newestFeedTime(prisma: PrismaClient): Promise<Date | null> {
  const { _max } = await prisma.game.aggregate({ _max: { seenAt: true } });
  return _max.seenAt ?? null;
}
