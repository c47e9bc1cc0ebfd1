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
// that ask for a snapshot at the same time; the spec's interval snapshot, one per group.

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
  /** Seq of the last delta sent to the room. */
  sent: number;
  /** The latest snapshot, reused while no delta was sent after it (cleared on each delta). */
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
      sent: 0,
      cached: null,
      waiting: [],
      reading: false,
      stop: () => {
        stopped = true;
        void iterator?.return?.();
      },
    };
    // Deltas published before the subscription starts reached nobody of this group: start after them.
    group.sent = streamOf(group).seq;
    void (async () => {
      const result = await subscribe({ schema: deps.schema, document: changesDocument, variableValues: changesVariables(liveOddsVariables(filter)), contextValue: contextFor(viewer) });
      if (!(Symbol.asyncIterator in result)) throw new Error(result.errors?.[0]?.message ?? 'live changes did not start');
      iterator = result[Symbol.asyncIterator]();
      if (stopped) return void iterator.return?.();
      for await (const item of { [Symbol.asyncIterator]: () => iterator! }) {
        if (stopped) break;
        const change = (item.data as { change: LiveOddsChange } | null)?.change;
        if (!change) continue;
        group.sent = change.seq;
        group.cached = null;
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
        if (group.sent <= snapshot.seq) group.cached = snapshot;
      }
      const waiting = group.waiting.splice(0).filter((w) => membership.get(w.socket.id)?.token === w.token);
      for (const reason of new Set(waiting.map((w) => w.reason))) {
        const ids = waiting.filter((w) => w.reason === reason).map((w) => w.socket.id);
        nsp.to(ids).emit('live_odds', { ...snapshot.payload, reason });
      }
      const missed = group.sent > snapshot.seq ? (streamOf(group).replay(snapshot.seq) ?? []).filter((c) => c.seq <= group.sent) : [];
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
    // A reconnect whose missed deltas are still held gets them instead of a snapshot.
    const resume = options.resume;
    if (resume && options.changes) {
      const stream = streamOf(group);
      const missed = resume.stream === stream.id ? stream.replay(resume.last_seq) : null;
      if (missed) return enter(socket, group, missed.filter((c) => c.seq <= group.sent));
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
        if (group.sent <= made.seq) group.cached = made;
        nsp.to(group.snapshots).emit('live_odds', made.payload);
        // Deltas sent during the read apply after this snapshot again (applying one twice changes nothing).
        if (group.sent > made.seq) {
          for (const change of (streamOf(group).replay(made.seq) ?? []).filter((c) => c.seq <= group.sent)) {
            nsp.to(group.changes).compress(false).emit('odds_change', change);
          }
        }
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
