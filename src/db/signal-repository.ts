import { MARKET_TYPES, type SignalKind } from '../domain';
import type { CaptureStatement } from './capture-statement';
import type { PrismaClient } from './client';

// The LineSignal table (docs/signals.md): the rows the ingest's detection writes in each capture's
// statement (src/ingest/signals.ts detects them), the answer that names what a statement stored, the
// reads that seed the detectors of a game this process has not seen yet, and the reads of requests.

/** A signal a capture stored: enough for the events bus to name it (subscribers read the row by key). */
export interface StoredSignal {
  key: string;
  kind: SignalKind;
  gameId: number;
  marketType: string;
}

export interface SignalRow {
  key: string;
  kind: SignalKind;
  gameId: number;
  marketType: string;
  period: string;
  side: string;
  at: Date;
  data: object;
}

/**
 * The pregame full-game history of the game markets of `gameIds` up to `at`: what the signal detectors
 * read of a game they are seeded with.
 */
export async function pregameHistory(prisma: PrismaClient, gameIds: readonly number[], at: Date) {
  return prisma.oddsHistory.findMany({
    where: { gameId: { in: [...gameIds] }, period: 'full_game', isLive: false, marketType: { in: [...MARKET_TYPES] }, seenAt: { lte: at } },
    select: { gameId: true, bookId: true, marketType: true, period: true, side: true, isLive: true, point: true, american: true, seenAt: true },
  });
}

/** The signals stored for `gameIds`: their keys, kinds and data (a seeded game's events already stored). */
export async function storedSignalsOf(prisma: PrismaClient, gameIds: readonly number[]) {
  return prisma.lineSignal.findMany({ where: { gameId: { in: [...gameIds] } }, select: { key: true, kind: true, gameId: true, data: true } });
}

/** Every sportsbook's id and whether it is an aggregate (whose prices the detectors leave out). */
export async function sportsbookKinds(prisma: PrismaClient) {
  return prisma.sportsbook.findMany({ select: { id: true, isAggregate: true } });
}

/**
 * Adds the writing of `rows` to a capture's statement: a steam or RLM key already stored is left as it
 * is (an event keeps its first figures); a leader's data is replaced when it differs. Returns the
 * expression of the statement's answer naming the rows inserted or changed (storedSignals reads it).
 */
export function writeSignals(sql: CaptureStatement, rows: ReadonlyArray<SignalRow & { detectedAt: Date }>): string {
  const json = JSON.stringify(rows.map((r) => ({ ...r, at: r.at.toISOString(), detectedAt: r.detectedAt.toISOString() })));
  sql.add(
    'sig',
    `INSERT INTO "LineSignal" ("key", "kind", "gameId", "marketType", "period", "side", "at", "data", "detectedAt")
    SELECT "key", "kind", "gameId", "marketType", "period", "side", "at", "data", "detectedAt"
    FROM jsonb_to_recordset(${sql.param(json)}::jsonb) AS t("key" text, "kind" text, "gameId" int, "marketType" text, "period" text, "side" text, "at" timestamp(3), "data" jsonb, "detectedAt" timestamp(3))
    WHERE (SELECT ok FROM v)
    ON CONFLICT ("key") DO UPDATE SET "data" = EXCLUDED."data"
      WHERE "LineSignal"."kind" = 'market_leader' AND "LineSignal"."data" IS DISTINCT FROM EXCLUDED."data"
    RETURNING "key", "kind", "gameId", "marketType"`,
  );
  return `, (SELECT json_agg(json_build_object('key', "key", 'kind', "kind", 'gameId', "gameId", 'marketType', "marketType")) FROM sig) AS signals`;
}

/** The signals a capture's statement stored (writeSignals), from its answer: JSON text, already parsed, or none (nothing written). */
export function storedSignals(answer: unknown): StoredSignal[] {
  const rows = (typeof answer === 'string' ? JSON.parse(answer) : answer) as Array<Record<string, unknown>> | null | undefined;
  return (rows ?? []).map((r) => ({ key: String(r.key), kind: r.kind as SignalKind, gameId: Number(r.gameId), marketType: String(r.marketType) }));
}

/** Stored signals, newest first; absent filters do not filter. */
export async function findSignals(
  prisma: PrismaClient,
  filter: { gameIds?: readonly number[] | undefined; kinds?: readonly string[] | undefined; marketTypes?: readonly string[] | undefined; keys?: readonly string[] | undefined },
) {
  return prisma.lineSignal.findMany({
    where: {
      ...(filter.keys && { key: { in: [...filter.keys] } }),
      ...(filter.gameIds && { gameId: { in: [...filter.gameIds] } }),
      ...(filter.kinds && { kind: { in: [...filter.kinds] } }),
      ...(filter.marketTypes && { marketType: { in: [...filter.marketTypes] } }),
    },
    orderBy: [{ at: 'desc' }, { id: 'desc' }],
  });
}
