import DataLoader from 'dataloader';
import type { Player } from '../db/client';
import { playersByIds } from '../db/player-repository';
import type { PrismaClient } from '../db/client';
import * as repo from '../db/odds-repository';

// One set of DataLoaders per request (or per pushed event): a loader caches for its own lifetime, so
// a longer-lived one would serve stale odds. Each loader turns all the keys asked for in one tick
// into one SQL query.

/** Groups rows by a key, in the order of `keys`, one entry per key (DataLoader's contract). */
function byKey<K, R>(keys: readonly K[], rows: readonly R[], keyOf: (row: R) => K): R[][] {
  const groups = new Map<K, R[]>(keys.map((k) => [k, []]));
  for (const row of rows) groups.get(keyOf(row))?.push(row);
  return keys.map((k) => groups.get(k) ?? []);
}

function one<K, R>(keys: readonly K[], rows: readonly R[], keyOf: (row: R) => K): (R | null)[] {
  return byKey(keys, rows, keyOf).map((group) => group[0] ?? null);
}

/** Loaders named `<entity>By<Key>`; every one batches by id. */
export function createLoaders(prisma: PrismaClient) {
  return {
    gameById: new DataLoader<number, repo.GameRow | null>(async (ids) => one(ids, await repo.gamesByIds(prisma, ids), (g) => g.id)),
    teamById: new DataLoader<number, repo.TeamRow | null>(async (ids) => one(ids, await repo.teamsByIds(prisma, ids), (t) => t.id)),
    leagueById: new DataLoader<number, repo.LeagueRow | null>(async (ids) => one(ids, await repo.leaguesByIds(prisma, ids), (l) => l.id)),
    sportsbookById: new DataLoader<number, repo.SportsbookRow | null>(async (ids) =>
      one(ids, await repo.sportsbooksByIds(prisma, ids), (b) => b.id),
    ),
    boxscoreByGameId: new DataLoader<number, repo.BoxscoreRow | null>(async (ids) =>
      one(ids, await repo.boxscoresByGameIds(prisma, ids), (b) => b.gameId),
    ),
    quotesByGameId: new DataLoader<number, repo.QuoteRow[]>(async (ids) => byKey(ids, await repo.quotesByGameIds(prisma, ids), (q) => q.gameId)),
    propQuotesByGameId: new DataLoader<number, repo.QuoteRow[]>(async (ids) => byKey(ids, await repo.propQuotesByGameIds(prisma, ids), (q) => q.gameId)),
    playerById: new DataLoader<number, Player | null>(async (ids) => one(ids, await playersByIds(prisma, ids), (p) => p.id)),
    publicBettingByGameId: new DataLoader<number, repo.PublicBettingRow[]>(async (ids) =>
      byKey(ids, await repo.publicBettingByGameIds(prisma, ids), (b) => b.gameId),
    ),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
