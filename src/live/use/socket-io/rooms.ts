import { execute, subscribe, type ExecutionResult } from 'graphql';
import type { Viewer } from '../../../auth/viewer';
import { liveOddsVariables, loadOperations, variablesFor } from '../../../graphql';
import { filterStream, liveContext, type LiveDeps } from '../../core';
import type { LiveFilter, LiveRequest } from '../../filter';
import type { LiveOddsChange } from '../../protocol';
import { liveSnapshotDocument, snapshotPayload, type Snapshot } from '../../snapshot';
import type { LiveNamespace, LiveSocket } from './types';

// The rooms of /live-odds (index.ts): sockets with the same filter share a group, with one
// GraphQL subscription to liveOddsChanges whose deltas go to the group's room as `odds_change`
// (encoded once per room), and one snapshot read (GET /odds/live's selection) shared by the sockets
// that ask for a snapshot at the same time; the spec's interval snapshot, one per group. The deltas
// are every change-log entry, filtered (src/services/live-streams.ts): seq and base_seq are global, so
// a snapshot's seq is a position of the same sequence and a reconnect replays from the stored log.

/** Deltas a group keeps of those it sent (Group.recent): far more than arrive during one snapshot read. */
const RECENT = 256;

export interface RoomsDeps extends Pick<LiveDeps, 'schema' | 'db' | 'feed' | 'timeZone' | 'now' | 'onPush'> {
  nsp: LiveNamespace;
  onError?: (error: unknown) => void;
}

interface Group {
  /** Every member: gets live_odds snapshots. */
  snapshots: string;
  /** Members that did not opt out of deltas: get odds_change. */
  changes: string;
  members: Set<string>;
  filter: LiveFilter;
  viewer: Viewer;
  /**
   * The latest deltas sent to the room (at most RECENT), oldest first: what a socket that joins after
   * a snapshot or a replay read gets of the deltas sent meanwhile, before it is let in.
   */
  recent: LiveOddsChange[];
  /** The latest snapshot, reused while no non-empty delta was sent after it. */
  cached: Snapshot | null;
  /** Sockets waiting for a snapshot, and the read under way for them. */
  waiting: Array<{ socket: LiveSocket; reason: string; token: number }>;
  reading: boolean;
  stop: () => void;
}

/** The groups of one namespace: join, leave and resync sockets; `close` stops every subscription. */
export function createRooms(deps: RoomsDeps) {
  const { nsp } = deps;
  const snapshotDocument = liveSnapshotDocument(deps.schema);
  const changesDocument = loadOperations(deps.schema).get('LiveOddsChanges')!;
  // The filter's market_type is the spec's lower-case word; the operations take the enum value.
  const snapshotVariables = variablesFor(deps.schema, snapshotDocument);
  const changesVariables = variablesFor(deps.schema, changesDocument);
  const contextFor = (viewer: Viewer) => liveContext(deps, viewer);
  const streamOf = (group: Group) => filterStream(deps, group.filter);

  const groups = new Map<string, Group>();
  /** Per socket: the group it is in, and a token that changes on every subscribe/unsubscribe/resync. */
  const membership = new Map<string, { key: string | null; token: number; changes: boolean }>();

  const startGroup = (key: string, filter: LiveFilter, viewer: Viewer): Group => {
    let stopped = false;
    let iterator: AsyncIterator<ExecutionResult> | null = null;
    const group: Group = {
      snapshots: `snapshots:${key}`,
      changes: `changes:${key}`,
      members: new Set(),
      filter,
      viewer,
      recent: [],
      cached: null,
      waiting: [],
      reading: false,
      stop: () => {
        stopped = true;
        void iterator?.return?.();
      },
    };
    // The subscription listens from its first (synchronous) step: a snapshot whose position is read
    // after this (snapshotPosition) is followed by every delta above it.
    void (async () => {
      const result = await subscribe({ schema: deps.schema, document: changesDocument, variableValues: changesVariables(liveOddsVariables(filter)), contextValue: contextFor(viewer) });
      if (!(Symbol.asyncIterator in result)) throw new Error(result.errors?.[0]?.message ?? 'live changes did not start');
      iterator = result[Symbol.asyncIterator]();
      if (stopped) return void iterator.return?.();
      for await (const item of { [Symbol.asyncIterator]: () => iterator! }) {
        if (stopped) break;
        const change = (item.data as { change: LiveOddsChange } | null)?.change;
        if (!change) continue;
        group.recent.push(change);
        if (group.recent.length > RECENT) group.recent.shift();
        if (change.games.length || change.quotes.length) group.cached = null;
        // Small and sent often: compressing would cost more than it saves.
        nsp.to(group.changes).compress(false).emit('odds_change', change);
        deps.onPush?.(new Date(change.at));
      }
    })().catch((error) => {
      deps.onError?.(error);
      if (!stopped) nsp.to(group.snapshots).emit('live_odds', { success: false, error: 'internal error' });
    });
    return group;
  };

  /** Sends the group's waiting sockets one snapshot (one encoding per reason), then the deltas since, then lets them in. */
  const serveWaiting = async (group: Group) => {
    if (group.reading || !group.waiting.length) return;
    group.reading = true;
    try {
      let snapshot = group.cached;
      if (!snapshot) {
        const result = await execute({ schema: deps.schema, document: snapshotDocument, variableValues: snapshotVariables(liveOddsVariables(group.filter)), contextValue: contextFor(group.viewer) });
        const made = snapshotPayload(result, 'snapshot');
        if ('error' in made) {
          for (const w of group.waiting.splice(0)) w.socket.emit('live_odds', { success: false, error: made.error });
          return;
        }
        snapshot = made;
        group.cached = snapshot;
      }
      const missed = sentSince(group, snapshot.seq);
      if (!missed) {
        // More deltas went out during the read than the group keeps: read again.
        group.cached = null;
        return;
      }
      const waiting = group.waiting.splice(0).filter((w) => membership.get(w.socket.id)?.token === w.token);
      for (const reason of new Set(waiting.map((w) => w.reason))) {
        const ids = waiting.filter((w) => w.reason === reason).map((w) => w.socket.id);
        nsp.to(ids).emit('live_odds', { ...snapshot.payload, reason });
      }
      for (const w of waiting) enter(w.socket, group, missed);
    } catch (error) {
      deps.onError?.(error);
      for (const w of group.waiting.splice(0)) w.socket.emit('live_odds', { success: false, error: 'internal error' });
    } finally {
      group.reading = false;
      // Sockets that asked during the read get the next one.
      if (group.waiting.length) setImmediate(() => void serveWaiting(group));
    }
  };

  /**
   * The deltas the group sent after `seq` (a snapshot's position, or the last of a replay), or null
   * when it no longer keeps them all.
   */
  const sentSince = (group: Group, seq: number): LiveOddsChange[] | null => {
    const i = group.recent.findIndex((c) => c.seq > seq);
    if (i < 0) return [];
    if (i === 0 && group.recent[0]!.base_seq > seq) return null;
    return group.recent.slice(i);
  };

  /**
   * Replays the deltas after `lastSeq` from the stored log (src/services/live-streams.ts), then those
   * the group sent meanwhile, and lets the socket in; a snapshot (resync) when they cannot be replayed.
   */
  const resume = async (socket: LiveSocket, group: Group, lastSeq: number, token: number) => {
    let replayed: LiveOddsChange[] | null;
    try {
      replayed = await streamOf(group).replay(lastSeq);
    } catch (error) {
      deps.onError?.(error);
      replayed = null;
    }
    if (membership.get(socket.id)?.token !== token) return;
    const through = replayed?.at(-1)?.seq ?? lastSeq;
    const meanwhile = replayed ? sentSince(group, through) : null;
    if (!replayed || !meanwhile) {
      group.waiting.push({ socket, reason: 'resync', token });
      return void serveWaiting(group);
    }
    enter(socket, group, [...replayed, ...meanwhile]);
  };

  /** Lets a socket into its group's rooms after sending it the deltas it has not seen. */
  const enter = (socket: LiveSocket, group: Group, missed: readonly LiveOddsChange[]) => {
    const state = membership.get(socket.id);
    if (!state) return;
    if (state.changes) for (const change of missed) socket.compress(false).emit('odds_change', change);
    void socket.join(state.changes ? [group.snapshots, group.changes] : [group.snapshots]);
  };

  /** Takes a socket out of its group's rooms; `stay`: it is joining the same group again, keep the group. */
  const leave = (socket: LiveSocket, stay = false) => {
    const state = membership.get(socket.id);
    if (!state || state.key === null) return;
    const group = groups.get(state.key);
    state.token++;
    if (group) {
      void socket.leave(group.snapshots);
      void socket.leave(group.changes);
      if (stay) return;
      group.members.delete(socket.id);
      if (group.members.size === 0) {
        group.stop();
        groups.delete(state.key);
      }
    }
    state.key = null;
  };

  const join = (socket: LiveSocket, request: LiveRequest, reason = 'snapshot') => {
    const { filter, options } = request;
    const key = JSON.stringify([filter.game_id ?? null, filter.market_type ?? null, filter.book_id ?? null]);
    leave(socket, membership.get(socket.id)?.key === key);
    let group = groups.get(key);
    if (!group) {
      group = startGroup(key, filter, socket.data.viewer);
      groups.set(key, group);
    }
    group.members.add(socket.id);
    const state = membership.get(socket.id)!;
    state.key = key;
    state.changes = options.changes;
    const token = ++state.token;
    // A reconnect (to any process) whose missed deltas the log still holds gets them instead of a snapshot.
    const asked = options.resume;
    if (asked && options.changes) {
      if (asked.stream === streamOf(group).id) return void resume(socket, group, asked.last_seq, token);
      reason = 'resync';
    }
    group.waiting.push({ socket, reason, token });
    // Gathers the sockets that ask in the same turn of the event loop into one read and one encoding.
    setImmediate(() => void serveWaiting(group));
  };

  // The spec's snapshot about every 20 s, one read and one encoding per group.
  const stopInterval = deps.feed.onTick((tick) => {
    if (tick.reason !== 'interval') return;
    for (const group of groups.values()) {
      void (async () => {
        const result = await execute({ schema: deps.schema, document: snapshotDocument, variableValues: snapshotVariables(liveOddsVariables(group.filter)), contextValue: contextFor(group.viewer) });
        const made = snapshotPayload(result, 'interval');
        if ('error' in made) return nsp.to(group.snapshots).emit('live_odds', { success: false, error: made.error });
        group.cached = made;
        nsp.to(group.snapshots).emit('live_odds', made.payload);
        // Deltas sent during the read follow this snapshot again (applying one twice changes nothing);
        // if the group no longer keeps them all, its clients see a gap and resync.
        for (const change of sentSince(group, made.seq) ?? []) nsp.to(group.changes).compress(false).emit('odds_change', change);
      })().catch((error) => deps.onError?.(error));
    }
  });

  return {
    /** A socket arrived: it is in no group until join. */
    add(socket: LiveSocket) {
      membership.set(socket.id, { key: null, token: 0, changes: true });
    },
    /** A socket left: out of its group (stopped when it was the last). */
    remove(socket: LiveSocket) {
      leave(socket);
      membership.delete(socket.id);
    },
    join,
    leave,
    /** The filter `socket` is subscribed with, if any. */
    filterOf(socket: LiveSocket): LiveFilter | undefined {
      const state = membership.get(socket.id);
      return state?.key ? groups.get(state.key)?.filter : undefined;
    },
    /** A fresh snapshot for `socket` (reason resync), in its group. */
    resync(socket: LiveSocket) {
      const state = membership.get(socket.id);
      const group = state?.key ? groups.get(state.key) : undefined;
      if (group) join(socket, { filter: group.filter, options: { changes: state!.changes, resume: null } }, 'resync');
    },
    close() {
      stopInterval();
      for (const group of groups.values()) group.stop();
      groups.clear();
    },
  };
}
