import type { KeyRecord } from '../auth/viewer';
import type { PrismaClient } from './client';

/** The key lookup auth needs: one indexed read by hash, with the account. */
export function createKeyLookup(prisma: PrismaClient) {
  return async (hash: string): Promise<KeyRecord | null> => {
    const key = await prisma.apiKey.findUnique({ where: { hash }, include: { account: true } });
    return key;
  };
}
