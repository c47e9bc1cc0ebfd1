import { groupStatement, type GroupStatement } from './capture-group';
import { pipelinedQueryOf, rawQueryOf, type PrismaClient, type RawQuery } from '../../db/client';
import { diffDocument, type Capture } from './feed-diff';
import type { NormalizedDocument } from '../feed-rows';
import { storedSignals, type StoredSignal } from '../../db/signal-repository';
import { forgetSignals } from '../signals';
import { loadState, states, type State } from './feed-state';

// Writing captures in order, whole: each diffed by feed-diff.ts (against the memory of feed-state.ts),
// written alone or with the captures held after it in one statement (capture-group.ts, in the form of
// src/db/capture-statement.ts), sent here.

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
  /** Sends its statement now if it is held (startDocument's `hold`), with the captures held with it. */
  send(): void;
}

/**
 * How many captures of a recorded series one statement writes at most (startDocument's `hold`). On
 * the 128 captures of 2026-01-24, grouped by eight, the database writes ~half the quote and
 * public-betting rows (a row several captures change is written once) in 16 statements instead of 128.
 */
export const CAPTURES_PER_STATEMENT = 8;

/** Consecutive captures whose statement is one: held until sent, then its outcome. */
interface Group {
  captures: Capture[];
  /** The capture started before the group's first. */
  previous: Promise<unknown>;
  /** Each capture's changes once the statement committed; null when it wrote nothing (counter not the one expected). */
  outcome: Promise<ChangeSet[] | null>;
  start(outcome: Promise<ChangeSet[] | null>): void;
}

/** Per database client: the last capture started, the memory it was diffed against, whether it failed, and the held group. */
interface Queue {
  last: Promise<unknown>;
  /** The memory the last capture was diffed against: another one now means memory was reloaded since. */
  lastState: State | undefined;
  /** `last` settled with an error: the next capture does not inherit it (see startDocument). */
  lastFailed: boolean;
  /** Captures diffed but not sent yet (startDocument's `hold`). */
  held: Group | undefined;
}
const queues = new WeakMap<PrismaClient, Queue>();

/**
 * storeDocument in two steps, so that a caller can compare the next document with memory while the
 * previous capture's statement runs: resolves once `doc` is diffed (memory then holds it), with its
 * statement queued. Statements run one at a time, in the order the captures were started, so every
 * capture stays whole, in order. With `hold`, the capture waits to be written with the captures held
 * after it, up to CAPTURES_PER_STATEMENT in one statement (one transaction; capture-group.ts), until
 * a capture is started without `hold`, one sweeps (written alone), or `send()`: a caller that holds
 * sends before it awaits `done`. The diff assumes the captures before it commit; if one finds another
 * writer, memory was dropped and this capture is diffed again from the database. If one fails, the
 * captures queued behind it fail with its error (they were diffed assuming it commits, and committing
 * them would leave a hole in the history); a capture started once that failure has settled starts
 * afresh from the database, so a poller's ingest goes on after a failed statement (a database
 * restart, say) instead of failing every capture after it. A capture that runs the lost-game sweep
 * is not waited for: the diff applies the sweep to memory (sweepMemory), and a game memory does not
 * hold is read once the captures before have committed (loadGames).
 */
export async function startDocument(prisma: PrismaClient, doc: NormalizedDocument, seenAt: Date, options: { hold?: boolean } = {}): Promise<StartedCapture> {
  let queue = queues.get(prisma);
  if (!queue) queues.set(prisma, (queue = { last: Promise.resolve(), lastState: undefined, lastFailed: false, held: undefined }));
  const previous = queue.lastFailed ? Promise.resolve() : queue.last;
  /** The captures before have committed (those held are sent first). */
  const settled = () => {
    sendHeld(prisma);
    return previous.catch(() => {});
  };
  // Without memory, it is (re)loaded once the captures before have committed: it starts from the
  // counter. Memory reloaded since the capture before was diffed holds a capture that is being written
  // again (writeAgain), and maybe not yet those queued after it: this one waits for them all, so that
  // it is diffed after them and commits after them.
  if (!states.get(prisma) || states.get(prisma) !== queue.lastState) await settled();
  const state = states.get(prisma);
  let capture: Capture | null = null;
  if (state) {
    try {
      capture = await diffDocument(prisma, state, doc, seenAt, settled);
    } catch (error) {
      states.delete(prisma);
      throw error;
    }
  }
  let group: Group | undefined;
  let index = 0;
  if (capture) {
    if (capture.sweep) sendHeld(prisma);
    group = queue.held ??= newGroup(previous);
    index = group.captures.push(capture) - 1;
    if (!options.hold || capture.sweep || group.captures.length >= CAPTURES_PER_STATEMENT) sendHeld(prisma);
  }
  const done = (async () => {
    const changes = group ? await group.outcome : null;
    if (changes) return changes[index]!;
    // Not written (no memory, or its statement found the counter moved): written again, after the capture before it.
    await previous;
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
  return {
    done,
    send: () => {
      if (group && queue.held === group) sendHeld(prisma);
    },
  };
}

function newGroup(previous: Promise<unknown>): Group {
  let start!: Group['start'];
  const outcome = new Promise<ChangeSet[] | null>((resolve) => (start = resolve));
  outcome.catch(() => {});
  return { captures: [], previous, outcome, start };
}

/**
 * Sends the held group's statement: with a pipelined connection at once, behind the statements of the
 * captures before it, whose answers are not awaited (PostgreSQL runs them back to back, in order). It
 * assumed they commit; if one does not, its own check of the ingest counter fails and it writes
 * nothing: its captures are then written again, one by one.
 */
function sendHeld(prisma: PrismaClient): void {
  const queue = queues.get(prisma);
  const group = queue?.held;
  if (!queue || !group) return;
  queue.held = undefined;
  const { captures } = group;
  const statement = groupStatement(captures);
  const pipelined = pipelinedQueryOf(prisma);
  const sent = pipelined ? sendGroup(prisma, captures, statement, pipelined) : undefined;
  sent?.catch(() => {});
  group.start(
    (async () => {
      await group.previous;
      if (states.get(prisma) === captures[0]!.state) {
        try {
          const changes = await (sent ?? sendGroup(prisma, captures, statement));
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
      return null;
    })(),
  );
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
      const capture = await diffDocument(prisma, state, doc, seenAt);
      const changes = await sendGroup(prisma, [capture], groupStatement([capture]));
      if (changes) return changes[0]!;
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
 * Sends a group's statement (on `raw`, else the direct path, else Prisma): each capture's changes, or
 * null when the ingest counter was not the one expected: another writer, or a capture before it not
 * committed (nothing was written).
 */
async function sendGroup(prisma: PrismaClient, captures: readonly Capture[], statement: GroupStatement, raw: RawQuery | undefined = rawQueryOf(prisma)): Promise<ChangeSet[] | null> {
  type Result = { version: bigint | string; ok: boolean; lost?: number[]; signals?: unknown };
  const [result] = raw ? ((await raw(statement.text, statement.params)) as Result[]) : await prisma.$queryRawUnsafe<Result[]>(statement.text, ...statement.params);
  if (!result?.ok) return null;
  const signals = captures.map((): StoredSignal[] => []);
  for (const signal of storedSignals(result.signals)) signals[statement.signalOwners.get(signal.key) ?? captures.length - 1]!.push(signal);
  return captures.map((capture, i) => {
    const { changedGames, changedMarkets } = capture;
    // The games the sweep marked (memory holds the change since the diff): announced with the capture.
    if (capture.sweep) for (const id of result.lost ?? []) changedGames.add(Number(id));
    return { games: [...changedGames], markets: [...changedMarkets.values()], quotesChanged: capture.quotesChanged, historyRows: capture.historyRows, version: Number(capture.version), signals: signals[i]! };
  });
}
