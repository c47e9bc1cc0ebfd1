import type DataLoader from 'dataloader';
import type { Database, Player } from '../db/client';
import type { BoxscoreRow, GameRow, LeagueRow, PublicBettingRow, QuoteRow, SportsbookRow, TeamRow } from '../db/odds-repository';
import type { ListingMemo } from './listing-memo';

// What a service reads with: the database, the request's batching loaders, the request's clock and
// the league's time zone. GraphQL's context is one (src/graphql/context.ts builds it per request); a
// caller without GraphQL (webhooks, an MCP tool) builds its own. Services never see a GraphQL type.

/** A batching reader by id (a DataLoader, or anything that answers like one). */
export type ByIdReader<K, V> = Pick<DataLoader<K, V>, 'load' | 'loadMany'>;

/** The loaders services read through: one SQL statement per kind per tick (graphql/loaders.ts makes them). */
export interface ReadLoaders {
  gameById: ByIdReader<number, GameRow | null>;
  teamById: ByIdReader<number, TeamRow | null>;
  leagueById: ByIdReader<number, LeagueRow | null>;
  sportsbookById: ByIdReader<number, SportsbookRow | null>;
  boxscoreByGameId: ByIdReader<number, BoxscoreRow | null>;
  quotesByGameId: ByIdReader<number, QuoteRow[]>;
  playerById: ByIdReader<number, Player | null>;
  publicBettingByGameId: ByIdReader<number, PublicBettingRow[]>;
}

/** The reads and clock of one request (or one pushed event). */
export interface ReadContext {
  db: Database;
  loaders: ReadLoaders;
  /** The request's time: one clock reading per request, so "today" and staleness agree. */
  now: Date;
  /** IANA zone of the league's calendar day (`date` parameters). */
  timeZone: string;
  /** The built listings of the current data version (listing-memo.ts); absent: every page builds its listing. */
  listingMemo?: ListingMemo | undefined;
}
