import type { PrismaClient } from '../db/client';
import { changesSince, currentVersion } from '../db/change-log';
import { pushIterator, scopeWantsProps, type LiveFeed, type LiveScope, type LiveTick } from '../events/live-feed';
import { changeWithWholeGames, DeltaTracker, keysTick, playingGames, readTickChanges, type LiveOddsChange } from './live-deltas';

// The resumable odds stream (Subscription.oddsStream, served as Server-Sent Events by
// src/live/use/sse.ts; docs/live-protocol.md). Its deltas come from the one delta engine
// (live-deltas.ts), as those of the per-process streams of live-streams.ts; unlike them, its numbers are global: an event's sequence is the ingest counter value
// (IngestState.version) its data includes, so a client can resume on any API process, after a
// restart, from the stored change log (src/db/change-log.ts) instead of a window in memory.
//
// Why the state a resuming client reaches is the one it would have reached without leaving: a
// change with sequence s is in the log with its keys; a catch-up after n reads the current rows of
// every key logged after n, so each quote and game that changed since n arrives with its latest
// value, and one that did not change since n was already right in the client's state. One more
// rule keeps "the client holds every displayed quote of every game being played" true along the
// way, as a snapshot would: a game that the client does not hold yet (it started playing, or it is
// the first change after a catch-up) comes with all its quotes in the filter, not only the changed
// markets; a catch-up does the same for every game being played whose row changed since n.

/** The `stream` value of the stream's payloads: its seq numbers are global, not per process. */
export const GLOBAL_STREAM = 'global';

export type OddsStreamResyncReason = 'history_expired' | 'unknown_event_id';

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
 * The events of the stream for `scope`: first a snapshot, or (with `lastEventId`) the changes since
 * that event as one change, or a snapshot with the reason when they cannot be replayed; then a change
 * per change tick of the feed touching the scope, and a snapshot per interval tick. Ticks are handled
 * one after another in the order the feed gives them. A failed read ends the stream with the error
 * (the client reconnects with its last event id and loses nothing).
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
    /** The sequence of the last event sent: the state the client holds. */
    let last = -1;

    const emit = (item: OddsStreamItem<S>) => {
      last = item.sequence;
      push(item);
    };

    /** Live games the client holds all quotes of (in scope); others come whole on their next change. */
    const tracker = new DeltaTracker(scope);

    const snapshot = async (reason: OddsStreamSnapshotReason, tick: LiveTick | null, resyncReason: OddsStreamResyncReason | null = null) => {
      // The counter first: the snapshot read after it includes every change up to it (or later ones,
      // which their own change then sends again; applying one twice changes nothing).
      const sequence = await currentVersion(prisma);
      const live = await readSnapshot(reason, tick);
      if (done) return;
      // The reader returns the game rows themselves (no promises).
      tracker.holdOnly((live as unknown as { games: Array<{ id: number }> }).games.map((g) => g.id));
      emit({ sequence, kind: 'snapshot', snapshot: { ...live, stream: GLOBAL_STREAM, seq: sequence }, change: null, resyncReason });
    };

    const start = async () => {
      if (lastEventId === null) return snapshot('snapshot', null);
      const since = await changesSince(prisma, lastEventId);
      if (lastEventId > since.latest) return snapshot('resync', null, 'unknown_event_id');
      if (lastEventId === since.latest) {
        last = lastEventId;
        return;
      }
      // Entries up to oldest - 1 may have been pruned; without any entry nothing after the id is known.
      if (since.oldest === null || lastEventId < since.oldest - 1) return snapshot('resync', null, 'history_expired');
      const tick = keysTick(since.games, since.markets);
      const changes = await readTickChanges(prisma, tick, scopeWantsProps(scope));
      const inScope = (await changeWithWholeGames(prisma, tick, changes, scope, playingGames(changes, since.games, scope))) ?? { games: [], quotes: [] };
      if (done) return;
      tracker.holdOnly([]);
      tracker.sent(inScope);
      // Sent even when empty: it moves the client's last event id past changes outside its filter.
      emit({
        sequence: since.latest,
        kind: 'change',
        snapshot: null,
        change: { stream: GLOBAL_STREAM, seq: since.latest, base_seq: lastEventId, at: since.firstAt ?? new Date(), ...inScope },
        resyncReason: null,
      });
    };

    const onTick = async (tick: LiveTick) => {
      if (tick.reason === 'interval') return snapshot('interval', tick);
      // A publisher that does not number its changes: only a snapshot is sure to include them.
      if (tick.version === null) return snapshot('resync', tick);
      if (tick.version <= last) return; // the snapshot or catch-up already includes it
      const inScope = await tracker.next(prisma, tick);
      if (!inScope || done) return;
      emit({
        sequence: tick.version,
        kind: 'change',
        snapshot: null,
        change: { stream: GLOBAL_STREAM, seq: tick.version, base_seq: last, at: tick.seenAt ?? tick.at, ...inScope },
        resyncReason: null,
      });
    };

    // Ticks are queued from now on, behind the first read, so none falls between the two.
    const onError = (error: unknown) => {
      failed = true;
      fail(error);
    };
    let chain: Promise<void> = start().catch(onError);
    const stopTicks = feed.onTick((tick) => {
      chain = chain.then(() => (failed || done ? undefined : onTick(tick))).catch(onError);
    });
    return () => {
      done = true;
      stopTicks();
    };
  });
}
