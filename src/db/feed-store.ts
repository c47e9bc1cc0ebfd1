import type { PrismaClient } from './client';
import type { NormalizedDocument, QuoteKey, QuoteRow } from './feed-rows';

/** What one stored document changed, for the summary line and the live event bus. */
export interface ChangeSet {
  /** Games whose row, boxscore or status changed. */
  games: number[];
  /** Quotes whose point or price changed (or that appeared): one entry per game, market and book. */
  markets: Array<{ gameId: number; marketType: string; bookId: number }>;
  quotesChanged: number;
  historyRows: number;
}

/** Advisory lock key serialising document writes (any constant unique to this service). */
const INGEST_LOCK_ID = 7_243_001;

type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

const quoteKey = (q: Omit<QuoteKey, 'marketType'> & { marketType: string }) => `${q.gameId}|${q.bookId}|${q.marketType}|${q.period}|${q.side}|${q.isLive}`;

/** Field-by-field equality of the columns a row shares with `next` (dates and JSON by value). */
function sameFields(current: object, next: object): boolean {
  const was = current as Record<string, unknown>;
  const now = next as Record<string, unknown>;
  return Object.keys(now).every((k) => {
    const a = was[k];
    const b = now[k];
    if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
    if (typeof b === 'object' && b !== null) return JSON.stringify(a) === JSON.stringify(b);
    return (a ?? null) === (b ?? null);
  });
}

/**
 * Writes one normalised document in one transaction, touching only what changed: a second write of
 * the same document changes nothing. A quote's point or price change appends a history row stamped
 * `seenAt`; a quote the document no longer carries, for a game it does carry, becomes unavailable.
 * A document older than a stored quote's last change does not overwrite that quote.
 */
export async function storeDocument(prisma: PrismaClient, doc: NormalizedDocument, seenAt: Date): Promise<ChangeSet> {
  return prisma.$transaction(
    async (tx) => {
      // One writer at a time across every process sharing the database.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${INGEST_LOCK_ID})`;
      return writeDocument(tx, doc, seenAt);
    },
    { timeout: 120_000, maxWait: 60_000 },
  );
}

async function writeDocument(tx: Tx, doc: NormalizedDocument, seenAt: Date): Promise<ChangeSet> {
  const changedGames = new Set<number>();
  const changedMarkets = new Map<string, { gameId: number; marketType: string; bookId: number }>();
  const gameIds = doc.games.map((g) => g.id);

  if (doc.league) {
    const { id, currentSeason, currentSeasonType, isActive } = doc.league;
    const league = await tx.league.findUnique({ where: { id } });
    const update = {
      ...(currentSeason ? { currentSeason } : {}),
      ...(currentSeasonType ? { currentSeasonType } : {}),
      ...(isActive != null ? { isActive } : {}),
    };
    if (league && !sameFields(league, update)) await tx.league.update({ where: { id }, data: update });
  }
  // A league the reference data does not know still gets a row, so its games can be stored.
  for (const leagueId of new Set(doc.games.map((g) => g.leagueId))) {
    await tx.league.upsert({
      where: { id: leagueId },
      create: { id: leagueId, sport: 'basketball', name: `league ${leagueId}`, description: '', logo: '', currentSeason: doc.league?.currentSeason ?? '', currentSeasonType: doc.league?.currentSeasonType ?? 'reg' },
      update: {},
    });
  }

  const teams = new Map((await tx.team.findMany({ where: { id: { in: doc.teams.map((t) => t.id) } } })).map((t) => [t.id, t]));
  for (const team of doc.teams) {
    const current = teams.get(team.id);
    if (!current) await tx.team.create({ data: team });
    else if (!sameFields(current, team)) await tx.team.update({ where: { id: team.id }, data: team });
  }
  // Games may name teams the document does not describe; give them a placeholder to be filled later.
  const known = new Set([...teams.keys(), ...doc.teams.map((t) => t.id)]);
  for (const game of doc.games) {
    for (const teamId of [game.homeTeamId, game.awayTeamId]) {
      if (known.has(teamId)) continue;
      known.add(teamId);
      await tx.team.upsert({
        where: { id: teamId },
        create: { id: teamId, leagueId: game.leagueId, fullName: `Team ${teamId}`, displayName: `Team ${teamId}`, shortName: `Team ${teamId}`, location: '', abbr: String(teamId) },
        update: {},
      });
    }
  }

  const games = new Map((await tx.game.findMany({ where: { id: { in: gameIds } } })).map((g) => [g.id, g]));
  for (const game of doc.games) {
    const current = games.get(game.id);
    const data = { ...game, broadcast: game.broadcast ?? undefined, series: game.series ?? undefined, meta: game.meta ?? undefined };
    if (!current) {
      await tx.game.create({ data: { ...data, updatedAt: seenAt } as never });
      changedGames.add(game.id);
    } else if (current.updatedAt <= seenAt && !sameFields(current, { ...game })) {
      await tx.game.update({ where: { id: game.id }, data: { ...data, updatedAt: seenAt } as never });
      changedGames.add(game.id);
    }
  }

  const boxscores = new Map((await tx.boxscore.findMany({ where: { gameId: { in: gameIds } } })).map((b) => [b.gameId, b]));
  for (const box of doc.boxscores) {
    const current = boxscores.get(box.gameId);
    if (!current) {
      await tx.boxscore.create({ data: { ...box, updatedAt: seenAt } });
      changedGames.add(box.gameId);
    } else if (current.updatedAt <= seenAt && !sameFields(current, box)) {
      await tx.boxscore.update({ where: { gameId: box.gameId }, data: { ...box, updatedAt: seenAt } });
      changedGames.add(box.gameId);
    }
  }

  const stored = await tx.quote.findMany({ where: { gameId: { in: gameIds } } });
  const byKey = new Map(stored.map((q) => [quoteKey(q), q]));
  const fresh: Array<QuoteRow & { changedAt: Date }> = [];
  const history: QuoteRow[] = [];
  const refreshed: bigint[] = [];
  let quotesChanged = 0;
  const incoming = new Set<string>();
  const markChanged = (q: QuoteRow) =>
    changedMarkets.set(`${q.gameId}|${q.marketType}|${q.bookId}`, { gameId: q.gameId, marketType: q.marketType, bookId: q.bookId });

  const replaced: bigint[] = [];
  for (const quote of doc.quotes) {
    const key = quoteKey(quote);
    incoming.add(key);
    const current = byKey.get(key);
    if (!current) {
      fresh.push({ ...quote, changedAt: seenAt });
      history.push(quote);
      markChanged(quote);
      continue;
    }
    if (current.seenAt > seenAt || current.changedAt > seenAt) continue; // the stored quote is newer
    const priceMoved = current.american !== quote.american || (current.point ?? null) !== quote.point;
    const otherChange =
      !current.isAvailable || current.lineStatus !== quote.lineStatus || current.outcomeId !== quote.outcomeId || current.teamId !== quote.teamId;
    if (priceMoved || otherChange) {
      // Rewritten as delete + insert below: two statements per document instead of one per quote.
      replaced.push(current.id);
      fresh.push({ ...quote, changedAt: priceMoved ? seenAt : current.changedAt });
      markChanged(quote);
      if (priceMoved) history.push(quote);
    } else if (current.seenAt < seenAt) {
      refreshed.push(current.id);
    }
  }
  if (replaced.length) await tx.quote.deleteMany({ where: { id: { in: replaced } } });
  if (fresh.length) {
    await tx.quote.createMany({ data: fresh.map((q) => ({ ...q, isAvailable: true, seenAt })) });
    quotesChanged += fresh.length;
  }
  if (refreshed.length) await tx.quote.updateMany({ where: { id: { in: refreshed } }, data: { seenAt } });
  // Withdrawal is news about the quote: it moves seen_at, so that an older document cannot revive it.
  const withdrawn = stored.filter((q) => q.isAvailable && !incoming.has(quoteKey(q)) && q.seenAt <= seenAt);
  if (withdrawn.length) {
    await tx.quote.updateMany({ where: { id: { in: withdrawn.map((q) => q.id) } }, data: { isAvailable: false, seenAt } });
    for (const q of withdrawn) markChanged(q as unknown as QuoteRow);
    quotesChanged += withdrawn.length;
  }
  if (history.length) {
    await tx.oddsHistory.createMany({
      data: history.map((q) => ({
        gameId: q.gameId,
        bookId: q.bookId,
        marketType: q.marketType,
        period: q.period,
        side: q.side,
        isLive: q.isLive,
        point: q.point,
        american: q.american,
        seenAt,
      })),
    });
  }

  const betting = await tx.publicBetting.findMany({ where: { gameId: { in: gameIds } } });
  const bettingByKey = new Map(betting.map((b) => [`${b.gameId}|${b.bookId}|${b.marketType}|${b.period}|${b.side}`, b]));
  const bettingStale: bigint[] = [];
  const bettingNew: Array<(typeof doc.publicBetting)[number] & { updatedAt: Date }> = [];
  for (const row of doc.publicBetting) {
    const current = bettingByKey.get(`${row.gameId}|${row.bookId}|${row.marketType}|${row.period}|${row.side}`);
    if (current && (current.updatedAt > seenAt || sameFields(current, row))) continue;
    if (current) bettingStale.push(current.id);
    bettingNew.push({ ...row, updatedAt: seenAt });
  }
  if (bettingStale.length) await tx.publicBetting.deleteMany({ where: { id: { in: bettingStale } } });
  if (bettingNew.length) await tx.publicBetting.createMany({ data: bettingNew });

  return { games: [...changedGames], markets: [...changedMarkets.values()], quotesChanged, historyRows: history.length };
}
