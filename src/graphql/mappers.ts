// The model behind each GraphQL object type (codegen.yml `mappers`): what a parent resolver returns
// and a child resolver receives. Rows come from Prisma; computed objects are plain records.
import type * as Prisma from '../db/client';
import type { GameAt } from '../services/point-in-time';

/** A game row, with the prices of an instant when it has them (src/services/point-in-time.ts). */
export type Game = GameAt;
export type Team = Prisma.Team;
export type League = Prisma.League;
export type Sportsbook = Prisma.Sportsbook;
export type Player = Prisma.Player;
export type Boxscore = Prisma.Boxscore;
/** A line of a box score of players (with its game's start time where read with it). */
export type PlayerGameLine = Prisma.PlayerGameStat & { startTime?: Date | null };
export type { TeamPlayerStats } from '../services/player-stats';
export type Account = Prisma.Account;
export type { KeyListing as ApiKeyListing } from '../db/account-store';
/** Live deltas keep the spec's snake_case shape: Socket.IO replays send them as they are. */
export type { LiveOddsChange, LiveGameChange, LiveQuoteChange } from '../services/live-deltas';

/** The quotes of one game chosen for display, with the filters the markets field was asked for. */
export interface Markets {
  game: Prisma.Game;
  quotes: Prisma.Quote[];
  /** The game's player props under the same filters, read only when asked for (Markets.playerProps). */
  props?: () => Promise<Prisma.Quote[]>;
}

/** One market of one game: its quotes (one per book and side) already filtered. */
export interface Market {
  game: Prisma.Game;
  marketType: string;
  quotes: Outcome[];
}

/**
 * A quote as an outcome. `teamRow` is the outcome's team when the parent market preloaded the game's
 * two teams: a game page has hundreds of outcomes, and one loader call each was a measurable share
 * of its execution time. `gameRow` is the outcome's game, likewise preloaded (its grade needs the status).
 */
export type Outcome = Prisma.Quote & { teamRow?: Prisma.Team | null; gameRow?: Prisma.Game };

/** One game's consensus record (its quotes and betting rows come from the loaders). */
export interface ConsensusRecord {
  game: Prisma.Game;
}

/** One game's betting figures and the filters asked for (absent: no filter). */
export interface BettingInfo {
  game: Prisma.Game;
  marketTypes?: readonly string[] | undefined;
  bookIds?: readonly number[] | undefined;
}
