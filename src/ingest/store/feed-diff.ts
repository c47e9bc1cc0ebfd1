import { isPropMarket, LIVE_STATUSES, type BettingSplit } from '../../domain';
import { changeLogPruneDue } from '../../db/change-log';
import type { PrismaClient } from '../../db/client';
import type { SignalRow } from '../../db/signal-repository';
import type { BoxscoreRow, GameRow, NormalizedDocument, QuoteRow, SportsbookRow, TeamRow } from '../feed-rows';
import { resolveIdentities } from './game-identity';
import { resolvePlayers } from './players';
import { detectSignals, lowestBookSplits, SIGNAL_STATUS, type CaptureAdditions } from '../signals';
import { bettingSlot, loadGames, quoteSlot, sourceIdsOf, sweepDue, sweepMemory, type GameState, type QuoteState, type Slot, type State } from './feed-state';

// One normalised document compared with memory: the rows it changes (written by capture-group.ts).

/**
 * A game's write: its whole row, its bet count alone (with its times: most changes, the bet count
 * moves at nearly every capture of a game with lines), or only the time it was last seen.
 */
export type GameWrite =
  | { kind: 'row'; id: number; row: object }
  | { kind: 'bets'; id: number; numBets: number | null; updatedAt: string; seenAt: string }
  | { kind: 'seen'; id: number; seenAt: string };

/** One document diffed against `state`: the rows it writes, and what it changes once committed. */
export interface Capture {
  state: State;
  /** The ingest counter this capture commits (IngestState.version). */
  version: bigint;
  /** The capture's time (seenAt), as epoch ms and as ISO text. */
  at: number;
  stamp: string;
  /** The league's season, when the document changes it. */
  league?: { id: number; currentSeason: string; currentSeasonType: string; isActive: boolean };
  /** Leagues and sportsbooks this capture creates. */
  leagueRows: object[];
  bookRows: SportsbookRow[];
  teamRows: Array<TeamRow & { updatedAt: string }>;
  games: GameWrite[];
  boxRows: Array<BoxscoreRow & { updatedAt: string }>;
  /** Changed quotes (`record`: the Quote row as of this capture, `moved`: it gets a history row). */
  quotes: Array<{ quote: QuoteState; record: object; moved: boolean }>;
  betting: Array<{ game: GameState; slot: Slot; record: object }>;
  /** The lost-game sweep runs with this capture (it is then written alone). */
  sweep: boolean;
  /** The games the document carries (the sweep leaves them alone). */
  gameIds: number[];
  /** The change log's pruning is due with this capture. */
  prune: boolean;
  signals: SignalRow[];
  changedGames: Set<number>;
  /**
   * Games that started playing with this capture (their status went from not live to live, or they
   * are new and live): their delta carries them whole (src/services/change-deltas.ts). Decided here,
   * where the previous status is known, so that no reader has to guess it later.
   */
  startedGames: Set<number>;
  changedMarkets: Map<string, { gameId: number; marketType: string; bookId: number }>;
  quotesChanged: number;
  historyRows: number;
}

/**
 * Equality of two JSON values whatever their key order (jsonb does not keep it), as their JSON text
 * with keys sorted would be: keys holding undefined count as absent, undefined list items as null.
 * Compared in place: the text of every game's JSON columns, built and sorted at every capture, was
 * a sixth of the diff's CPU.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i] ?? null, b[i] ?? null)) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let keys = 0;
  for (const k of Object.keys(x)) {
    if (x[k] === undefined) continue;
    keys++;
    if (y[k] === undefined || !sameJson(x[k], y[k])) return false;
  }
  for (const k of Object.keys(y)) if (y[k] !== undefined) keys--;
  return keys === 0;
}

/** Field-by-field equality of the columns `next` has but `except` (dates by time, JSON whatever its key order). */
function sameFields(current: object, next: object, except?: string): boolean {
  const was = current as Record<string, unknown>;
  const now = next as Record<string, unknown>;
  for (const k of Object.keys(now)) {
    if (k === except) continue;
    const a = was[k] ?? null;
    const b = now[k] ?? null;
    if (typeof b === 'object' && b !== null ? !sameJson(a, b) : a !== b) return false;
  }
  return true;
}

const isoCache = new Map<number, string>();
/**
 * ISO text of an epoch-ms time, memoised: a capture's rows repeat a few times (its own, the
 * openings'), and formatting a Date for each of thousands of rows was a tenth of the diff's CPU.
 */
export const iso = (t: number): string => {
  let text = isoCache.get(t);
  if (text === undefined) {
    if (isoCache.size >= 10_000) isoCache.clear();
    isoCache.set(t, (text = new Date(t).toISOString()));
  }
  return text;
};

/**
 * Diffs `doc` against `state` (updating it): the rows that change, with the line-movement signals
 * the capture brings. `settled` resolves once the captures diffed
 * before it have committed: a game or its signals not in memory are read from the database then.
 */
export async function diffDocument(
  prisma: PrismaClient,
  state: State,
  doc: NormalizedDocument,
  seenAt: Date,
  settled: () => Promise<unknown> = () => Promise.resolve(),
): Promise<Capture> {
  const absent = await resolveIdentities(prisma, state, doc);
  await resolvePlayers(prisma, state, doc);
  await loadGames(prisma, state, doc, absent, settled);
  const at = seenAt.getTime();
  const stamp = seenAt.toISOString();
  // The counter this capture will commit: memory counts it from now on (a capture queued behind this
  // one expects the next value); if the statement is refused, memory is dropped anyway.
  const version = state.version + 1n;
  state.version = version;
  const changedGames = new Set<number>();
  const startedGames = new Set<number>();
  const isLive = (status: string | null | undefined) => status != null && LIVE_STATUSES.includes(status);
  const changedMarkets = new Map<string, { gameId: number; marketType: string; bookId: number }>();
  const markChanged = (q: QuoteRow) =>
    changedMarkets.set(`${q.gameId}|${q.marketType}|${q.bookId}`, { gameId: q.gameId, marketType: q.marketType, bookId: q.bookId });
  const gameIds = doc.games.map((g) => g.id);

  // Leagues: the document's season; a league the reference data does not know still gets a row.
  const leagueRows: object[] = [];
  let leagueUpdate: Capture['league'];
  if (doc.league) {
    const { id, currentSeason, currentSeasonType, isActive } = doc.league;
    const league = state.leagues.get(id);
    const update = {
      ...(currentSeason ? { currentSeason } : {}),
      ...(currentSeasonType ? { currentSeasonType } : {}),
      ...(isActive != null ? { isActive } : {}),
    };
    if (league && !sameFields(league, update)) {
      Object.assign(league, update);
      leagueUpdate = { id, ...league };
    }
  }
  for (const leagueId of new Set(doc.games.map((g) => g.leagueId))) {
    if (state.leagues.has(leagueId)) continue;
    const league = { currentSeason: doc.league?.currentSeason ?? '', currentSeasonType: doc.league?.currentSeasonType ?? 'reg', isActive: true };
    leagueRows.push({ id: leagueId, sport: 'basketball', name: `league ${leagueId}`, description: '', logo: '', ...league });
    state.leagues.set(leagueId, league);
  }

  // Books the reference data does not list (a source's unlisted keys): created once, never renamed.
  const bookRows = (doc.books ?? []).filter((b) => !state.books.has(b.id));
  for (const b of bookRows) state.books.add(b.id);

  // Teams: changed standings or names; games may name teams the document does not describe, which
  // get a placeholder to be filled later.
  const teamRows: Array<TeamRow & { updatedAt: string }> = [];
  for (const team of doc.teams) {
    const current = state.teams.get(team.id);
    if (current && sameFields(current, team)) continue;
    teamRows.push({ ...team, updatedAt: stamp });
    state.teams.set(team.id, team);
  }
  const placeholders: Array<TeamRow & { updatedAt: string }> = [];
  for (const game of doc.games) {
    for (const teamId of [game.homeTeamId, game.awayTeamId]) {
      if (state.teams.has(teamId)) continue;
      const placeholder: TeamRow = {
        id: teamId, leagueId: game.leagueId, fullName: `Team ${teamId}`, displayName: `Team ${teamId}`, shortName: `Team ${teamId}`, location: '', abbr: String(teamId),
        logo: null, primaryColor: null, secondaryColor: null, conferenceType: null, divisionType: null, urlSlug: null, coreId: null,
        win: null, loss: null, ties: null, overtimeLosses: null, draw: null,
      };
      placeholders.push({ ...placeholder, updatedAt: stamp });
      state.teams.set(teamId, placeholder);
    }
  }

  // Games: new or changed rows; games whose bet count alone changed; the time each other carried game was seen.
  const games: GameWrite[] = [];
  const created = new Set<number>();
  /** Games another source describes: this document adds its id to them, and its prices. */
  const described = new Set<number>();
  /** Games another source created that this (scoreboard) document describes from now on. */
  const taken = new Set<number>();
  for (const incoming of doc.games) {
    const current = state.games.get(incoming.id);
    const game = current ? mergedGame(current.row, incoming, doc, described, taken) : incoming;
    if (!current) {
      created.add(game.id);
      games.push({ kind: 'row', id: game.id, row: { ...game, updatedAt: stamp, seenAt: stamp } });
      state.games.set(game.id, { row: game, updatedAt: at, seenAt: at, quotes: new Map(), betting: new Map() });
      changedGames.add(game.id);
      if (isLive(game.status)) startedGames.add(game.id);
    } else if ((current.updatedAt <= at || described.has(game.id) || taken.has(game.id)) && !sameFields(current.row, game)) {
      // A described game's row is the stored one plus upstream ids, true whatever the capture's age.
      // A taken game's row is this capture's whatever the other source's age: its time is this
      // capture's, so that the scoreboard's next captures describe it as if they had created it.
      const seen = Math.max(current.seenAt, at);
      const updated = taken.has(game.id) ? at : Math.max(current.updatedAt, at);
      if (current.row.numBets !== game.numBets && sameFields(current.row, game, 'numBets')) {
        games.push({ kind: 'bets', id: game.id, numBets: game.numBets, updatedAt: iso(updated), seenAt: iso(seen) });
      } else {
        games.push({ kind: 'row', id: game.id, row: { ...game, updatedAt: iso(updated), seenAt: iso(seen) } });
      }
      if (!isLive(current.row.status) && isLive(game.status)) startedGames.add(game.id);
      Object.assign(current, { row: game, updatedAt: updated, seenAt: seen });
      changedGames.add(game.id);
    } else if (current.seenAt < at) {
      games.push({ kind: 'seen', id: game.id, seenAt: stamp });
      current.seenAt = at;
    }
  }

  const boxRows: Capture['boxRows'] = [];
  for (const box of doc.boxscores) {
    if (described.has(box.gameId)) continue;
    const current = state.boxscores.get(box.gameId);
    if (current && ((current.updatedAt > at && !taken.has(box.gameId)) || sameFields(current.row, box))) continue;
    boxRows.push({ ...box, updatedAt: stamp });
    state.boxscores.set(box.gameId, { row: box, updatedAt: at });
    changedGames.add(box.gameId);
  }

  // Quotes: the document against memory. Each changed quote is written once; the history rows are the
  // ones whose point or price moved, stamped with the time it moved (this document's).
  const quoteRows: Capture['quotes'] = [];
  const moved: QuoteRow[] = [];
  let historyRows = 0;
  // Each quote the document carries is stamped with this diff: the game's other quotes are withdrawn below.
  const diff = ++state.diffs;
  for (const quote of doc.quotes) {
    const quotes = gameOf(state, quote.gameId).quotes;
    const slot = quoteSlot(quote);
    const current = quotes.get(slot);
    if (!current) {
      const fresh: QuoteState = {
        row: quote, isAvailable: true, seenAt: at, changedAt: at, openPoint: quote.point, openAmerican: quote.american, openedAt: at, source: doc.source, carriedBy: diff,
      };
      quotes.set(slot, fresh);
      quoteRows.push({ quote: fresh, record: quoteRecord(fresh, true), moved: true });
      moved.push(quote);
      historyRows++;
      markChanged(quote);
      continue;
    }
    current.carriedBy = diff;
    if (current.seenAt > at || current.changedAt > at) continue; // the stored quote is newer
    // The decimal too: a source quoting decimals can move by less than one American cent.
    const priceMoved = current.row.american !== quote.american || current.row.decimal !== quote.decimal || (current.row.point ?? null) !== quote.point;
    const otherChange =
      !current.isAvailable || current.row.lineStatus !== quote.lineStatus || current.row.outcomeId !== quote.outcomeId || current.row.teamId !== quote.teamId;
    if (!priceMoved && !otherChange) continue;
    Object.assign(current, { row: quote, isAvailable: true, seenAt: at, changedAt: priceMoved ? at : current.changedAt, source: doc.source });
    quoteRows.push({ quote: current, record: quoteRecord(current, priceMoved), moved: priceMoved });
    markChanged(quote);
    if (priceMoved) {
      historyRows++;
      moved.push(quote);
    }
  }
  // Withdrawal is news about the quote: it moves seenAt, so that an older document cannot revive it.
  // Only a document that carries prices withdraws, and only its own source's: a book one source
  // quotes is not withdrawn because another source does not carry it.
  for (const gameId of doc.carriesQuotes === false ? [] : gameIds) {
    for (const q of state.games.get(gameId)!.quotes.values()) {
      if (!q.isAvailable || q.carriedBy === diff || q.seenAt > at || (q.source ?? doc.source) !== doc.source) continue;
      const kind = doc.quoteKind ?? 'game';
      if (kind !== 'all' && isPropMarket(q.row.marketType) !== (kind === 'props')) continue; // the other endpoint's quotes
      Object.assign(q, { isAvailable: false, seenAt: at });
      quoteRows.push({ quote: q, record: quoteRecord(q, false), moved: false });
      markChanged(q.row);
    }
  }

  const bettingRows: Capture['betting'] = [];
  for (const row of doc.publicBetting) {
    const game = gameOf(state, row.gameId);
    const betting = game.betting;
    const slot = bettingSlot(row);
    const current = betting.get(slot);
    // numBets is the game's bet count, repeated on every row: readers take it from the game, so a
    // change of it alone (every capture of a busy game) rewrites no betting row.
    // The key fields are equal by construction: only the two percentages can differ.
    const same = current && current.row.ticketsPercent === row.ticketsPercent && current.row.moneyPercent === row.moneyPercent;
    if (current && (current.updatedAt > at || same)) continue;
    bettingRows.push({ game, slot, record: { ...row, updatedAt: stamp } });
    betting.set(slot, { row, updatedAt: at });
  }

  const carried = new Set(gameIds);
  const sweep = sweepDue(state, at, carried);
  if (sweep) sweepMemory(state, at, carried);

  // The signals detected with the capture commit with the prices that showed them (docs/signals.md, "Stored at ingest").
  const signals = changedMarkets.size ? await detectSignals(prisma, additions(state, at, changedMarkets, moved, bookRows, created), settled) : [];
  return {
    state, version, at, stamp, ...(leagueUpdate && { league: leagueUpdate }), leagueRows, bookRows, teamRows: [...teamRows, ...placeholders], games, boxRows,
    quotes: quoteRows, betting: bettingRows, sweep, gameIds, prune: changeLogPruneDue(version), signals, changedGames, startedGames, changedMarkets, quotesChanged: quoteRows.length, historyRows,
  };
}

/** The game of a document's quote or betting row: one of the document's games, in memory by now. */
function gameOf(state: State, gameId: number): GameState {
  const game = state.games.get(gameId);
  if (!game) throw new Error(`feed diff: a row names game ${gameId}, which its document does not carry`);
  return game;
}

function additions(
  state: State,
  at: number,
  changedMarkets: Capture['changedMarkets'],
  history: QuoteRow[],
  books: readonly SportsbookRow[],
  created: ReadonlySet<number>,
): CaptureAdditions {
  const gameIds = [...new Set([...changedMarkets.values()].map((m) => m.gameId))];
  const statuses = new Map<number, string>();
  const splits = new Map<number, BettingSplit[]>();
  for (const id of gameIds) {
    const game = state.games.get(id);
    const status = game?.row.status ?? '';
    statuses.set(id, status);
    if (game && status === SIGNAL_STATUS) splits.set(id, lowestBookSplits(game.betting.values()));
  }
  return { at: new Date(at), gameIds, history, statuses, splits, books, created };
}

function quoteRecord(q: QuoteState, moved: boolean): object {
  return {
    ...q.row, playerId: q.row.playerId ?? 0, lineKey: q.row.lineKey ?? '', isAvailable: q.isAvailable, seenAt: iso(q.seenAt), changedAt: iso(q.changedAt), openPoint: q.openPoint, openAmerican: q.openAmerican,
    openedAt: iso(q.openedAt), source: q.source, moved,
  };
}

/**
 * The row to store for a game `doc` carries and memory has: the document's, with the upstream ids of
 * both (`meta.source_ids`); or, when `doc` is not the scoreboard's and the game is also another
 * source's, the stored row with only the ids added (that source describes the game: status, score,
 * start time; this one adds its prices). Such games are added to `described`; games another source
 * created that the scoreboard now names for the first time, to `taken`.
 */
function mergedGame(current: GameRow, incoming: GameRow, doc: NormalizedDocument, described: Set<number>, taken: Set<number>): GameRow {
  const was = sourceIdsOf(current);
  const ids = { ...was, ...sourceIdsOf(incoming) };
  const others = Object.keys(was).some((source) => source !== doc.source);
  if (!doc.scoreboard && others) {
    described.add(current.id);
    return { ...current, meta: { ...current.meta, source_ids: ids } };
  }
  if (doc.scoreboard && others && was[doc.source] === undefined) taken.add(current.id);
  return { ...incoming, meta: { ...incoming.meta, source_ids: ids } };
}
