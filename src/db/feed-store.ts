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

type Column = readonly [name: string, type: 'int' | 'float8' | 'text' | 'bool' | 'timestamp(3)'];

const QUOTE_COLUMNS: readonly Column[] = [
  ['gameId', 'int'], ['bookId', 'int'], ['marketType', 'text'], ['period', 'text'], ['side', 'text'], ['isLive', 'bool'],
  ['outcomeId', 'text'], ['teamId', 'int'], ['point', 'float8'], ['american', 'int'], ['decimal', 'float8'], ['fractional', 'text'],
  ['isAvailable', 'bool'], ['lineStatus', 'text'], ['seenAt', 'timestamp(3)'], ['changedAt', 'timestamp(3)'],
];
const HISTORY_COLUMNS: readonly Column[] = [
  ['gameId', 'int'], ['bookId', 'int'], ['marketType', 'text'], ['period', 'text'], ['side', 'text'], ['isLive', 'bool'],
  ['point', 'float8'], ['american', 'int'], ['seenAt', 'timestamp(3)'],
];
const BETTING_COLUMNS: readonly Column[] = [
  ['gameId', 'int'], ['bookId', 'int'], ['marketType', 'text'], ['period', 'text'], ['side', 'text'],
  ['ticketsPercent', 'float8'], ['moneyPercent', 'float8'], ['numBets', 'int'], ['updatedAt', 'timestamp(3)'],
];

/**
 * Inserts rows with one parameter per column (arrays, unnested by the server) instead of one per
 * value: Prisma's createMany binds every value separately, which on PGlite made the bulk inserts the
 * bulk of ingest time (bench/ingest.js). Dates travel as ISO text; the columns are UTC timestamps.
 */
async function insertRows(tx: Tx, table: string, columns: readonly Column[], rows: ReadonlyArray<object>): Promise<void> {
  if (!rows.length) return;
  const arrays = columns.map(([name]) =>
    rows.map((row) => {
      const value = (row as Record<string, unknown>)[name];
      return value instanceof Date ? value.toISOString() : (value ?? null);
    }),
  );
  const names = columns.map(([name]) => `"${name}"`).join(', ');
  const unnest = columns.map(([, type], i) => `$${i + 1}::${type === 'timestamp(3)' ? 'text' : type}[]`).join(', ');
  const select = columns.map(([, type], i) => (type === 'timestamp(3)' ? `c${i}::timestamp(3)` : `c${i}`)).join(', ');
  const aliases = columns.map((_, i) => `c${i}`).join(', ');
  await tx.$executeRawUnsafe(`INSERT INTO "${table}" (${names}) SELECT ${select} FROM unnest(${unnest}) AS t(${aliases})`, ...arrays);
}

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
  let refreshed = false;
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
      refreshed = true;
    }
  }
  if (replaced.length) await tx.quote.deleteMany({ where: { id: { in: replaced } } });
  if (fresh.length) {
    await insertRows(tx, 'Quote', QUOTE_COLUMNS, fresh.map((q) => ({ ...q, isAvailable: true, seenAt })));
    quotesChanged += fresh.length;
  }
  // Quotes carried again unchanged were seen now: one statement for all of them, not an id list.
  if (refreshed) {
    await tx.$executeRaw`UPDATE "Quote" SET "seenAt" = ${seenAt} WHERE "gameId" = ANY(${gameIds}) AND "isAvailable" AND "seenAt" < ${seenAt}`;
  }
  // Withdrawal is news about the quote: it moves seen_at, so that an older document cannot revive it.
  const withdrawn = stored.filter((q) => q.isAvailable && !incoming.has(quoteKey(q)) && q.seenAt <= seenAt);
  if (withdrawn.length) {
    await tx.quote.updateMany({ where: { id: { in: withdrawn.map((q) => q.id) } }, data: { isAvailable: false, seenAt } });
    for (const q of withdrawn) markChanged(q as unknown as QuoteRow);
    quotesChanged += withdrawn.length;
  }
  if (history.length) {
    await insertRows(tx, 'OddsHistory', HISTORY_COLUMNS, history.map((q) => ({ ...q, seenAt })));
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
  if (bettingNew.length) await insertRows(tx, 'PublicBetting', BETTING_COLUMNS, bettingNew);

  return { games: [...changedGames], markets: [...changedMarkets.values()], quotesChanged, historyRows: history.length };
}
