import type { PrismaClient } from './client';

// The change log (model ChangeLog): what each ingest changed, keyed by the ingest counter's value
// that committed it (IngestState.version). That value is the global sequence of the resumable odds
// stream: one number per ingest, assigned under the ingest lock inside the ingest's transaction, so
// it follows commit order, is the same for every API process and survives restarts. The entry is
// written by the capture statement (capture-group.ts) in the same transaction as the change itself.

/** How long entries are kept: the stream promises replays of at least 24 hours; three days of margin. */
export const CHANGE_LOG_RETENTION_MS = 72 * 3_600_000;

/** Every this many ingests, the capture also drops the entries past retention (one indexed delete). */
export const CHANGE_LOG_PRUNE_EVERY = 500n;

/** Whether the capture that will commit `version` should prune the log. */
export const changeLogPruneDue = (version: bigint): boolean => version % CHANGE_LOG_PRUNE_EVERY === 0n;

/** A changed quote key, as the bus carries it. */
export interface ChangedMarket {
  gameId: number;
  marketType: string;
  bookId: number;
}

/** The ingest counter now (0 before the first ingest): a snapshot read after this includes every change up to it. */
export async function currentVersion(prisma: PrismaClient): Promise<number> {
  const [row] = await prisma.$queryRawUnsafe<Array<{ version: bigint }>>(`SELECT "version" FROM "IngestState" WHERE "id" = 1`);
  return Number(row?.version ?? 0n);
}

/**
 * The newest entry's version (0 while the log is empty): where a snapshot read after it applies, and
 * where a change feed starts. An entry version, not the ingest counter: a capture that changed
 * nothing advances the counter without an entry, and a delta's base is always an entry (the
 * previous one), so that a client's seq and the next delta's base_seq meet. The prune keeps the
 * newest entry (capture-group.ts), so this is the same on every process however quiet the log was.
 */
export async function latestEntryVersion(prisma: PrismaClient): Promise<number> {
  const [row] = await prisma.$queryRawUnsafe<Array<{ version: bigint | null }>>(`SELECT max("version") AS version FROM "ChangeLog"`);
  return Number(row?.version ?? 0n);
}

/** One change-log entry as a change feed reads it. */
export interface ChangeLogEntry {
  version: number;
  /** The version of the entry before it (0 for the first one ever): the base_seq of its delta. */
  previous: number;
  /** When the ingested document was seen (feed time). */
  seenAt: Date;
  games: number[];
  /** Games that started playing with this ingest (they come whole). */
  started: number[];
  markets: ChangedMarket[];
  /** The stored delta (change-deltas.ts), or null when its ingester did not store it (yet). */
  delta: unknown;
}

/**
 * The entries after `after` up to `upTo` (null: the newest), oldest first, at most `limit`, each with
 * the version of the entry before it (read with the log's own order, so it is the same for every
 * reader whatever it read before).
 */
export async function entriesAfter(prisma: PrismaClient, after: number, upTo: number | null, limit: number): Promise<ChangeLogEntry[]> {
  type Row = { version: bigint; previous: bigint | null; seenAt: Date; games: number[]; started: number[] | null; markets: ChangedMarket[]; delta: unknown };
  // From the entry `after` names (or the newest before it) so that the first entry returned has its predecessor.
  const rows = await prisma.$queryRawUnsafe<Row[]>(
    `SELECT * FROM (
       SELECT "version", lag("version") OVER (ORDER BY "version") AS previous, "seenAt", "games", "started", "markets", "delta"
       FROM "ChangeLog"
       WHERE "version" >= COALESCE((SELECT max("version") FROM "ChangeLog" WHERE "version" <= $1::bigint), 0)
         AND ($2::bigint IS NULL OR "version" <= $2::bigint)
     ) e WHERE "version" > $1::bigint ORDER BY "version" LIMIT $3::int`,
    String(after),
    upTo === null ? null : String(upTo),
    limit,
  );
  return rows.map((r) => ({
    version: Number(r.version),
    previous: Number(r.previous ?? 0n),
    seenAt: r.seenAt,
    games: (r.games ?? []).map(Number),
    started: (r.started ?? []).map(Number),
    markets: r.markets ?? [],
    delta: r.delta ?? null,
  }));
}

/** The bounds of the log: the oldest entry kept (null when empty) and the ingest counter now. */
export async function changeLogBounds(prisma: PrismaClient): Promise<{ oldest: number | null; counter: number }> {
  const [row] = await prisma.$queryRawUnsafe<Array<{ oldest: bigint | null; counter: bigint | null }>>(
    `SELECT (SELECT min("version") FROM "ChangeLog") AS oldest, (SELECT "version" FROM "IngestState" WHERE "id" = 1) AS counter`,
  );
  return { oldest: row?.oldest == null ? null : Number(row.oldest), counter: Number(row?.counter ?? 0n) };
}

/**
 * Stores the delta of `version` unless one is stored already (compare-and-set: the first writer
 * wins), then returns the stored one, which every process serves.
 */
export async function storeDelta(prisma: PrismaClient, version: number, delta: unknown): Promise<unknown> {
  // One round trip when this writer is the first (the usual case: the ingester, right after its commit).
  const [stored] = await prisma.$queryRawUnsafe<Array<{ delta: unknown }>>(
    `UPDATE "ChangeLog" SET "delta" = $1::jsonb WHERE "version" = $2::bigint AND "delta" IS NULL RETURNING "delta"`,
    JSON.stringify(delta),
    String(version),
  );
  if (stored) return stored.delta;
  const [row] = await prisma.$queryRawUnsafe<Array<{ delta: unknown }>>(`SELECT "delta" FROM "ChangeLog" WHERE "version" = $1::bigint`, String(version));
  return row?.delta ?? delta;
}

/** The entries of `versions` (those still kept), oldest first, as entriesAfter gives them (without `previous`: 0). */
export async function entriesOf(prisma: PrismaClient, versions: readonly number[]): Promise<ChangeLogEntry[]> {
  if (!versions.length) return [];
  type Row = { version: bigint; seenAt: Date; games: number[]; started: number[] | null; markets: ChangedMarket[]; delta: unknown };
  const rows = await prisma.$queryRawUnsafe<Row[]>(
    `SELECT "version", "seenAt", "games", "started", "markets", "delta" FROM "ChangeLog" WHERE "version" = ANY($1::bigint[]) ORDER BY "version"`,
    versions.map(String),
  );
  return rows.map((r) => ({ version: Number(r.version), previous: 0, seenAt: r.seenAt, games: (r.games ?? []).map(Number), started: (r.started ?? []).map(Number), markets: r.markets ?? [], delta: r.delta ?? null }));
}
