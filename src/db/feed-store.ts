import { LIVE_STATUSES } from '../domain';
import { changeLogParts, changeLogPruneDue } from './change-log';
import { rawQueryOf, type PrismaClient } from './client';
import type { BoxscoreRow, GameRow, NormalizedDocument, PublicBettingRow, QuoteRow, TeamRow } from './feed-rows';

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
}

/** Advisory lock key serialising document writes (any constant unique to this service). */
const INGEST_LOCK_ID = 7_243_001;

/**
 * A game still "in progress" that no feed document has carried for this long is marked
 * LOST_GAME_STATUS: the feed moved on (its slate switched days) and could not say how the game
 * ended. Three hours is longer than any gap between two polls of a game being played, and
 * shorter than the time a finished day's games wait for the next day's slate.
 */
export const LOST_GAME_AFTER_MS = 3 * 3_600_000;
/** Status of such a game (the status table of docs/feed.md documents it). */
export const LOST_GAME_STATUS = 'unknown';
const LOST_GAME_DISPLAY = 'Result unknown';
/** How often (in feed time) the lost-game sweep runs: one cheap indexed statement. */
const SWEEP_EVERY_MS = 5 * 60_000;
/** Games no document has carried for this long leave the in-memory state (it is reloaded on demand). */
const FORGET_AFTER_MS = 2 * 86_400_000;

type SqlType = 'int' | 'float8' | 'text' | 'bool' | 'jsonb' | 'timestamp(3)';
type Column = readonly [name: string, type: SqlType];

const TEAM_COLUMNS: readonly Column[] = [
  ['id', 'int'], ['leagueId', 'int'], ['fullName', 'text'], ['displayName', 'text'], ['shortName', 'text'], ['location', 'text'], ['abbr', 'text'],
  ['logo', 'text'], ['primaryColor', 'text'], ['secondaryColor', 'text'], ['conferenceType', 'text'], ['divisionType', 'text'], ['urlSlug', 'text'],
  ['coreId', 'int'], ['win', 'int'], ['loss', 'int'], ['ties', 'int'], ['overtimeLosses', 'int'], ['draw', 'int'], ['updatedAt', 'timestamp(3)'],
];
const GAME_COLUMNS: readonly Column[] = [
  ['id', 'int'], ['leagueId', 'int'], ['coreId', 'text'], ['status', 'text'], ['upstreamStatus', 'text'], ['realStatus', 'text'], ['statusDisplay', 'text'],
  ['startTime', 'timestamp(3)'], ['awayTeamId', 'int'], ['homeTeamId', 'int'], ['winningTeamId', 'int'], ['type', 'text'], ['season', 'text'], ['week', 'int'],
  ['attendance', 'int'], ['coverage', 'text'], ['isFree', 'bool'], ['trending', 'bool'], ['awayRotationNumber', 'int'], ['homeRotationNumber', 'int'],
  ['numBets', 'int'], ['broadcast', 'jsonb'], ['series', 'jsonb'], ['meta', 'jsonb'], ['simulated', 'bool'], ['updatedAt', 'timestamp(3)'], ['seenAt', 'timestamp(3)'],
];
const BOXSCORE_COLUMNS: readonly Column[] = [
  ['gameId', 'int'], ['clock', 'text'], ['period', 'int'], ['homeScore', 'int'], ['awayScore', 'int'], ['periodScores', 'jsonb'], ['totalPoints', 'int'],
  ['homeFirstHalf', 'int'], ['awayFirstHalf', 'int'], ['homeSecondHalf', 'int'], ['awaySecondHalf', 'int'], ['updatedAt', 'timestamp(3)'],
];
const QUOTE_KEY = ['gameId', 'bookId', 'marketType', 'period', 'side', 'isLive'];
const QUOTE_COLUMNS: readonly Column[] = [
  ['gameId', 'int'], ['bookId', 'int'], ['marketType', 'text'], ['period', 'text'], ['side', 'text'], ['isLive', 'bool'],
  ['outcomeId', 'text'], ['teamId', 'int'], ['point', 'float8'], ['american', 'int'], ['decimal', 'float8'], ['fractional', 'text'],
  ['isAvailable', 'bool'], ['lineStatus', 'text'], ['seenAt', 'timestamp(3)'], ['changedAt', 'timestamp(3)'],
  ['openPoint', 'float8'], ['openAmerican', 'int'], ['openedAt', 'timestamp(3)'],
];
/** Columns of the quote rows a capture sends: the Quote table's, and whether the point or price moved (a history row). */
const QUOTE_INPUT: readonly Column[] = [...QUOTE_COLUMNS, ['moved', 'bool']];
const BETTING_KEY = ['gameId', 'bookId', 'marketType', 'period', 'side'];
const BETTING_COLUMNS: readonly Column[] = [
  ['gameId', 'int'], ['bookId', 'int'], ['marketType', 'text'], ['period', 'text'], ['side', 'text'],
  ['ticketsPercent', 'float8'], ['moneyPercent', 'float8'], ['numBets', 'int'], ['updatedAt', 'timestamp(3)'],
];

/** One value of a PostgreSQL array literal (`{...}`): NULL, a number or boolean, or a quoted string. */
function arrayElement(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : `"${value}"`;
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return `"${String(value).replace(/[\\"]/g, '\\$&')}"`;
}

/**
 * The statement of one capture: every write is a part of one SQL command (data-modifying WITH
 * clauses), so a capture costs one round trip and is one transaction. Rows travel as one parameter
 * per column (a PostgreSQL array literal, turned back into a relation by `unnest`), or, for tables
 * with JSON columns, as one JSON parameter (jsonb_to_recordset): one set-based write per table,
 * whatever the number of rows. Each write reads `v`, so it runs after the advisory lock is held and
 * the ingest counter has moved, and only when the counter was the one this process expected
 * (`v.ok`); otherwise nothing but the counter changes and the caller reloads and retries.
 */
class CaptureStatement {
  private readonly parts: string[] = [];
  readonly params: unknown[] = [];

  constructor(feedTime: string, expectedVersion: bigint) {
    this.parts.push(
      // Asynchronous commit for this transaction only: see docs/ingest.md, "Commit without waiting for the disk".
      `l AS (SELECT pg_advisory_xact_lock(${INGEST_LOCK_ID}), set_config('synchronous_commit', 'off', true))`,
      `v AS (INSERT INTO "IngestState" ("id", "version", "feedTime") SELECT 1, 1, ${this.param(feedTime)}::timestamp(3) FROM l
        ON CONFLICT ("id") DO UPDATE SET "version" = "IngestState"."version" + 1, "feedTime" = GREATEST("IngestState"."feedTime", EXCLUDED."feedTime")
        RETURNING "version", "version" = ${this.param(String(expectedVersion + 1n))}::bigint AS ok)`,
    );
  }

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /**
   * The rows as a relation named `name` for later parts (`FROM name`): one array parameter per
   * column, unnested together. Columns must not be JSON (arrays of jsonb would need nested quoting).
   */
  rows(name: string, columns: readonly Column[], rows: readonly object[]): void {
    const arrays = columns.map(([column, type]) => {
      const values = rows.map((row) => arrayElement((row as Record<string, unknown>)[column]));
      return `${this.param(`{${values.join(',')}}`)}::${type}[]`;
    });
    this.parts.push(`${name} AS (SELECT * FROM unnest(${arrays.join(', ')}) AS t(${columns.map(([column]) => `"${column}"`).join(', ')}))`);
  }

  /**
   * Inserts `rows` (or, given a relation from `rows()`, its rows matching `where`); with
   * `conflict`, an upsert on that unique key updating every column not in `keep`.
   */
  write(
    table: string,
    columns: readonly Column[],
    rows: readonly object[] | { from: string; where?: string },
    conflict?: { key: readonly string[]; keep?: readonly string[] },
  ): void {
    let from: string;
    const where = ['(SELECT ok FROM v)'];
    if (Array.isArray(rows)) {
      if (!rows.length) return;
      const types = columns.map(([name, type]) => `"${name}" ${type}`).join(', ');
      from = `jsonb_to_recordset(${this.param(JSON.stringify(rows))}::jsonb) AS t(${types})`;
    } else {
      const source = rows as { from: string; where?: string };
      from = source.from;
      if (source.where) where.unshift(source.where);
    }
    const names = columns.map(([name]) => `"${name}"`).join(', ');
    let sql = `INSERT INTO "${table}" (${names}) SELECT ${names} FROM ${from} WHERE ${where.join(' AND ')}`;
    if (conflict) {
      const updated = columns.map(([name]) => name).filter((name) => !conflict.key.includes(name) && !conflict.keep?.includes(name));
      const action = updated.length ? `UPDATE SET ${updated.map((n) => `"${n}" = EXCLUDED."${n}"`).join(', ')}` : 'NOTHING';
      sql += ` ON CONFLICT (${conflict.key.map((k) => `"${k}"`).join(', ')}) DO ${action}`;
    }
    this.parts.push(`w${this.parts.length} AS (${sql})`);
  }

  /** Any other write; `sql` must contain `(SELECT ok FROM v)` in its condition. */
  add(name: string, sql: string): void {
    this.parts.push(`${name} AS (${sql})`);
  }

  text(returning: string): string {
    return `WITH ${this.parts.join(',\n')}\nSELECT v."version", v.ok${returning} FROM v`;
  }
}

const LEAGUE_COLUMNS: readonly Column[] = [
  ['id', 'int'], ['sport', 'text'], ['name', 'text'], ['description', 'text'], ['logo', 'text'], ['currentSeason', 'text'], ['currentSeasonType', 'text'], ['isActive', 'bool'],
];

/** A stored quote as the in-memory state keeps it (times in epoch milliseconds). */
interface QuoteState {
  row: QuoteRow;
  isAvailable: boolean;
  seenAt: number;
  changedAt: number;
  openPoint: number | null;
  openAmerican: number;
  openedAt: number;
}

interface GameState {
  row: GameRow;
  updatedAt: number;
  seenAt: number;
  /** Keys of the game's quotes in `State.quotes`. */
  quoteKeys: Set<string>;
}

/**
 * What this process last wrote (or read) of the feed tables, trusted while the ingest counter is the
 * one this process left: then no other process wrote in between, and a document is diffed against
 * memory instead of being read back. Any failure drops it; it is rebuilt from the database.
 */
interface State {
  version: bigint;
  leagues: Map<number, { currentSeason: string; currentSeasonType: string; isActive: boolean }>;
  teams: Map<number, TeamRow>;
  games: Map<number, GameState>;
  boxscores: Map<number, { row: BoxscoreRow; updatedAt: number }>;
  quotes: Map<string, QuoteState>;
  betting: Map<string, { row: PublicBettingRow; updatedAt: number }>;
  lastSweep: number;
}

const states = new WeakMap<PrismaClient, State>();

/** One document diffed against `state`: its statement, and what it changes once committed. */
interface Capture {
  state: State;
  /** The statement runs the lost-game sweep. */
  sweep: boolean;
  /** The document's time (epoch ms). */
  at: number;
  text: string;
  params: unknown[];
  changedGames: Set<number>;
  changedMarkets: Map<string, { gameId: number; marketType: string; bookId: number }>;
  quotesChanged: number;
  historyRows: number;
}

const quoteKey = (q: { gameId: number; bookId: number; marketType: string; period: string; side: string; isLive: boolean }) =>
  `${q.gameId}|${q.bookId}|${q.marketType}|${q.period}|${q.side}|${q.isLive}`;
const bettingKey = (b: { gameId: number; bookId: number; marketType: string; period: string; side: string }) =>
  `${b.gameId}|${b.bookId}|${b.marketType}|${b.period}|${b.side}`;

/** JSON with object keys sorted: jsonb does not keep key order, so raw text would differ spuriously. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Field-by-field equality of the columns `next` has (dates by time, JSON by canonical text). */
function sameFields(current: object, next: object): boolean {
  const was = current as Record<string, unknown>;
  const now = next as Record<string, unknown>;
  return Object.keys(now).every((k) => {
    const a = was[k] ?? null;
    const b = now[k] ?? null;
    if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
    if (typeof b === 'object' && b !== null) return canonical(a) === canonical(b);
    return a === b;
  });
}

const ms = (d: Date | null | undefined) => (d ? d.getTime() : 0);

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

/** Per database client: the last capture started, and whether it runs the lost-game sweep. */
interface Queue {
  last: Promise<unknown>;
  lastSweeps: boolean;
}
const queues = new WeakMap<PrismaClient, Queue>();

/**
 * storeDocument in two steps, so that a caller can compare the next document with memory while the
 * previous capture's statement runs: resolves once `doc` is diffed (memory then holds it), with its
 * statement queued. Statements are still sent one at a time, each once the one before committed, so
 * every capture stays one transaction, in order. The diff assumes the captures before it commit; if
 * one does not (an error, or another writer moved the counter), memory was dropped and this capture
 * is diffed again from the database before it is sent. A capture that runs the lost-game sweep is
 * waited for before the next diff: its result changes games that the next diff may read.
 */
export async function startDocument(prisma: PrismaClient, doc: NormalizedDocument, seenAt: Date): Promise<StartedCapture> {
  let queue = queues.get(prisma);
  if (!queue) queues.set(prisma, (queue = { last: Promise.resolve(), lastSweeps: false }));
  const previous = queue.last;
  // Without memory, it is (re)loaded once the captures before have committed: it starts from the counter.
  if (queue.lastSweeps || !states.get(prisma)) await previous.catch(() => {});
  const state = states.get(prisma);
  let capture: Capture | null = null;
  if (state) {
    try {
      capture = await diffDocument(prisma, state, doc, seenAt);
    } catch (error) {
      states.delete(prisma);
      throw error;
    }
  }
  const done = (async () => {
    await previous;
    if (capture && states.get(prisma) === capture.state) {
      try {
        const changes = await sendCapture(prisma, capture);
        if (changes) return changes;
      } catch (error) {
        // Memory may hold rows that were never committed.
        states.delete(prisma);
        throw error;
      }
      states.delete(prisma);
    }
    return writeAgain(prisma, doc, seenAt);
  })();
  queue.last = done;
  queue.lastSweeps = capture?.sweep ?? true;
  // Its failure is the caller's (who awaits `done`) and the next capture's, not an unhandled rejection.
  done.catch(() => {});
  return { done };
}

/** Loads memory from the database, diffs and sends; again while another process keeps writing in between. */
async function writeAgain(prisma: PrismaClient, doc: NormalizedDocument, seenAt: Date): Promise<ChangeSet> {
  for (let attempt = 0; ; attempt++) {
    try {
      let state = states.get(prisma);
      if (!state) {
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

async function loadState(prisma: PrismaClient): Promise<State> {
  // The counter first: a write after this read makes the next statement's check fail.
  const counter = await prisma.ingestState.findUnique({ where: { id: 1 } });
  const leagues = await prisma.league.findMany({ select: { id: true, currentSeason: true, currentSeasonType: true, isActive: true } });
  return {
    version: counter?.version ?? 0n,
    leagues: new Map(leagues.map((l) => [l.id, l])),
    teams: new Map(),
    games: new Map(),
    boxscores: new Map(),
    quotes: new Map(),
    betting: new Map(),
    lastSweep: 0,
  };
}

/** Reads the stored rows of games (and their teams) this process has not seen yet. */
async function loadGames(prisma: PrismaClient, state: State, doc: NormalizedDocument): Promise<void> {
  const teamIds = new Set<number>();
  for (const t of doc.teams) teamIds.add(t.id);
  for (const g of doc.games) teamIds.add(g.homeTeamId).add(g.awayTeamId);
  const newTeams = [...teamIds].filter((id) => !state.teams.has(id));
  const ids = doc.games.map((g) => g.id).filter((id) => !state.games.has(id));
  if (!newTeams.length && !ids.length) return;
  const [teams, games, boxscores, quotes, betting] = await Promise.all([
    newTeams.length ? prisma.team.findMany({ where: { id: { in: newTeams } } }) : [],
    ids.length ? prisma.game.findMany({ where: { id: { in: ids } } }) : [],
    ids.length ? prisma.boxscore.findMany({ where: { gameId: { in: ids } } }) : [],
    ids.length ? prisma.quote.findMany({ where: { gameId: { in: ids } } }) : [],
    ids.length ? prisma.publicBetting.findMany({ where: { gameId: { in: ids } } }) : [],
  ]);
  for (const t of teams) {
    const { updatedAt: _updatedAt, ...row } = t;
    state.teams.set(t.id, row);
  }
  for (const g of games) {
    const { updatedAt, seenAt, ...row } = g;
    state.games.set(g.id, { row: row as GameRow, updatedAt: ms(updatedAt), seenAt: ms(seenAt ?? updatedAt), quoteKeys: new Set() });
  }
  for (const b of boxscores) {
    const { updatedAt, ...row } = b;
    state.boxscores.set(b.gameId, { row: row as BoxscoreRow, updatedAt: ms(updatedAt) });
  }
  for (const q of quotes) {
    const { id: _id, isAvailable, seenAt, changedAt, openPoint, openAmerican, openedAt, ...row } = q;
    const key = quoteKey(q);
    state.quotes.set(key, { row: row as QuoteRow, isAvailable, seenAt: ms(seenAt), changedAt: ms(changedAt), openPoint, openAmerican, openedAt: ms(openedAt) });
    state.games.get(q.gameId)?.quoteKeys.add(key);
  }
  for (const b of betting) {
    const { id: _id, updatedAt, ...row } = b;
    state.betting.set(bettingKey(b), { row: row as PublicBettingRow, updatedAt: ms(updatedAt) });
  }
}

const iso = (t: number) => new Date(t).toISOString();

/**
 * Diffs `doc` against `state` (updating it), sends the one statement, and returns what changed; or
 * null when the ingest counter showed another writer (nothing was written, `state` is void).
 */
async function diffDocument(prisma: PrismaClient, state: State, doc: NormalizedDocument, seenAt: Date): Promise<Capture> {
  await loadGames(prisma, state, doc);
  const at = seenAt.getTime();
  const stamp = seenAt.toISOString();
  // The counter this capture will commit: memory counts it from now on (a capture queued behind this
  // one expects the next value); if the statement is refused, memory is dropped anyway.
  const version = state.version + 1n;
  state.version = version;
  const sql = new CaptureStatement(stamp, version - 1n);
  const changedGames = new Set<number>();
  const changedMarkets = new Map<string, { gameId: number; marketType: string; bookId: number }>();
  const markChanged = (q: QuoteRow) =>
    changedMarkets.set(`${q.gameId}|${q.marketType}|${q.bookId}`, { gameId: q.gameId, marketType: q.marketType, bookId: q.bookId });
  const gameIds = doc.games.map((g) => g.id);

  // Leagues: the document's season; a league the reference data does not know still gets a row.
  const leagueRows: object[] = [];
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
      sql.add('league', `UPDATE "League" SET "currentSeason" = ${sql.param(league.currentSeason)}, "currentSeasonType" = ${sql.param(league.currentSeasonType)},
        "isActive" = ${sql.param(league.isActive)} WHERE "id" = ${sql.param(id)} AND (SELECT ok FROM v)`);
    }
  }
  for (const leagueId of new Set(doc.games.map((g) => g.leagueId))) {
    if (state.leagues.has(leagueId)) continue;
    const league = { currentSeason: doc.league?.currentSeason ?? '', currentSeasonType: doc.league?.currentSeasonType ?? 'reg', isActive: true };
    leagueRows.push({ id: leagueId, sport: 'basketball', name: `league ${leagueId}`, description: '', logo: '', ...league });
    state.leagues.set(leagueId, league);
  }
  sql.write('League', LEAGUE_COLUMNS, leagueRows, { key: ['id'], keep: LEAGUE_COLUMNS.map(([n]) => n) });

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
  sql.write('Team', TEAM_COLUMNS, [...teamRows, ...placeholders], { key: ['id'] });

  // Games: new or changed rows in one upsert; the time each other carried game was seen in one narrow update.
  const gameRows: object[] = [];
  const onlySeen: number[] = [];
  for (const game of doc.games) {
    const current = state.games.get(game.id);
    if (!current) {
      gameRows.push({ ...game, updatedAt: stamp, seenAt: stamp });
      state.games.set(game.id, { row: game, updatedAt: at, seenAt: at, quoteKeys: new Set() });
      changedGames.add(game.id);
    } else if (current.updatedAt <= at && !sameFields(current.row, game)) {
      const seen = Math.max(current.seenAt, at);
      gameRows.push({ ...game, updatedAt: stamp, seenAt: iso(seen) });
      Object.assign(current, { row: game, updatedAt: at, seenAt: seen });
      changedGames.add(game.id);
    } else if (current.seenAt < at) {
      onlySeen.push(game.id);
      current.seenAt = at;
    }
  }
  sql.write('Game', GAME_COLUMNS, gameRows, { key: ['id'] });
  if (onlySeen.length) {
    sql.add('seen', `UPDATE "Game" SET "seenAt" = ${sql.param(stamp)}::timestamp(3) WHERE "id" = ANY(${sql.param(onlySeen)}::int[]) AND (SELECT ok FROM v)`);
  }

  const boxRows: object[] = [];
  for (const box of doc.boxscores) {
    const current = state.boxscores.get(box.gameId);
    if (current && (current.updatedAt > at || sameFields(current.row, box))) continue;
    boxRows.push({ ...box, updatedAt: stamp });
    state.boxscores.set(box.gameId, { row: box, updatedAt: at });
    changedGames.add(box.gameId);
  }
  sql.write('Boxscore', BOXSCORE_COLUMNS, boxRows, { key: ['gameId'] });

  // Quotes: the document against memory. Each changed quote is sent once; the history rows are the
  // ones whose point or price moved, stamped with the time it moved (this document's).
  const quoteRows: object[] = [];
  let historyRows = 0;
  const incoming = new Set<string>();
  for (const quote of doc.quotes) {
    const key = quoteKey(quote);
    incoming.add(key);
    const current = state.quotes.get(key);
    if (!current) {
      const fresh: QuoteState = { row: quote, isAvailable: true, seenAt: at, changedAt: at, openPoint: quote.point, openAmerican: quote.american, openedAt: at };
      state.quotes.set(key, fresh);
      state.games.get(quote.gameId)!.quoteKeys.add(key);
      quoteRows.push(quoteRecord(fresh, true));
      historyRows++;
      markChanged(quote);
      continue;
    }
    if (current.seenAt > at || current.changedAt > at) continue; // the stored quote is newer
    const priceMoved = current.row.american !== quote.american || (current.row.point ?? null) !== quote.point;
    const otherChange =
      !current.isAvailable || current.row.lineStatus !== quote.lineStatus || current.row.outcomeId !== quote.outcomeId || current.row.teamId !== quote.teamId;
    if (!priceMoved && !otherChange) continue;
    Object.assign(current, { row: quote, isAvailable: true, seenAt: at, changedAt: priceMoved ? at : current.changedAt });
    quoteRows.push(quoteRecord(current, priceMoved));
    markChanged(quote);
    if (priceMoved) historyRows++;
  }
  // Withdrawal is news about the quote: it moves seenAt, so that an older document cannot revive it.
  for (const gameId of gameIds) {
    for (const key of state.games.get(gameId)!.quoteKeys) {
      const q = state.quotes.get(key)!;
      if (!q.isAvailable || incoming.has(key) || q.seenAt > at) continue;
      Object.assign(q, { isAvailable: false, seenAt: at });
      quoteRows.push(quoteRecord(q, false));
      markChanged(q.row);
    }
  }
  if (quoteRows.length) {
    sql.rows('q', QUOTE_INPUT, quoteRows);
    sql.write('Quote', QUOTE_COLUMNS, { from: 'q' }, { key: QUOTE_KEY, keep: ['openPoint', 'openAmerican', 'openedAt'] });
  }
  if (historyRows) {
    sql.add('h', `INSERT INTO "OddsHistory" ("gameId", "bookId", "marketType", "period", "side", "isLive", "point", "american", "seenAt")
      SELECT "gameId", "bookId", "marketType", "period", "side", "isLive", "point", "american", "changedAt" FROM q WHERE "moved" AND (SELECT ok FROM v)`);
  }

  const bettingRows: object[] = [];
  for (const row of doc.publicBetting) {
    const key = bettingKey(row);
    const current = state.betting.get(key);
    // numBets is the game's bet count, repeated on every row: readers take it from the game, so a
    // change of it alone (every capture of a busy game) rewrites no betting row.
    // The key fields are equal by construction: only the two percentages can differ.
    const same = current && current.row.ticketsPercent === row.ticketsPercent && current.row.moneyPercent === row.moneyPercent;
    if (current && (current.updatedAt > at || same)) continue;
    bettingRows.push({ ...row, updatedAt: stamp });
    state.betting.set(key, { row, updatedAt: at });
  }
  if (bettingRows.length) {
    sql.rows('b', BETTING_COLUMNS, bettingRows);
    sql.write('PublicBetting', BETTING_COLUMNS, { from: 'b' }, { key: BETTING_KEY });
  }

  const sweep = sweepDue(state, at, new Set(gameIds));
  if (sweep) {
    const live = LIVE_STATUSES.map((s) => `'${s}'`).join(', ');
    const cut = sql.param(iso(at - LOST_GAME_AFTER_MS));
    sql.add('lost', `UPDATE "Game" SET "status" = '${LOST_GAME_STATUS}', "statusDisplay" = '${LOST_GAME_DISPLAY}', "updatedAt" = ${sql.param(stamp)}::timestamp(3)
      WHERE "status" IN (${live}) AND "startTime" < ${cut}::timestamp(3) AND COALESCE("seenAt", "updatedAt") < ${cut}::timestamp(3)
        AND "id" <> ALL(${sql.param(gameIds)}::int[]) AND (SELECT ok FROM v) RETURNING "id"`);
  }

  // The change log entry rides in the same statement, so no change commits without its sequence.
  if (changedGames.size || changedMarkets.size || sweep) {
    const entry = { seenAt: stamp, games: [...changedGames], markets: [...changedMarkets.values()], lostGames: sweep, prune: changeLogPruneDue(version) };
    for (const [name, part] of changeLogParts((value) => sql.param(value), entry)) sql.add(name, part);
  }
  return {
    state, sweep, at, text: sql.text(sweep ? ', ARRAY(SELECT "id" FROM lost) AS lost' : ''), params: sql.params,
    changedGames, changedMarkets, quotesChanged: quoteRows.length, historyRows,
  };
}

/** Sends a capture's statement; null when the ingest counter showed another writer (nothing was written). */
async function sendCapture(prisma: PrismaClient, capture: Capture): Promise<ChangeSet | null> {
  const { state, sweep, at, changedGames, changedMarkets } = capture;
  const raw = rawQueryOf(prisma);
  type Result = { version: bigint | string; ok: boolean; lost?: number[] };
  const [result] = raw ? ((await raw(capture.text, capture.params)) as Result[]) : await prisma.$queryRawUnsafe<Result[]>(capture.text, ...capture.params);
  if (!result?.ok) return null;
  if (sweep) {
    state.lastSweep = at;
    for (const id of result.lost ?? []) {
      changedGames.add(Number(id));
      const game = state.games.get(Number(id));
      if (game) Object.assign(game, { row: { ...game.row, status: LOST_GAME_STATUS, statusDisplay: LOST_GAME_DISPLAY }, updatedAt: at });
    }
    forgetOldGames(state, at);
  }
  return { games: [...changedGames], markets: [...changedMarkets.values()], quotesChanged: capture.quotesChanged, historyRows: capture.historyRows, version: Number(result.version) };
}

function quoteRecord(q: QuoteState, moved: boolean): object {
  return { ...q.row, isAvailable: q.isAvailable, seenAt: iso(q.seenAt), changedAt: iso(q.changedAt), openPoint: q.openPoint, openAmerican: q.openAmerican, openedAt: iso(q.openedAt), moved };
}

/**
 * Whether the lost-game sweep should run with this capture: once after (re)loading, since games this
 * process never saw may be stuck; then when a game in memory has been in progress without being
 * carried for LOST_GAME_AFTER_MS, checked at most every SWEEP_EVERY_MS of feed time.
 */
function sweepDue(state: State, at: number, carried: ReadonlySet<number>): boolean {
  if (state.lastSweep === 0) return true;
  if (at - state.lastSweep < SWEEP_EVERY_MS) return false;
  for (const [id, game] of state.games) {
    if (!carried.has(id) && LIVE_STATUSES.includes(game.row.status) && game.seenAt < at - LOST_GAME_AFTER_MS) return true;
  }
  return false;
}

/** Games no document has carried for FORGET_AFTER_MS leave memory (they are read again if they return). */
function forgetOldGames(state: State, at: number): void {
  const gone = new Set<number>();
  for (const [id, game] of state.games) {
    if (game.seenAt >= at - FORGET_AFTER_MS) continue;
    for (const key of game.quoteKeys) state.quotes.delete(key);
    state.boxscores.delete(id);
    state.games.delete(id);
    gone.add(id);
  }
  if (gone.size) for (const [key, b] of state.betting) if (gone.has(b.row.gameId)) state.betting.delete(key);
}
