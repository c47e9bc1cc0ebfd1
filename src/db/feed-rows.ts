// Rows of one upstream document after normalisation: what src/ingest produces and the feed store
// writes. Field names follow the Prisma models.

import type { MarketType, StoredMarketType } from '../domain';

export { MARKET_TYPES, type MarketType } from '../domain';

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
}

export interface QuoteRow extends QuoteKey {
  outcomeId: string | null;
  teamId: number | null;
  point: number | null;
  american: number;
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

export interface NormalizedDocument {
  league: LeagueRow | null;
  teams: TeamRow[];
  games: GameRow[];
  boxscores: BoxscoreRow[];
  quotes: QuoteRow[];
  publicBetting: PublicBettingRow[];
}

