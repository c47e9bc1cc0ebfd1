import type { PrismaClient } from '../db/client';
import { changeLogBounds, entriesAfter, latestEntryVersion, type ChangeLogEntry } from '../db/change-log';
import type { LiveFeed, LiveTick } from '../events/live-feed';
import type { ResyncReason } from '../domain';
import { deltaOf, type OddsDelta } from './change-deltas';

// The change feed of one process (docs/live-protocol.md): the stored change-log entries, each with
// its delta (change-deltas.ts), handed to every live stream of the process in version order. On each
// change tick of the live feed it reads the entries after the last one it handed out up to the
// tick's version, in one query shared by every stream; on any other tick (an interval, a `missed`
// event after a lost Redis subscription, a publisher that does not number its changes) up to the
// newest. So a bus message lost or reordered leaves no hole: the next read covers it. Replays of
// reconnecting clients read the same entries from the log (`replayAfter`), on any process; the
// feed shares one such read between the clients that resume from the same position (`replay`).

/** One entry as the streams get it: its version, the version of the entry before it, its time and unfiltered delta. */
export interface ChangeFeedEntry {
  version: number;
  previous: number;
  /** When the ingested document was seen. */
  at: Date;
  delta: OddsDelta;
}

/**
 * Most entries one replay sends (a Socket.IO or graphql-ws reconnect, an SSE resume): a client
 * further behind gets a resync snapshot instead, which is smaller. At one ingest every few seconds
 * that is an hour or more of changes; the log keeps 72 hours (change-log.ts).
 */
export const REPLAY_MAX_ENTRIES = 1000;

/** Entries read per query while catching up. */
const PAGE = 200;

/**
 * Most replay answers a feed keeps for sharing until it hands out its next entry (each holds up to
 * REPLAY_MAX_ENTRIES entries). A storm's clients hold the same few positions; more are read again.
 */
const SHARED_REPLAYS = 8;

export interface ChangeFeed {
  /** Resolves once the feed knows where it starts (the newest entry when it was made). */
  readonly ready: Promise<void>;
  /** Calls `listener` with every entry handed out from now on, in version order; returns unsubscribe. */
  onEntry(listener: (entry: ChangeFeedEntry) => void): () => void;
  /**
   * `replayAfter(after)` for a caller whose listener is already in (`onEntry`): every entry after the
   * last one it returns reaches that listener. Callers that ask for the same position share one read
   * while the feed hands out nothing new (a reconnect storm: the clients of a dead process all hold
   * the same newest seq, and each used to read the log on its own).
   */
  replay(after: number): Promise<ReplayResult>;
}

/** The entries after a position, or why they cannot be replayed. */
export type ReplayResult = { entries: ChangeFeedEntry[] } | { refused: ReplayRefusal };

const feeds = new WeakMap<LiveFeed, ChangeFeed>();

/** The change feed of `feed`'s process (made on first use, lives as long as the live feed). */
export function changeFeed(feed: LiveFeed, prisma: PrismaClient): ChangeFeed {
  let made = feeds.get(feed);
  if (!made) feeds.set(feed, (made = createChangeFeed(feed, prisma)));
  return made;
}

/** An entry with its stored delta (decided and stored first when it has none). */
async function withDelta(prisma: PrismaClient, entry: ChangeLogEntry): Promise<ChangeFeedEntry> {
  return { version: entry.version, previous: entry.previous, at: entry.seenAt, delta: await deltaOf(prisma, entry) };
}

function createChangeFeed(feed: LiveFeed, prisma: PrismaClient): ChangeFeed {
  const listeners = new Set<(entry: ChangeFeedEntry) => void>();
  /** The version of the last entry handed out. */
  let position = 0;
  /** Where the feed starts: the newest entry when it was made (read again after a failure). */
  let started: Promise<void> | null = null;
  const start = (): Promise<void> =>
    (started ??= latestEntryVersion(prisma).then(
      (version) => void (position = version),
      (error: unknown) => {
        started = null;
        throw error;
      },
    ));
  /** Replay reads shared by position, begun since the last entry was handed out (`replay`). */
  const replays = new Map<number, Promise<ReplayResult>>();
  // Reads run one after another, so entries leave in version order; a failed read leaves the
  // position where it was, and the next tick reads from there again.
  let chain: Promise<void> = start().catch(() => {});
  const pull = async (upTo: number | null) => {
    for (;;) {
      const entries = await entriesAfter(prisma, position, upTo, PAGE);
      for (const entry of entries) {
        const out = await withDelta(prisma, entry);
        position = entry.version;
        replays.clear(); // shared replays hold only while nothing new is handed out (below)
        for (const listener of [...listeners]) listener(out);
      }
      if (entries.length < PAGE) return;
    }
  };
  const onTick = (tick: LiveTick) => {
    const upTo = tick.reason === 'change' ? tick.version : null;
    chain = chain
      .then(start)
      .then(() => (upTo !== null && upTo <= position ? undefined : pull(upTo)))
      .catch(() => {});
  };
  feed.onTick(onTick);
  // Replays by position, good while no entry is handed out after each read began. Sharing is
  // sound for a caller whose listener came in before it asks: a read begun at position P returns at
  // least the entries up to P (they were in the log before P was handed out), and every entry after
  // P reaches the caller's listener, since none was handed out since. So nothing falls between the
  // two; an entry in both is dropped by its seq. Stored entries never change. A refusal is not kept
  // once read: `unknown_event_id` can turn false when the counter rises, before the feed moves.
  return {
    get ready() {
      return start();
    },
    onEntry(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    replay(after) {
      let read = replays.get(after);
      if (!read) {
        const begun = (read = replayAfter(prisma, after));
        if (replays.size >= SHARED_REPLAYS) replays.delete(replays.keys().next().value!);
        replays.set(after, begun);
        // A failed read or a refusal is not shared with later callers: they read again.
        const forget = () => void (replays.get(after) === begun && replays.delete(after));
        begun.then((result) => 'refused' in result && forget(), forget);
      }
      return read;
    },
  };
}

/** Why a replay cannot be given: the log no longer holds the entries, the position was never issued, or too many entries. */
export type ReplayRefusal = ResyncReason;

/**
 * The entries after `after` (a version a client holds: an entry's, or a snapshot's) up to the newest,
 * with their deltas, or why they cannot be replayed: `after` above the ingest counter (this database
 * never issued it), entries after it possibly pruned (it is older than the oldest entry kept), or
 * more than REPLAY_MAX_ENTRIES of them.
 */
export async function replayAfter(prisma: PrismaClient, after: number): Promise<ReplayResult> {
  const { oldest, counter } = await changeLogBounds(prisma);
  if (!Number.isSafeInteger(after) || after < 0 || after > counter) return { refused: 'unknown_event_id' };
  // Entries up to oldest - 1 may have been pruned: nothing between `after` and the oldest is known.
  if (after < counter && (oldest === null || after < oldest - 1)) return { refused: 'history_expired' };
  const entries = await entriesAfter(prisma, after, null, REPLAY_MAX_ENTRIES + 1);
  if (entries.length > REPLAY_MAX_ENTRIES) return { refused: 'too_many_changes' };
  const out: ChangeFeedEntry[] = [];
  for (const entry of entries) out.push(await withDelta(prisma, entry));
  return { entries: out };
}

/**
 * Where a snapshot read now applies: the newest entry's version, read after the process's change feed
 * knows where it starts (so every entry after it reaches the feed's listeners). Read it before the
 * snapshot's data: a delta above it is then sure to arrive, and one the data already has changes nothing.
 */
export async function snapshotPosition(feed: LiveFeed, prisma: PrismaClient): Promise<number> {
  await changeFeed(feed, prisma).ready;
  return latestEntryVersion(prisma);
}
