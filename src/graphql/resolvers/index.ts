import type { Resolvers } from '../__generated__/resolvers-types';
import { Account, AdminQuery, ApiKeyListing, Mutation } from './Admin';
import { ClosingQuery, OutcomeGrade } from './Closing';
import { BettingInfo, ConsensusRecord } from './Consensus';
import { OutcomeFreshness } from './Freshness';
import { Boxscore, Game } from './Game';
import { CoreBetTypes, Market, Markets, Outcome } from './Market';
import { ListingQuery } from './Listing';
import { MiddlesQuery } from './Middles';
import { SignalsQuery, SignalsSubscription } from './Signals';
import { LiveHistoricalQuery } from './LiveHistorical';
import { LiveMovementQuery } from './LiveMovement';
import { LiveOdds, LiveOddsFields, LiveQuery } from './LiveOdds';
import { OddsStreamSubscription } from './OddsStream';
import { LiveGameChange, LiveOddsChange, LiveQuoteChange } from './LiveOddsChange';
import { Player, PlayerGameLine, PlayerQuery } from './Player';
import { Query } from './Query';
import { enumResolvers } from '../enums';
import { scalarResolvers } from './scalars';
import { Subscription } from './Subscription';
import { League, Sportsbook, Team } from './Team';
import { WebhookMutation, WebhookQuery } from './Webhook';

// Every resolver map of the schema. makeExecutableSchema merges the list, so an area adds its own
// file (e.g. Listing.ts exporting `{ Query: {...}, Listing: {...} }`) and one line below.
export const resolvers: Resolvers[] = [
  scalarResolvers,
  enumResolvers,
  { Query, Mutation },
  { Query: AdminQuery, Account, ApiKeyListing },
  { Game, Boxscore, Team, League, Sportsbook },
  { Query: PlayerQuery, Player, PlayerGameLine },
  { Markets, Market, Outcome, CoreBetTypes },
  { ConsensusRecord, BettingInfo },
  { Query: ListingQuery },
  { Query: MiddlesQuery },
  { Query: SignalsQuery, Subscription: SignalsSubscription },
  { Query: LiveQuery, LiveOdds, ...LiveOddsFields },
  { Query: LiveMovementQuery },
  { Query: LiveHistoricalQuery },
  { Query: ClosingQuery, Outcome: OutcomeGrade },
  { Subscription, LiveOddsChange, LiveGameChange, LiveQuoteChange },
  { Subscription: OddsStreamSubscription },
  { Outcome: OutcomeFreshness },
  { Query: WebhookQuery, Mutation: WebhookMutation },
];
