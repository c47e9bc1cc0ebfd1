import { Prisma } from './__generated__/prisma/client';
import type { PrismaClient } from './client';
import type { ChangedMarket } from './change-log';
import type { OutcomeKey } from '../domain';

// Webhooks and their deliveries (docs/webhooks.md). API processes manage webhooks and store test
// events; the ingesting process evaluates the change log into deliveries and sends them. Every
// delivery is a row before anything is sent, so a restart loses none.

/** A webhook row as the service uses it. */
export interface WebhookRow {
  id: number;
  keyId: string;
  url: string;
  description: string | null;
  secret: string;
  predicate: Record<string, unknown>;
  enabled: boolean;
  createdAt: Date;
}

export interface DeliveryRow {
  id: bigint;
  webhookId: number;
  messageId: string;
  eventKey: string;
  eventType: string;
  payload: unknown;
  status: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: Date;
  createdAt: Date;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
}

/** A delivery to store: the event (`eventKey` unique per webhook), its id and body. */
export interface NewDelivery {
  webhookId: number;
  messageId: string;
  eventKey: string;
  eventType: string;
  payload: Prisma.InputJsonValue;
}

const asRow = (w: { predicate: unknown } & Omit<WebhookRow, 'predicate'>): WebhookRow => ({ ...w, predicate: w.predicate as Record<string, unknown> });

/**
 * Creates a webhook unless its key already holds `max`. The key's row is locked (FOR UPDATE) for the
 * transaction, so concurrent creations for one key count and insert one after another, and the cap
 * holds however many arrive at once (a count then an insert outside a lock would let them all in).
 * @returns null when the key is at the cap: nothing written
 */
export async function createWebhookWithinCap(
  prisma: PrismaClient,
  max: number,
  input: { keyId: string; url: string; description: string | null; secret: string; predicate: Prisma.InputJsonValue; enabled: boolean; createdAt: Date },
): Promise<WebhookRow | null> {
  return prisma.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM "ApiKey" WHERE "id" = ${input.keyId} FOR UPDATE`;
      if ((await tx.webhook.count({ where: { keyId: input.keyId } })) >= max) return null;
      return asRow(await tx.webhook.create({ data: input }));
    },
    // Creations of one key wait for each other: a burst queues rather than failing on Prisma's 2 s / 5 s defaults.
    { maxWait: 30_000, timeout: 30_000 },
  );
}

/** The key's webhooks, oldest first. */
export async function listWebhooks(prisma: PrismaClient, keyId: string): Promise<WebhookRow[]> {
  return (await prisma.webhook.findMany({ where: { keyId }, orderBy: { id: 'asc' } })).map(asRow);
}

/** One of the key's webhooks, or null (another key's webhook is null too). */
export async function findWebhook(prisma: PrismaClient, keyId: string, id: number): Promise<WebhookRow | null> {
  const row = await prisma.webhook.findFirst({ where: { id, keyId } });
  return row && asRow(row);
}

/** Changes the fields given of one of the key's webhooks; null when it is not the key's. */
export async function updateWebhook(
  prisma: PrismaClient,
  keyId: string,
  id: number,
  changes: { url?: string; description?: string | null; predicate?: Prisma.InputJsonValue; enabled?: boolean },
): Promise<WebhookRow | null> {
  const { count } = await prisma.webhook.updateMany({ where: { id, keyId }, data: changes });
  return count ? findWebhook(prisma, keyId, id) : null;
}

/** Deletes one of the key's webhooks and its delivery log; false when it is not the key's. */
export async function deleteWebhook(prisma: PrismaClient, keyId: string, id: number): Promise<boolean> {
  const { count } = await prisma.webhook.deleteMany({ where: { id, keyId } });
  return count > 0;
}

/** A page of a webhook's delivery log, newest first, and how many deliveries it holds. */
export async function listDeliveries(prisma: PrismaClient, webhookId: number, limit: number, offset: number): Promise<{ items: DeliveryRow[]; total: number }> {
  const [items, total] = await Promise.all([
    prisma.webhookDelivery.findMany({ where: { webhookId }, orderBy: { id: 'desc' }, take: limit, skip: offset }),
    prisma.webhookDelivery.count({ where: { webhookId } }),
  ]);
  return { items, total };
}

/** Stores one delivery due now (the test event of POST .../test). */
export async function insertDelivery(prisma: PrismaClient, delivery: NewDelivery, now: Date): Promise<DeliveryRow> {
  return prisma.webhookDelivery.create({ data: { ...delivery, status: 'pending', nextAttemptAt: now, createdAt: now } });
}

// ---- Evaluation (ingesting process) ----

/** A change log entry as the evaluation reads it. */
export interface ChangeEntry {
  version: bigint;
  seenAt: Date;
  recordedAt: Date;
  games: number[];
  markets: ChangedMarket[];
}

/**
 * The evaluation cursor: the last change log version whose deliveries are stored. On first use it
 * starts at the current ingest counter, so a new installation does not alert on the log's past, and
 * the statuses of the games already stored are recorded, so their next change is one.
 */
export async function readCursor(prisma: PrismaClient): Promise<bigint> {
  const row = await prisma.webhookCursor.findUnique({ where: { id: 1 } });
  if (row) return row.version;
  await prisma.$transaction([
    prisma.$executeRaw`INSERT INTO "WebhookCursor" ("id", "version") SELECT 1, COALESCE((SELECT "version" FROM "IngestState" WHERE "id" = 1), 0) ON CONFLICT ("id") DO NOTHING`,
    prisma.$executeRaw`INSERT INTO "WebhookGameStatus" ("gameId", "status") SELECT "id", "status" FROM "Game" ON CONFLICT ("gameId") DO NOTHING`,
  ]);
  return (await prisma.webhookCursor.findUnique({ where: { id: 1 } }))!.version;
}

/** Change log entries after `after`, oldest first, at most `limit`. */
export async function changesAfter(prisma: PrismaClient, after: bigint, limit: number): Promise<ChangeEntry[]> {
  const rows = await prisma.changeLog.findMany({ where: { version: { gt: after } }, orderBy: { version: 'asc' }, take: limit });
  return rows.map((r) => ({ version: r.version, seenAt: r.seenAt, recordedAt: r.recordedAt, games: r.games, markets: r.markets as unknown as ChangedMarket[] }));
}

/**
 * Enabled webhooks whose key may still use them: not revoked, of an active Pro or Elite account
 * whose subscription has not ended. A key that loses the right keeps its webhooks, which stay quiet.
 */
export async function activeWebhooks(prisma: PrismaClient, now: Date): Promise<WebhookRow[]> {
  const rows = await prisma.webhook.findMany({
    where: {
      enabled: true,
      key: {
        revokedAt: null,
        account: { plan: { in: ['pro', 'elite'] }, subscriptionStatus: 'active', OR: [{ subscriptionEndsAt: null }, { subscriptionEndsAt: { gt: now } }] },
      },
    },
    orderBy: { id: 'asc' },
  });
  return rows.map(asRow);
}

/** The current status of games. */
export async function gameStatuses(prisma: PrismaClient, gameIds: readonly number[]): Promise<Map<number, string>> {
  if (!gameIds.length) return new Map();
  const rows = await prisma.game.findMany({ where: { id: { in: [...gameIds] } }, select: { id: true, status: true } });
  return new Map(rows.map((r) => [r.id, r.status]));
}

/** The status each game had when the evaluation last looked. */
export async function seenGameStatuses(prisma: PrismaClient, gameIds: readonly number[]): Promise<Map<number, string>> {
  if (!gameIds.length) return new Map();
  const rows = await prisma.webhookGameStatus.findMany({ where: { gameId: { in: [...gameIds] } } });
  return new Map(rows.map((r) => [r.gameId, r.status]));
}

/** A price change of one outcome: the history row written at a capture and the one before it. */
export interface PriceMove extends OutcomeKey {
  point: number | null;
  american: number;
  previousPoint: number | null;
  previousAmerican: number;
  seenAt: Date;
}

/**
 * The outcomes of the (game, market, book) keys whose price or point changed at the capture seen at
 * `seenAt`, each with its previous price (history rows are written only on a change, so the row
 * before is the previous value). Outcomes first seen at that capture have no previous row and are
 * left out.
 */
export async function priceMovesAt(prisma: PrismaClient, seenAt: Date, markets: readonly ChangedMarket[]): Promise<PriceMove[]> {
  if (!markets.length) return [];
  const rows = await prisma.$queryRaw<Array<PriceMove & { previousAmerican: number | null }>>`
    WITH keys AS (SELECT DISTINCT * FROM jsonb_to_recordset(${JSON.stringify(markets)}::jsonb) AS k("gameId" int, "marketType" text, "bookId" int)),
    now_rows AS (
      SELECT h.* FROM keys k JOIN "OddsHistory" h ON h."gameId" = k."gameId" AND h."bookId" = k."bookId" AND h."marketType" = k."marketType"
      WHERE h."seenAt" = ${seenAt}
    )
    SELECT n."gameId", n."bookId", n."marketType", n."period", n."side", n."isLive", n."point", n."american", n."seenAt",
           p."point" AS "previousPoint", p."american" AS "previousAmerican"
    FROM now_rows n
    JOIN LATERAL (
      SELECT o."point", o."american" FROM "OddsHistory" o
      WHERE o."gameId" = n."gameId" AND o."bookId" = n."bookId" AND o."marketType" = n."marketType" AND o."period" = n."period"
        AND o."side" = n."side" AND o."isLive" = n."isLive" AND o."playerId" = n."playerId" AND o."lineKey" = n."lineKey" AND (o."seenAt", o."id") < (n."seenAt", n."id")
      ORDER BY o."seenAt" DESC, o."id" DESC LIMIT 1
    ) p ON true
    ORDER BY n."gameId", n."bookId", n."marketType", n."period", n."side", n."isLive"`;
  return rows.map((r) => ({ ...r, previousAmerican: r.previousAmerican ?? r.american }));
}

/**
 * Time budget of an evaluation's storing transaction. Prisma's default (5 s) expired on a loaded
 * machine while a batch of a busy feed (1,633 deliveries) was written: the round failed, the next one
 * wrote the same batch again, and nothing was ever sent. The transaction's work is bounded by the
 * batch, so it may take longer; it holds only the cursor's row, which no one else waits for.
 */
const STORE_TRANSACTION = { maxWait: 10_000, timeout: 60_000 };

/**
 * Stores the deliveries of the versions up to `to`, the statuses seen, and moves the cursor from
 * `from` to `to`, in one transaction: a crash before the commit leaves the cursor where it was and
 * the evaluation runs again, and the unique (webhook, event key) makes that run store nothing twice.
 * @returns false when the cursor was no longer at `from` (another evaluator moved it): nothing written
 */
export async function storeEvaluation(
  prisma: PrismaClient,
  input: { from: bigint; to: bigint; deliveries: readonly NewDelivery[]; statuses: ReadonlyMap<number, string>; now: Date },
): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const moved = await tx.webhookCursor.updateMany({ where: { id: 1, version: input.from }, data: { version: input.to } });
    if (moved.count !== 1) return false;
    if (input.deliveries.length) {
      await tx.webhookDelivery.createMany({
        data: input.deliveries.map((d) => ({ ...d, status: 'pending', nextAttemptAt: input.now })),
        skipDuplicates: true,
      });
    }
    if (input.statuses.size) {
      const ids = [...input.statuses.keys()];
      const statuses = ids.map((id) => input.statuses.get(id)!);
      await tx.$executeRaw`
        INSERT INTO "WebhookGameStatus" ("gameId", "status") SELECT * FROM unnest(${ids}::int[], ${statuses}::text[])
        ON CONFLICT ("gameId") DO UPDATE SET "status" = EXCLUDED."status"`;
    }
    return true;
  }, STORE_TRANSACTION);
}

// ---- Signals (steam, reverse line movement: src/webhooks/evaluate.ts) ----

/** Row of WebhookCursor that holds the last LineSignal id evaluated (row 1 is the change log's). */
const SIGNAL_CURSOR = 2;

/**
 * The signals cursor: the last LineSignal id whose deliveries are stored. Signals are rows of their
 * own table (src/db/signal-repository.ts), numbered apart from the change log, so they get a cursor of their
 * own beside the change log's. On first use it starts after the signals already stored, so a new installation does not
 * alert on the past.
 */
export async function readSignalCursor(prisma: PrismaClient): Promise<bigint> {
  const row = await prisma.webhookCursor.findUnique({ where: { id: SIGNAL_CURSOR } });
  if (row) return row.version;
  await prisma.$executeRaw`INSERT INTO "WebhookCursor" ("id", "version") SELECT ${SIGNAL_CURSOR}, COALESCE((SELECT MAX("id") FROM "LineSignal"), 0) ON CONFLICT ("id") DO NOTHING`;
  return (await prisma.webhookCursor.findUnique({ where: { id: SIGNAL_CURSOR } }))!.version;
}

/** Steam and RLM signals stored after the LineSignal id `after`, oldest first, at most `limit`, each with the commit time of its capture. */
export async function signalsAfter(prisma: PrismaClient, after: bigint, limit: number) {
  const rows = await prisma.lineSignal.findMany({ where: { id: { gt: after } }, orderBy: { id: 'asc' }, take: limit });
  if (!rows.length) return { rows: [], last: after, committedAt: new Map<number, Date>() };
  // The commit time of the capture that showed each signal: webhooks registered later do not get it.
  const seen = [...new Set(rows.map((r) => r.detectedAt.getTime()))].map((t) => new Date(t));
  const entries = await prisma.changeLog.groupBy({ by: ['seenAt'], where: { seenAt: { in: seen } }, _max: { recordedAt: true } });
  const committedAt = new Map(entries.map((e) => [e.seenAt.getTime(), e._max.recordedAt!]));
  return { rows: rows.filter((r) => r.kind === 'steam' || r.kind === 'reverse_line_movement'), last: rows.at(-1)!.id, committedAt };
}

/**
 * Stores the deliveries of the signals up to `to` and moves the signals cursor from `from` to `to` in
 * one transaction (as storeEvaluation). @returns false when another evaluator moved the cursor first
 */
export async function storeSignalEvaluation(prisma: PrismaClient, input: { from: bigint; to: bigint; deliveries: readonly NewDelivery[]; now: Date }): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const moved = await tx.webhookCursor.updateMany({ where: { id: SIGNAL_CURSOR, version: input.from }, data: { version: input.to } });
    if (moved.count !== 1) return false;
    if (input.deliveries.length) {
      await tx.webhookDelivery.createMany({ data: input.deliveries.map((d) => ({ ...d, status: 'pending', nextAttemptAt: input.now })), skipDuplicates: true });
    }
    return true;
  }, STORE_TRANSACTION);
}

// ---- Sending (ingesting process) ----

/** A due delivery with what sending it needs. */
export type DueDelivery = DeliveryRow & { url: string; secret: string };

/**
 * Takes up to `limit` pending deliveries due at `now`, oldest first, and leases them until
 * `leaseUntil` (their next attempt time moves there), so a second sender, or this one's next round,
 * does not send them again while an attempt is under way. A sender that dies mid-attempt leaves the
 * delivery pending: it is tried again when the lease ends.
 */
export async function claimDueDeliveries(prisma: PrismaClient, now: Date, leaseUntil: Date, limit: number): Promise<DueDelivery[]> {
  const rows = await prisma.$queryRaw<DeliveryRow[]>`
    UPDATE "WebhookDelivery" d SET "nextAttemptAt" = ${leaseUntil}
    WHERE d."id" IN (
      SELECT "id" FROM "WebhookDelivery" WHERE "status" = 'pending' AND "nextAttemptAt" <= ${now}
      ORDER BY "nextAttemptAt", "id" LIMIT ${limit} FOR UPDATE SKIP LOCKED
    )
    RETURNING d.*`;
  if (!rows.length) return [];
  const hooks = await prisma.webhook.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.webhookId))] } }, select: { id: true, url: true, secret: true } });
  const byId = new Map(hooks.map((h) => [h.id, h]));
  return rows.flatMap((r) => {
    const hook = byId.get(r.webhookId);
    return hook ? [{ ...r, url: hook.url, secret: hook.secret }] : [];
  });
}

/** Records an attempt: delivered, pending again at `nextAttemptAt`, or failed for good. */
export async function recordAttempt(
  prisma: PrismaClient,
  id: bigint,
  outcome: { status: 'delivered' | 'pending' | 'failed'; httpStatus: number | null; error: string | null; at: Date; nextAttemptAt?: Date },
): Promise<void> {
  await prisma.webhookDelivery.update({
    where: { id },
    data: {
      status: outcome.status,
      attempts: { increment: 1 },
      lastStatus: outcome.httpStatus,
      lastError: outcome.error,
      lastAttemptAt: outcome.at,
      ...(outcome.status === 'delivered' && { deliveredAt: outcome.at }),
      ...(outcome.nextAttemptAt && { nextAttemptAt: outcome.nextAttemptAt }),
    },
  });
}

/** The earliest time a pending delivery is due, or null when none is pending. */
export async function nextDueAt(prisma: PrismaClient): Promise<Date | null> {
  const row = await prisma.webhookDelivery.findFirst({ where: { status: 'pending' }, orderBy: { nextAttemptAt: 'asc' }, select: { nextAttemptAt: true } });
  return row?.nextAttemptAt ?? null;
}

/** How long delivered and failed deliveries stay in the log. */
export const DELIVERY_LOG_RETENTION_MS = 30 * 86_400_000;

/** Drops delivered and failed deliveries stored before `now` - DELIVERY_LOG_RETENTION_MS; pending ones stay. */
export async function pruneDeliveryLog(prisma: PrismaClient, now: Date): Promise<number> {
  const { count } = await prisma.webhookDelivery.deleteMany({
    where: { status: { in: ['delivered', 'failed'] }, createdAt: { lt: new Date(now.getTime() - DELIVERY_LOG_RETENTION_MS) } },
  });
  return count;
}
