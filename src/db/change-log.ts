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

/** What changed after an event id, read in one statement (one snapshot of the database). */
export interface ChangesSince {
  /** The ingest counter now: every change up to it is in `games` and `markets` (or was before `after`). */
  latest: number;
  /** The oldest entry kept, or null when the log is empty. */
  oldest: number | null;
  /** When the first change after `after` was committed (server time), or null when none. */
  firstAt: Date | null;
  games: number[];
  markets: ChangedMarket[];
}

/** The games and quote keys changed by the ingests after `after` (a version), with the log's bounds. */
export async function changesSince(prisma: PrismaClient, after: number): Promise<ChangesSince> {
  const [row] = await prisma.$queryRawUnsafe<Array<{ latest: bigint | null; oldest: bigint | null; first_at: Date | null; games: number[]; markets: ChangedMarket[] }>>(
    `WITH r AS (SELECT * FROM "ChangeLog" WHERE "version" > $1::bigint)
     SELECT (SELECT "version" FROM "IngestState" WHERE "id" = 1) AS latest,
            (SELECT min("version") FROM "ChangeLog") AS oldest,
            (SELECT min("recordedAt") FROM r) AS first_at,
            ARRAY(SELECT DISTINCT g FROM r, unnest(r."games") AS g) AS games,
            (SELECT COALESCE(jsonb_agg(DISTINCT m), '[]'::jsonb) FROM r, jsonb_array_elements(r."markets") AS m) AS markets`,
    String(after),
  );
  return {
    latest: Number(row?.latest ?? 0n),
    oldest: row?.oldest == null ? null : Number(row.oldest),
    firstAt: row?.first_at ?? null,
    games: (row?.games ?? []).map(Number),
    markets: row?.markets ?? [],
  };
}

/** The ingest counter now (0 before the first ingest): a snapshot read after this includes every change up to it. */
export async function currentVersion(prisma: PrismaClient): Promise<number> {
  const [row] = await prisma.$queryRawUnsafe<Array<{ version: bigint }>>(`SELECT "version" FROM "IngestState" WHERE "id" = 1`);
  return Number(row?.version ?? 0n);
}
