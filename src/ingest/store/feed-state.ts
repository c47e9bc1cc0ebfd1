import type { PrismaClient } from '../../db/client';
import { readFeedRows, readIngestStart } from '../../db/ingest-repository';
import { LIVE_STATUSES, LOST_GAME_AFTER_MS, LOST_GAME_DISPLAY, LOST_GAME_STATUS } from '../../domain';
import type { BoxscoreRow, GameRow, NormalizedDocument, PublicBettingRow, QuoteRow, TeamRow } from '../feed-rows';

// What this process keeps in memory of the feed tables (the state a capture is diffed against):
// its shape, how it is loaded from the database, and how it is trimmed.

/** How often (in feed time) the lost-game sweep runs: one cheap indexed statement. */
export const SWEEP_EVERY_MS = 5 * 60_000;
/** Games no document has carried for this long leave the in-memory state (it is reloaded on demand). */
export const FORGET_AFTER_MS = 2 * 86_400_000;

/** A stored quote as the in-memory state keeps it (times in epoch milliseconds). */
export interface QuoteState {
  row: QuoteRow;
  isAvailable: boolean;
  seenAt: number;
  changedAt: number;
  openPoint: number | null;
  openAmerican: number;
  openedAt: number;
  /** The source that last said this price (null on rows stored before sources were recorded). */
  source: string | null;
  /** The diff (State.diffs) of the last document that carried this quote: the others' quotes of a carried game are withdrawn. */
  carriedBy?: number;
}

export interface GameState {
  row: GameRow;
  updatedAt: number;
  seenAt: number;
  /** The game's current quotes, by quoteSlot. */
  quotes: Map<Slot, QuoteState>;
  /** The game's public-betting rows, by bettingSlot. */
  betting: Map<Slot, { row: PublicBettingRow; updatedAt: number }>;
}

/**
 * What this process last wrote (or read) of the feed tables, trusted while the ingest counter is the
 * one this process left: then no other process wrote in between, and a document is diffed against
 * memory instead of being read back. Any failure drops it; it is rebuilt from the database.
 */
export interface State {
  version: bigint;
  leagues: Map<number, { currentSeason: string; currentSeasonType: string; isActive: boolean }>;
  teams: Map<number, TeamRow>;
  games: Map<number, GameState>;
  boxscores: Map<number, { row: BoxscoreRow; updatedAt: number }>;
  /** Ids of the sportsbooks stored: a document's unlisted books are created once. */
  books: Set<number>;
  /** Games already matched, of every source with identities: `source|upstream id` to game id (src/ingest/store/game-identity.ts). */
  links: Map<string, number>;
  /** Players already matched: `league id|normalised name` to player id (src/ingest/store/players.ts). */
  players: Map<string, number>;
  lastSweep: number;
  /** Documents diffed so far: the stamp of the current diff (QuoteState.carriedBy). */
  diffs: number;
}

export const linkKey = (source: string, sourceId: string) => `${source}|${sourceId}`;

/** The upstream ids a game row names (`meta.source_ids`). */
export function sourceIdsOf(row: { meta: unknown }): Record<string, unknown> {
  const ids = (row.meta as { source_ids?: unknown } | null)?.source_ids;
  return ids && typeof ids === 'object' && !Array.isArray(ids) ? (ids as Record<string, unknown>) : {};
}

/** Remembers the links a game row names (Action Network's ids are numbers, The Odds API's strings). */
export function rememberLinks(state: State, row: { id: number; meta: unknown }): void {
  for (const [source, id] of Object.entries(sourceIdsOf(row))) {
    if (typeof id === 'string' || typeof id === 'number') state.links.set(linkKey(source, String(id)), row.id);
  }
}

export const states = new WeakMap<PrismaClient, State>();

/**
 * Where a quote or betting row sits among its game's (GameState.quotes, GameState.betting): a number
 * packing book, market, period, side and live flag, or, for a prop or an unusual value, text. Every
 * document's hundreds of rows are looked up by it: a number is hashed at once, where text built per
 * row was a quarter of the diff's CPU (a new string to hash for each lookup).
 */
export type Slot = number | string;

/** Small numbers for the few market, period and side names (interned as met; beyond the cap, slots are text). */
const names = new Map<string, number>();
const NAME_BITS = 8;
function nameNumber(name: string): number | undefined {
  let n = names.get(name);
  if (n === undefined && names.size < 1 << NAME_BITS) names.set(name, (n = names.size));
  return n;
}

function packedSlot(bookId: number, marketType: string, period: string, side: string, isLive: boolean): number | undefined {
  // Book ids are below 2^24 (The Odds API's derived ids: 7-8 million): 24 + 3 * 8 + 1 bits stay exact in a double.
  if (!Number.isInteger(bookId) || bookId < 0 || bookId >= 1 << 24) return undefined;
  const m = nameNumber(marketType);
  const p = nameNumber(period);
  const s = nameNumber(side);
  if (m === undefined || p === undefined || s === undefined) return undefined;
  return (((bookId * 256 + m) * 256 + p) * 256 + s) * 2 + (isLive ? 1 : 0);
}

export function quoteSlot(q: { bookId: number; marketType: string; period: string; side: string; isLive: boolean; playerId?: number; lineKey?: string }): Slot {
  const packed = q.playerId || q.lineKey ? undefined : packedSlot(q.bookId, q.marketType, q.period, q.side, q.isLive);
  return packed ?? `${q.bookId}|${q.marketType}|${q.period}|${q.side}|${q.isLive}|${q.playerId ?? 0}|${q.lineKey ?? ''}`;
}

export function bettingSlot(b: { bookId: number; marketType: string; period: string; side: string }): Slot {
  return packedSlot(b.bookId, b.marketType, b.period, b.side, false) ?? `${b.bookId}|${b.marketType}|${b.period}|${b.side}`;
}

export const ms = (d: Date | null | undefined) => (d ? d.getTime() : 0);

export async function loadState(prisma: PrismaClient): Promise<State> {
  // The counter first: a write after this read makes the next statement's check fail.
  const { counter, leagues, books } = await readIngestStart(prisma);
  return {
    version: counter?.version ?? 0n,
    leagues: new Map(leagues.map((l) => [l.id, l])),
    teams: new Map(),
    games: new Map(),
    boxscores: new Map(),
    books: new Set(books.map((b) => b.id)),
    links: new Map(),
    players: new Map(),
    lastSweep: 0,
    diffs: 0,
  };
}

/**
 * Reads the stored rows of games (and their teams) this process has not seen yet, except those
 * `absent` from the database (new games: game-identity.ts read that they are not stored). A game is
 * read once the captures diffed before have committed (`settled`): a lost-game sweep among them may
 * change it, and memory does not hold it to apply the sweep to (sweepMemory).
 */
export async function loadGames(
  prisma: PrismaClient,
  state: State,
  doc: NormalizedDocument,
  absent: ReadonlySet<number>,
  settled: () => Promise<unknown>,
): Promise<void> {
  const teamIds = new Set<number>();
  for (const t of doc.teams) teamIds.add(t.id);
  for (const g of doc.games) teamIds.add(g.homeTeamId).add(g.awayTeamId);
  const newTeams = [...teamIds].filter((id) => !state.teams.has(id));
  const ids = doc.games.map((g) => g.id).filter((id) => !state.games.has(id) && !absent.has(id));
  if (!newTeams.length && !ids.length) return;
  if (ids.length) await settled();
  const [teams, games, boxscores, quotes, betting] = await readFeedRows(prisma, newTeams, ids);
  for (const t of teams) {
    const { updatedAt: _updatedAt, ...row } = t;
    state.teams.set(t.id, row);
  }
  for (const g of games) {
    const { updatedAt, seenAt, ...row } = g;
    state.games.set(g.id, { row: row as GameRow, updatedAt: ms(updatedAt), seenAt: ms(seenAt ?? updatedAt), quotes: new Map(), betting: new Map() });
    rememberLinks(state, g);
  }
  for (const b of boxscores) {
    const { updatedAt, ...row } = b;
    state.boxscores.set(b.gameId, { row: row as BoxscoreRow, updatedAt: ms(updatedAt) });
  }
  for (const q of quotes) {
    const { id: _id, isAvailable, seenAt, changedAt, openPoint, openAmerican, openedAt, source, ...row } = q;
    state.games.get(q.gameId)?.quotes.set(quoteSlot(q), { row: row as QuoteRow, isAvailable, seenAt: ms(seenAt), changedAt: ms(changedAt), openPoint, openAmerican, openedAt: ms(openedAt), source });
  }
  for (const b of betting) {
    const { id: _id, updatedAt, ...row } = b;
    state.games.get(b.gameId)?.betting.set(bettingSlot(b), { row: row as PublicBettingRow, updatedAt: ms(updatedAt) });
  }
}

/**
 * Whether the lost-game sweep should run with this capture: once after (re)loading, since games this
 * process never saw may be stuck; then when a game in memory has been in progress without being
 * carried for LOST_GAME_AFTER_MS, checked at most every SWEEP_EVERY_MS of feed time.
 */
export function sweepDue(state: State, at: number, carried: ReadonlySet<number>): boolean {
  if (state.lastSweep === 0) return true;
  if (at - state.lastSweep < SWEEP_EVERY_MS) return false;
  for (const [id, game] of state.games) {
    if (!carried.has(id) && LIVE_STATUSES.includes(game.row.status) && game.seenAt < at - LOST_GAME_AFTER_MS) return true;
  }
  return false;
}

/**
 * The lost-game sweep's effect on memory, applied as soon as the capture that runs it is diffed (its
 * statement's `lost` part does the same to the database when it commits): the games in memory that
 * the statement's conditions mark LOST_GAME_STATUS, and the games memory forgets. The next capture
 * is then diffed at once, against memory as it will be once this one commits, instead of waiting
 * for the answer; a game the sweep may change that memory does not hold is read only once the
 * captures before have committed (loadGames).
 */
export function sweepMemory(state: State, at: number, carried: ReadonlySet<number>): void {
  const cut = at - LOST_GAME_AFTER_MS;
  for (const [id, game] of state.games) {
    if (carried.has(id) || !LIVE_STATUSES.includes(game.row.status) || game.row.startTime.getTime() >= cut || game.seenAt >= cut) continue;
    game.row = { ...game.row, status: LOST_GAME_STATUS, statusDisplay: LOST_GAME_DISPLAY };
    game.updatedAt = at;
  }
  state.lastSweep = at;
  forgetOldGames(state, at);
}

/** Games no document has carried for FORGET_AFTER_MS leave memory (they are read again if they return). */
function forgetOldGames(state: State, at: number): void {
  const gone = new Set<number>();
  for (const [id, game] of state.games) {
    if (game.seenAt >= at - FORGET_AFTER_MS) continue;
    state.boxscores.delete(id);
    state.games.delete(id);
    gone.add(id);
  }
  if (gone.size) for (const [key, id] of state.links) if (gone.has(id)) state.links.delete(key);
}
