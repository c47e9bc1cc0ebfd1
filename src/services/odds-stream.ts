import type { PrismaClient } from '../db/client';
import { pushIterator, type LiveFeed, type LiveScope, type LiveTick } from '../events/live-feed';
import { changeFeed, snapshotPosition, type ReplayRefusal } from './change-feed';
import type { LiveOddsChange } from './live-deltas';
import { changeOf, GLOBAL_STREAM, liveStream } from './live-streams';

export { GLOBAL_STREAM } from './live-streams';

// The resumable odds stream (Subscription.oddsStream, served as Server-Sent Events by
// src/live/use/sse.ts; docs/live-protocol.md). Its events are the stored deltas of the change log
// (change-deltas.ts), filtered to the client's scope, as the other live streams send them
// (live-streams.ts), except that a delta empty in the scope is not sent: an event's id is the entry's
// version, and its base_seq the id of the previous event sent on the connection.
//
// Why a resuming client, on any process and after a restart, gets exactly what it would have got
// without leaving: the deltas are stored, one per entry, decided once; a resume after id n replays
// the stored entries after n one by one, filtered, skipping the empty ones and chaining base_seq
// from n, which is what an uncut connection sent after n. Past the log's retention or
// REPLAY_MAX_ENTRIES entries, it gets a resync snapshot with the reason.

export type OddsStreamResyncReason = ReplayRefusal;

/** Why a snapshot of the stream is read. */
export type OddsStreamSnapshotReason = 'snapshot' | 'interval' | 'resync';

/**
 * Reads the live snapshot of the stream's scope (the caller's: GraphQL reads it as Query.liveGames
 * does), at `tick` (an interval or resync tick, whose reads it may share) or, without one, now. The
 * snapshot's `games` must be the game rows it shows themselves (with their ids, no promises).
 */
export type ReadOddsSnapshot<S extends object> = (reason: OddsStreamSnapshotReason, tick: LiveTick | null) => Promise<S>;

/** One event of the stream (GraphQL OddsStreamEvent); `S` is the snapshot the reader gives. */
export type OddsStreamItem<S> =
  | { sequence: number; kind: 'snapshot'; snapshot: S & { stream: string; seq: number }; change: null; resyncReason: OddsStreamResyncReason | null }
  | { sequence: number; kind: 'change'; snapshot: null; change: LiveOddsChange; resyncReason: null };

/**
 * Parses a Last-Event-ID: a decimal integer the stream issued. Null for none (absent or empty).
 * @throws Error with a message for the client when it is not one
 */
export function parseLastEventId(raw: string | null | undefined): number | null {
  if (raw == null || raw.trim() === '') return null;
  const text = raw.trim();
  if (!/^\d{1,15}$/.test(text)) throw new Error('invalid parameter last_event_id: the Last-Event-ID must be the decimal id of an event of this stream');
  return Number(text);
}

/**
 * The events of the stream for `scope`: first a snapshot, or (with `lastEventId`) the stored deltas
 * after that event one by one (those non-empty in the scope), or a snapshot with the reason when they
 * cannot be replayed; then the delta of every change-log entry non-empty in the scope, and a snapshot
 * per interval tick. A failed read ends the stream with the error (the client reconnects with its
 * last event id and loses nothing).
 */
export function oddsStream<S extends object>(
  prisma: PrismaClient,
  feed: LiveFeed,
  scope: LiveScope,
  lastEventId: number | null,
  readSnapshot: ReadOddsSnapshot<S>,
): AsyncIterableIterator<OddsStreamItem<S>> {
  return pushIterator<OddsStreamItem<S>>((push, fail) => {
    let done = false;
    let failed = false;
    /** The id of the last event sent: the state the client holds, the base of the next delta. */
    let last = -1;
    /** Every entry up to this version is in what the client holds (sent, empty in its scope, or in a snapshot). */
    let through = -1;

    const send = (change: LiveOddsChange) => {
      if (done || change.seq <= through) return;
      through = change.seq;
      if (!change.games.length && !change.quotes.length) return;
      push({ sequence: change.seq, kind: 'change', snapshot: null, change: { ...change, base_seq: last }, resyncReason: null });
      last = change.seq;
    };

    const snapshot = async (reason: OddsStreamSnapshotReason, tick: LiveTick | null, resyncReason: OddsStreamResyncReason | null = null) => {
      // The position first: the snapshot read after it includes every change up to it (or later ones,
      // which their own delta then sends again; applying one twice changes nothing).
      const sequence = await snapshotPosition(feed, prisma);
      const live = await readSnapshot(reason, tick);
      if (done) return;
      through = Math.max(through, sequence);
      last = sequence;
      push({ sequence, kind: 'snapshot', snapshot: { ...live, stream: GLOBAL_STREAM, seq: sequence }, change: null, resyncReason });
    };

    const start = async () => {
      if (lastEventId === null) return snapshot('snapshot', null);
      // After the change feed's start (as snapshotPosition does): the replay then reaches at least
      // where the feed starts, and every entry after that reaches this stream's listener.
      const changes = changeFeed(feed, prisma);
      await changes.ready;
      const replayed = await changes.replay(lastEventId);
      if ('refused' in replayed) return snapshot('resync', null, replayed.refused);
      if (done) return;
      last = lastEventId;
      through = lastEventId;
      for (const entry of replayed.entries) send(changeOf(entry, scope));
    };

    // Deltas and interval ticks are queued from now on, behind the first read, so none falls between
    // the two: an entry the feed handed out before the listener was in was read before the first read,
    // which therefore covers it.
    const onError = (error: unknown) => {
      failed = true;
      fail(error);
    };
    const queue = (step: () => unknown) => {
      chain = chain.then(() => (failed || done ? undefined : step())).catch(onError);
    };
    let chain: Promise<unknown> = start().catch(onError);
    const stopChanges = liveStream(feed, prisma, scope).listen((change) => queue(() => send(change)));
    const stopTicks = feed.onTick((tick) => {
      if (tick.reason === 'interval') queue(() => snapshot('interval', tick));
    });
    return () => {
      done = true;
      stopTicks();
      stopChanges();
    };
  });
}
