import type { PrismaClient } from '../db/client';
import { entriesOf, storeDelta, type ChangeLogEntry } from '../db/change-log';
import { gameStates, readConsistently } from '../db/live-repository';
import type { LiveTick } from '../events/live-feed';
import { isPropMarket, LIVE_STATUSES } from '../domain';
import { changeInScope, changeWithWholeGames, keysTick, playingGames, readTickChanges, type LiveOddsChange, type TickChanges } from './live-deltas';

// The delta of each change-log entry, decided once (docs/live-protocol.md, "One truth per seq"):
// what one committed ingest changed for the live state, unfiltered, in the wire's snake_case. The
// ingesting process decides it right after the commit, before it announces the change on the bus
// (src/ingest/ingest.ts `afterCommit`, wired by its callers), and stores it with a compare-and-set;
// a process that needs the delta of an entry and finds none (the ingester died in between) decides
// it the same way and stores it the same way: the first writer wins, and every process, whenever it
// started, serves the stored one. Filtering it to a client's filter is a pure function
// (src/events/live-feed.ts `filterDelta`).

/** The unfiltered delta of one entry: the changed games being played or leaving play, and the displayed quotes. */
export type OddsDelta = Pick<LiveOddsChange, 'games' | 'quotes'>;

/** The scopes whose union is "everything pushed": the game markets, and the player props. */
const GAME_MARKETS = {};
const PLAYER_PROPS = { marketType: 'player_props' };

const isLive = (status: string) => LIVE_STATUSES.includes(status);

/**
 * Decides the delta of `entry` from the committed rows, read in one database snapshot: the games of
 * the entry that are being played or left play, the displayed quotes of its changed markets of games
 * being played (game markets and player props), and every quote of each game that started playing
 * with it (`entry.started`, recorded by the ingest): such a game comes whole. The rows are read as
 * they are now, which may be a later ingest's values (a group of captures commits at once); applying
 * a later value early changes nothing, since that later change has a delta of its own. An entry
 * with no game being played reads only its games' rows.
 */
export function decideDelta(prisma: PrismaClient, entry: Pick<ChangeLogEntry, 'games' | 'markets' | 'started' | 'seenAt'>): Promise<OddsDelta> {
  const tick: LiveTick = { ...keysTick(entry.games, entry.markets), seenAt: entry.seenAt };
  return readConsistently(prisma, async (db) => {
    const ids = [...new Set([...entry.games, ...entry.markets.map((m) => m.gameId)])];
    const states = await gameStates(db, ids);
    const games: TickChanges['games'] = new Map(states.map((g) => [g.id, g]));
    const live = new Set(states.filter((g) => isLive(g.status)).map((g) => g.id));
    if (!live.size) return changeInScope(tick, { games, quotes: [] }, GAME_MARKETS) ?? { games: [], quotes: [] };
    const liveTick: LiveTick = { ...tick, markets: tick.markets.filter((m) => live.has(m.gameId)) };
    const whole = playingGames({ games, quotes: [] }, entry.started, GAME_MARKETS);
    const ofGames = await changeWithWholeGames(db, liveTick, await readTickChanges(db, liveTick, false), GAME_MARKETS, whole);
    // Props are read only when the ingest changed some of a game being played, or a game came whole.
    const props = whole.length > 0 || liveTick.markets.some((m) => isPropMarket(m.marketType));
    const ofProps = props ? await changeWithWholeGames(db, liveTick, await readTickChanges(db, liveTick, true), PLAYER_PROPS, whole) : null;
    return { games: (ofGames ?? ofProps)?.games ?? [], quotes: [...(ofGames?.quotes ?? []), ...(ofProps?.quotes ?? [])] };
  });
}

/** The stored delta of `entry`, decided and stored first when it has none (first writer wins). */
export async function deltaOf(prisma: PrismaClient, entry: ChangeLogEntry): Promise<OddsDelta> {
  if (entry.delta !== null) return entry.delta as OddsDelta;
  return (await storeDelta(prisma, entry.version, await decideDelta(prisma, entry))) as OddsDelta;
}

/**
 * Decides and stores the deltas of the entries `versions` committed (the ingest's `afterCommit`): a
 * version without an entry (nothing changed) or whose delta is stored already costs one read.
 */
export async function storeDeltas(prisma: PrismaClient, versions: readonly number[]): Promise<void> {
  for (const entry of await entriesOf(prisma, versions)) await deltaOf(prisma, entry);
}
