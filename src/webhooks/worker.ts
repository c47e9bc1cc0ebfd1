import { nextAttemptAt, type RetryPolicy } from '../domain';
import type { WebhookConfig } from '../config';
import type { Database } from '../db/client';
import { claimDueDeliveries, pruneDeliveryLog, recordAttempt, type DueDelivery } from '../db/webhook-repository';
import type { EventBus } from '../events/bus';
import type { Logger } from '../logger';
import { evaluateChanges, evaluateSignals } from './evaluate';
import { sendWebhook } from './send';

// The webhook sender of the ingesting process (docs/webhooks.md): a loop that evaluates new change
// log entries into stored deliveries (evaluate.ts), then sends the deliveries that are due, each
// attempt recorded in the delivery log; a failure is tried again after an exponential backoff with
// full jitter until 24 hours after the event. Everything it needs is in the database, so a restart
// (or another process taking over ingest) picks up where it stopped. It wakes on every ingest the
// bus announces and every WEBHOOK_POLL_MS (test events come from API processes, retries fall due).

/** Deliveries sent at once per round. */
const CONCURRENCY = 16;

/** Evaluation batches (evaluate.ts) per round before the deliveries due are sent. */
const EVALUATIONS_PER_ROUND = 4;

/** How often the delivery log drops entries past its retention (30 days). */
const PRUNE_EVERY_MS = 3_600_000;

export type AttemptOutcome = 'delivered' | 'retry' | 'failed';

export interface WebhookWorkerDeps {
  db: Database;
  config: WebhookConfig;
  logger: Logger;
  /** Wakes the loop when an ingest commits (optional: the poll finds it anyway). */
  bus?: EventBus;
  /** Clock (default: the real one). */
  now?: () => Date;
  /** Told of each attempt's outcome (the app's metrics). */
  onAttempt?: (outcome: AttemptOutcome) => void;
  /** Uniform draws in [0, 1) of the backoff's jitter (default Math.random). */
  random?: () => number;
}

export interface WebhookWorker {
  /** Stops the loop; resolves once the round under way (and its attempts) has finished. */
  stop(): Promise<void>;
}

/** Starts the evaluate-and-send loop. Call it only in the process that ingests. */
export function startWebhookWorker(deps: WebhookWorkerDeps): WebhookWorker {
  const { db, config } = deps;
  const log = deps.logger.child({ component: 'webhooks' });
  const now = deps.now ?? (() => new Date());
  const random = deps.random ?? Math.random;
  const policy: RetryPolicy = { baseMs: config.retryBaseMs, capMs: config.retryMaxMs, windowMs: config.retryWindowMs };
  // An attempt under way keeps its delivery leased this long (then another round may try it again).
  const leaseMs = config.timeoutMs * 2 + 1000;

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let again = false;
  let round: Promise<void> | null = null;
  let prunedAt = 0;

  async function attempt(d: DueDelivery): Promise<void> {
    const at = now();
    // {type, timestamp, data} in that order (the JSON column keeps its own key order); the same bytes on every attempt.
    const { type, timestamp, data } = d.payload as { type: string; timestamp: string; data: unknown };
    const result = await sendWebhook(d.url, d.secret, d.messageId, JSON.stringify({ type, timestamp, data }), { timeoutMs: config.timeoutMs, allowPrivateTargets: config.allowPrivateTargets, now: at });
    const done = now();
    if (result.ok) {
      await recordAttempt(db.prisma, d.id, { status: 'delivered', httpStatus: result.status, error: null, at: done });
      deps.onAttempt?.('delivered');
      return;
    }
    const next = nextAttemptAt(d.createdAt, d.attempts + 1, done, policy, random());
    await recordAttempt(db.prisma, d.id, { status: next ? 'pending' : 'failed', httpStatus: result.status, error: result.error, at: done, ...(next && { nextAttemptAt: next }) });
    deps.onAttempt?.(next ? 'retry' : 'failed');
    log.info({ webhookId: d.webhookId, messageId: d.messageId, attempts: d.attempts + 1, status: result.status, error: result.detail ?? result.error, retry: Boolean(next) }, 'webhook delivery failed');
  }

  async function runRound(): Promise<void> {
    if (Date.now() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      await pruneDeliveryLog(db.prisma, now());
    }
    // New changes and signals (each with its own cursor) first: their deliveries are stored before
    // those due are sent. A few batches of each a round at most: while an ingest commits faster than
    // they are evaluated (a busy feed on a loaded machine), evaluating until the log is drained never
    // ended and nothing was ever sent. What is left is evaluated by the next round, which follows at once.
    for (const evaluate of [evaluateChanges, evaluateSignals]) {
      for (let batch = 0; !stopped && (await evaluate(db.prisma, now())) > 0; batch++) {
        if (batch + 1 >= EVALUATIONS_PER_ROUND) {
          again = true;
          break;
        }
      }
    }
    while (!stopped) {
      const at = now();
      const due = await claimDueDeliveries(db.prisma, at, new Date(at.getTime() + leaseMs), CONCURRENCY);
      if (!due.length) break;
      await Promise.all(due.map((d) => attempt(d).catch((err) => log.error({ err, messageId: d.messageId }, 'webhook attempt could not be recorded'))));
    }
  }

  function kick(): void {
    if (stopped) return;
    if (round) {
      again = true;
      return;
    }
    clearTimeout(timer);
    round = runRound()
      .catch((err) => log.warn({ err }, 'webhook round failed; retried at the next poll'))
      .finally(() => {
        round = null;
        if (stopped) return;
        if (again) {
          again = false;
          kick();
        } else {
          timer = setTimeout(kick, config.pollMs);
        }
      });
  }

  const unsubscribe = deps.bus?.subscribe('odds', () => kick());
  const unsubscribeSignals = deps.bus?.subscribe('signals', () => kick());
  kick();
  log.info({ pollMs: config.pollMs, allowPrivateTargets: config.allowPrivateTargets }, 'webhook sender started');

  return {
    async stop() {
      stopped = true;
      unsubscribe?.();
      unsubscribeSignals?.();
      clearTimeout(timer);
      await round;
    },
  };
}
