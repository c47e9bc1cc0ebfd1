import { z } from 'zod';

/**
 * The Odds API v4 responses the ingest reads, as zod: `/v4/sports/{sport}/odds` (events with
 * bookmakers), `/v4/sports/{sport}/events` (events without them), `/v4/sports/{sport}/scores` (events
 * with `completed` and `scores`), and the historical endpoints' wrapper `{timestamp, data}`. Objects
 * are not strict: keys this service does not read are ignored, so a response that grows keeps flowing.
 * Derived from the real captures in test/fixtures/feeds/theoddsapi/ and, for scores, from the public
 * documentation (no real capture of it was found).
 */
const outcome = z.object({
  name: z.string(),
  price: z.number(),
  point: z.number().nullish(),
  /** The team of a team total, the player of a prop. */
  description: z.string().nullish(),
  /**
   * Not in The Odds API's responses: the simulator's props (src/ingest/simulator/props.ts) name the
   * player's team here (its full name). Real props leave the team unknown (docs/player-props.md).
   */
  team: z.string().nullish(),
});

const market = z.object({
  key: z.string(),
  last_update: z.string().nullish(),
  outcomes: z.array(outcome),
});

const bookmaker = z.object({
  key: z.string().min(1),
  title: z.string().nullish(),
  last_update: z.string().nullish(),
  markets: z.array(market),
});

const isoTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO 8601 time');

const event = z.object({
  id: z.string().min(1),
  sport_key: z.string(),
  commence_time: isoTime,
  home_team: z.string().nullish(),
  away_team: z.string().nullish(),
  bookmakers: z.array(bookmaker).nullish(),
  /** Scores endpoint only. */
  completed: z.boolean().nullish(),
  scores: z.array(z.object({ name: z.string(), score: z.string().nullish() })).nullish(),
  /** Never sent by The Odds API: the simulator's own events (its demo props) say so. */
  simulated: z.boolean().nullish(),
  last_update: z.string().nullish(),
});

export const ODDS_API_EVENTS = z.array(event);
/** The historical endpoints wrap the same body: `{timestamp, previous_timestamp, next_timestamp, data}`. */
export const ODDS_API_HISTORICAL = z.object({ timestamp: isoTime, data: z.union([z.array(event), event]) });

export type OddsApiEvent = z.infer<typeof event>;
export type OddsApiBookmaker = z.infer<typeof bookmaker>;
export type OddsApiMarket = z.infer<typeof market>;
export type OddsApiOutcome = z.infer<typeof outcome>;
