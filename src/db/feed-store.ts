import { pipelinedQueryOf, rawQueryOf, type PrismaClient, type RawQuery } from './client';
import { diffDocument, type Capture } from './feed-diff';
import type { NormalizedDocument } from './feed-rows';
import { forgetSignals, storedSignals, type StoredSignal } from './signal-store';
import { loadState, states, type State } from './feed-state';

// Writing captures in order, one transaction each: the statement is built by feed-diff.ts (against
// the memory of feed-state.ts, in the form of capture-statement.ts) and sent here.

export { LOST_GAME_AFTER_MS, LOST_GAME_STATUS } from './feed-state';

/** What one stored document changed, for the summary line and the live event bus. */
export interface ChangeSet {
  /** Games whose row, boxscore or status changed. */
  games: number[];
  /** Quotes whose point or price changed (or that appeared): one entry per game, market and book. */
  markets: Array<{ gameId: number; marketType: string; bookId: number }>;
  quotesChanged: number;
  historyRows: number;
  /** The ingest counter's value this write committed: the global sequence of the change (change-log.ts). */
  version: number;
  /** The line-movement signals stored with it (new events, leaders whose followers changed). */
  signals: StoredSignal[];
}

/**
 * Writes one normalised document in one transaction, touching only what changed: a second write of
 * the same document changes nothing. A quote's point or price change appends a history row stamped
 * `seenAt`; a quote the document no longer carries, for a game it does carry, becomes unavailable.
 * A document older than what is stored does not overwrite it. The document is compared with the
 * rows this process keeps in memory, and everything it changes goes to the database in one statement
 * (CaptureStatement). A game still in progress that no document has carried for LOST_GAME_AFTER_MS
 * becomes LOST_GAME_STATUS.
 */
export async function storeDocument(prisma: PrismaClient, doc: NormalizedDocument, seenAt: Date): Promise<ChangeSet> {
  return (await startDocument(prisma, doc, seenAt)).done;
}

/** A document compared with memory, whose statement is queued behind the captures started before it. */
export interface StartedCapture {
  /** Settles once its statement has committed (or failed): in the order the captures were started. */
  readonly done: Promise<ChangeSet>;
}

/** Per database client: the last capture started, the memory it was diffed against, and whether it failed. */
interface Queue {
  last: Promise<unknown>;
  /** The memory the last capture was diffed against: another one now means memory was reloaded since. */
  lastState: State | undefined;
  /** `last` settled with an error: the next capture does not inherit it (see startDocument). */
  lastFailed: boolean;
}
const queues = new WeakMap<PrismaClient, Queue>();

/**
 * storeDocument in two steps, so that a caller can compare the next document with memory while the
 * previous capture's statement runs: resolves once `doc` is diffed (memory then holds it), with its
 * statement queued. Statements run one at a time, in the order the captures were started, so every
 * capture stays one transaction, in order. The diff assumes the captures before it commit; if one
 * finds another writer, memory was dropped and this capture is diffed again from the database. If
 * one fails, the captures queued behind it fail with its error (they were diffed assuming it
 * commits, and committing them would leave a hole in the history); a capture started once that
 * failure has settled starts afresh from the database, so a poller's ingest goes on after a failed
 * statement (a database restart, say) instead of failing every capture after it. A capture that runs
 * the lost-game sweep is not waited for: the diff applies the sweep to memory (sweepMemory), and a
 * game memory does not hold is read once the captures before have committed (loadGames).
 */
export async function startDocument(prisma: PrismaClient, doc: NormalizedDocument, seenAt: Date): Promise<StartedCapture> {
  let queue = queues.get(prisma);
  if (!queue) queues.set(prisma, (queue = { last: Promise.resolve(), lastState: undefined, lastFailed: false }));
  const previous = queue.lastFailed ? Promise.resolve() : queue.last;
  // Without memory, it is (re)loaded once the captures before have committed: it starts from the
  // counter. Memory reloaded since the capture before was diffed holds a capture that is being written
  // again (writeAgain), and maybe not yet those queued after it: this one waits for them all, so that
  // it is diffed after them and commits after them.
  if (!states.get(prisma) || states.get(prisma) !== queue.lastState) await previous.catch(() => {});
  const state = states.get(prisma);
  let capture: Capture | null = null;
  if (state) {
    try {
      capture = await diffDocument(prisma, state, doc, seenAt, () => previous.catch(() => {}));
    } catch (error) {
      states.delete(prisma);
      throw error;
    }
  }
  // With a pipelined connection the statement is sent now, behind those of the captures before it,
  // whose answers are not awaited: PostgreSQL runs them back to back, in order. It assumed they
  // commit; if one does not, its own check of the ingest counter fails and it writes nothing (below).
  const pipelined = capture ? pipelinedQueryOf(prisma) : undefined;
  const sent = capture && pipelined ? sendCapture(prisma, capture, pipelined) : undefined;
  sent?.catch(() => {});
  const done = (async () => {
    await previous;
    if (capture && states.get(prisma) === capture.state) {
      try {
        const changes = await (sent ?? sendCapture(prisma, capture));
        if (changes) return changes;
      } catch (error) {
        // Memory may hold rows that were never committed.
        states.delete(prisma);
        throw error;
      }
      states.delete(prisma);
    } else {
      // Sent against memory dropped since (a capture before it was refused): it wrote nothing.
      await sent?.catch(() => {});
    }
    return writeAgain(prisma, doc, seenAt);
  })();
  const own = queue;
  own.last = done;
  own.lastState = capture?.state;
  own.lastFailed = false;
  // Its failure is the caller's (who awaits `done`) and that of the captures queued behind it, not an
  // unhandled rejection; once settled, it is not passed on to captures started later.
  done.catch(() => {
    if (own.last === done) own.lastFailed = true;
  });
  return { done };
}

/** Loads memory from the database, diffs and sends; again while another process keeps writing in between. */
async function writeAgain(prisma: PrismaClient, doc: NormalizedDocument, seenAt: Date): Promise<ChangeSet> {
  for (let attempt = 0; ; attempt++) {
    try {
      let state = states.get(prisma);
      if (!state) {
        // Whatever memory missed (another writer, commits a crash of PostgreSQL lost) the signals' memory missed too.
        forgetSignals(prisma);
        state = await loadState(prisma);
        states.set(prisma, state);
      }
      const changes = await sendCapture(prisma, await diffDocument(prisma, state, doc, seenAt));
      if (changes) return changes;
      states.delete(prisma);
      if (attempt >= 20) throw new Error('ingest: the database kept changing under this process (another writer?)');
    } catch (error) {
      // Memory may hold rows that were never committed.
      states.delete(prisma);
      throw error;
    }
  }
}
/**
 * Sends a capture's statement (on `raw`, else the direct path, else Prisma); null when the ingest
 * counter was not the one expected: another writer, or a capture before it not committed (nothing
 * was written).
 */
async function sendCapture(prisma: PrismaClient, capture: Capture, raw: RawQuery | undefined = rawQueryOf(prisma)): Promise<ChangeSet | null> {
  const { changedGames, changedMarkets } = capture;
  type Result = { version: bigint | string; ok: boolean; lost?: number[]; signals?: unknown };
  const [result] = raw ? ((await raw(capture.text, capture.params)) as Result[]) : await prisma.$queryRawUnsafe<Result[]>(capture.text, ...capture.params);
  if (!result?.ok) return null;
  // The games the sweep marked (memory holds the change since the diff): announced with the capture.
  for (const id of result.lost ?? []) changedGames.add(Number(id));
  return { games: [...changedGames], markets: [...changedMarkets.values()], quotesChanged: capture.quotesChanged, historyRows: capture.historyRows, version: Number(result.version), signals: storedSignals(result.signals) };
}
