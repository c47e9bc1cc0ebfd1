// Rows of one upstream document after normalisation: what src/ingest produces and the feed store
// writes. Field names follow the Prisma models.

import type { MarketType, PlayerLine, StoredMarketType } from '../domain';

export { MARKET_TYPES, type MarketType } from '../domain';

/**
 * The range of PostgreSQL's `int`, the columns of the rows' integers (ids, scores, counts, American
 * odds): a normaliser refuses a document whose integer is beyond it, naming the path, rather than
 * leave the capture's statement to fail ("value out of range for type integer").
 */
export const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 } as const;

/** Whether a number fits an `int` column (INT32). */
export const inInt32 = (v: number): boolean => v >= INT32.min && v <= INT32.max;

export interface TeamRow {
  id: number;
  leagueId: number;
  fullName: string;
  displayName: string;
  shortName: string;
  location: string;
  abbr: string;
  logo: string | null;
  primaryColor: string | null;
  secondaryColor: string | null;
  conferenceType: string | null;
  divisionType: string | null;
  urlSlug: string | null;
  coreId: number | null;
  win: number | null;
  loss: number | null;
  ties: number | null;
  overtimeLosses: number | null;
  draw: number | null;
}

export interface GameRow {
  id: number;
  leagueId: number;
  coreId: string | null;
  status: string;
  upstreamStatus: string;
  realStatus: string;
  statusDisplay: string | null;
  startTime: Date;
  awayTeamId: number;
  homeTeamId: number;
  winningTeamId: number | null;
  type: string | null;
  season: string | null;
  week: number | null;
  attendance: number | null;
  coverage: string | null;
  isFree: boolean;
  trending: boolean;
  awayRotationNumber: number | null;
  homeRotationNumber: number | null;
  numBets: number | null;
  broadcast: Record<string, unknown> | null;
  series: unknown;
  meta: Record<string, unknown> | null;
  simulated: boolean;
}

export interface BoxscoreRow {
  gameId: number;
  clock: string | null;
  period: number | null;
  homeScore: number | null;
  awayScore: number | null;
  periodScores: Array<{ period: number; home: number; away: number }>;
  totalPoints: number | null;
  homeFirstHalf: number | null;
  awayFirstHalf: number | null;
  homeSecondHalf: number | null;
  awaySecondHalf: number | null;
}

/** What identifies one current quote (the unique key of the quotes table). */
export interface QuoteKey {
  gameId: number;
  bookId: number;
  /** One of the three markets or a core team-score market (home_team_total, away_team_total). */
  marketType: StoredMarketType;
  period: string;
  side: string;
  isLive: boolean;
  /** Player props: the player's id (absent or 0 on game markets); src/ingest/store/players.ts fills it from `playerName`. */
  playerId?: number;
  /** A book's alternate line of a prop: its point as text; absent or '' on main lines. */
  lineKey?: string;
}

export interface QuoteRow extends QuoteKey {
  /** Player props: the player's name as the source spells it, matched to a player before the diff. */
  playerName?: string;
  /**
   * Player props: the player's current team when the source says it (the simulator does; The Odds
   * API does not), set on the player by src/ingest/store/players.ts. Absent or null: the stored team is kept.
   */
  playerTeamId?: number | null;
  outcomeId: string | null;
  teamId: number | null;
  point: number | null;
  american: number;
  /** As quoted where the source quotes decimals (kept exactly); else derived from `american`. */
  decimal: number;
  fractional: string;
  lineStatus: string;
}

export interface PublicBettingRow {
  gameId: number;
  bookId: number;
  marketType: MarketType;
  period: string;
  side: string;
  ticketsPercent: number | null;
  moneyPercent: number | null;
  numBets: number | null;
}

export interface LeagueRow {
  id: number;
  currentSeason: string | null;
  currentSeasonType: string | null;
  isActive: boolean | null;
}

/** A book a document quotes that the reference data may not list (stored once, never renamed by a feed). */
export interface SportsbookRow {
  id: number;
  name: string;
  nameKnown: boolean;
  kind: string;
  isAggregate: boolean;
  isSharp: boolean;
}

/**
 * How a game of a document is found among the stored games, whichever source created it
 * (src/ingest/store/game-identity.ts): by its upstream id once linked, else by league, home and away team and
 * start time. `gameId` is the id the document's rows carry until then: the source's own stable id for
 * the game (Action Network's integer id, a hash of The Odds API's string id).
 */
export interface GameIdentity {
  gameId: number;
  /** The upstream id as text (as `meta.source_ids` names it, a number for Action Network). */
  sourceId: string;
  leagueId: number;
  homeTeamId: number;
  awayTeamId: number;
  startTime: Date;
  /** A simulated game (the simulator's props) is matched only to simulated games, a real one only to real ones. */
  simulated: boolean;
}

export interface NormalizedDocument {
  /** The feed format that said it (`meta.source_ids` key, the source of quotes and history rows). */
  source: string;
  /**
   * False for a document that carries games but no prices (scores, events): it withdraws no quote.
   * Otherwise a quote of this source that the document no longer carries, for a game it carries, is withdrawn.
   */
  carriesQuotes?: boolean;
  /**
   * Which quotes the document speaks for (default `game`): a capture of a game's props withdraws only
   * that source's props of the game, and a capture of its game markets only those (The Odds API
   * serves them from two endpoints).
   */
  quoteKind?: 'game' | 'props' | 'all';
  /** Games to match to stored ones (of any source); rows are renumbered to the matched game. */
  identities?: GameIdentity[];
  /**
   * The source is the scoreboard (Action Network): it describes (status, score, start time) every game
   * it carries, also one another source created first. Other sources' documents only add their ids and
   * prices to a game another source names (src/ingest/store/feed-diff.ts).
   */
  scoreboard?: boolean;
  /** Books to create when missing. */
  books?: SportsbookRow[];
  league: LeagueRow | null;
  teams: TeamRow[];
  games: GameRow[];
  boxscores: BoxscoreRow[];
  quotes: QuoteRow[];
  publicBetting: PublicBettingRow[];
  /**
   * What the document carries that the format leaves out on purpose and an operator should hear of:
   * an event of a served league whose team the reference data does not know (an All-Star team, an
   * exhibition opponent), with its path in the document.
   */
  skipped?: SkippedPart[];
  /**
   * Box scores with players (ESPN's summary): each game's player lines, stored after the capture's
   * statement by src/ingest/store/player-stats.ts (players linked across sources there).
   */
  playerBoxscores?: PlayerBoxscoreRow[];
}

/** One player's line in a box score: ESPN's athlete id and name, the team, the line parsed and as written. */
export interface PlayerLineRow {
  gameId: number;
  athleteId: string;
  name: string;
  teamId: number;
  line: PlayerLine;
  /** The statistics exactly as the summary writes them, by its column name (`MIN`, `FG`, `3PT`, ...). */
  stats: Record<string, string>;
}

/** A game's box score of players: the event it is, whether it is final, its columns per team and its lines. */
export interface PlayerBoxscoreRow {
  gameId: number;
  source: string;
  eventId: string;
  final: boolean;
  columns: Array<{ teamId: number; labels: string[]; keys: string[] }>;
  lines: PlayerLineRow[];
}

/** A part of an upstream document left out of its rows (NormalizedDocument.skipped). */
export interface SkippedPart {
  path: string;
  reason: string;
}

