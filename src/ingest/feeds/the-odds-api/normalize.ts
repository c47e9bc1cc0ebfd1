import { americanToDecimal, decimalToAmerican, decimalToFractional, hasLine, InvalidOddsError, MARKET_TYPE_TABLE, SIDES_BY_MARKET, type StoredMarketType } from '../../../domain';
import { inInt32, type BoxscoreRow, type GameIdentity, type GameRow, type NormalizedDocument, type QuoteRow, type SportsbookRow } from '../../feed-rows';
import { LEAGUE_ID_NBA, LEAGUE_ID_WNBA, seasonPhaseOn, teamByName } from '../../reference-data';
import { FeedDocumentError, formatPath } from '../feed-document-error';
import { bookOf, fnv1a } from './books';
import { marketOfKey, propOfKey } from './markets';
import { ODDS_API_EVENTS, ODDS_API_HISTORICAL, type OddsApiEvent } from './schema';

/** The source name (`meta.source_ids` key, quotes' source). */
export const ODDS_API_SOURCE = 'the-odds-api';

/** Sport keys of the leagues this service serves; events of other sports are skipped. */
export const ODDS_API_LEAGUES: Readonly<Record<string, number>> = {
  basketball_nba: LEAGUE_ID_NBA,
  basketball_wnba: LEAGUE_ID_WNBA,
};

/**
 * Game ids of games only The Odds API knows (its ids are 32-hex strings): 1,500,000,000 + a hash of
 * the string id, so a game keeps its id across restarts and a re-ingest into a fresh store, and never
 * meets the integer ids of Action Network (six digits) or the simulator. Two string ids hashing alike
 * are told apart by src/ingest/store/game-identity.ts (the later one takes the next free id).
 */
export const ODDS_API_GAME_IDS = { from: 1_500_000_000, size: 600_000_000 } as const;

export function oddsApiGameId(eventId: string): number {
  return ODDS_API_GAME_IDS.from + (fnv1a(eventId) % ODDS_API_GAME_IDS.size);
}

export interface OddsApiOptions {
  /** The capture's time: in-play is derived from it (the format has no live flag). */
  fetchedAt: Date;
  /** `decimal` or `american` as requested (`oddsFormat`); null: guessed from the prices. */
  oddsFormat: string | null;
  /** The capture's `endpoint` label, when recorded (`.../events/{id}/odds` is the event-odds endpoint). */
  endpoint?: string | undefined;
}

/** The body's events: an array, or the historical endpoints' `{timestamp, data}`. */
function eventsOf(body: unknown, name: string): { events: OddsApiEvent[]; at: Date | null } {
  // The live event-odds endpoint answers one event, not a list: read it as a list of one.
  const single = !!body && typeof body === 'object' && !Array.isArray(body) && !('timestamp' in body) && 'commence_time' in body;
  const parsed = Array.isArray(body) || single ? ODDS_API_EVENTS.safeParse(single ? [body] : body) : ODDS_API_HISTORICAL.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new FeedDocumentError(name, formatPath(issue.path), issue.message);
  }
  if (Array.isArray(parsed.data)) return { events: parsed.data, at: null };
  const { data, timestamp } = parsed.data as { data: OddsApiEvent | OddsApiEvent[]; timestamp: string };
  return { events: Array.isArray(data) ? data : [data], at: new Date(timestamp) };
}

/** Decimal when asked so; otherwise American unless a price is one American odds cannot be (between -100 and 100). */
function isDecimal(events: readonly OddsApiEvent[], oddsFormat: string | null): boolean {
  if (oddsFormat) return oddsFormat.toLowerCase() === 'decimal';
  for (const e of events) for (const b of e.bookmakers ?? []) for (const m of b.markets) for (const o of m.outcomes) if (Math.abs(o.price) < 100) return true;
  return false;
}

/**
 * One response of The Odds API v4 as rows. Each event of a served league becomes a game (matched to a
 * stored game of another source by src/ingest/store/game-identity.ts), its prices quotes of the books that
 * quote them: live when the capture was taken at or after `commence_time`, pregame before. Events
 * of other sports are skipped; those with teams the reference data does not know too, each named in
 * the document's `skipped` (the ingest logs it).
 */
export function normalizeOddsApi(body: unknown, name: string, options: OddsApiOptions): NormalizedDocument {
  const { events, at } = eventsOf(body, name);
  const fetchedAt = at ?? options.fetchedAt;
  const decimal = isDecimal(events, options.oddsFormat);
  const out: NormalizedDocument = { source: ODDS_API_SOURCE, identities: [], books: [], league: null, teams: [], games: [], boxscores: [], quotes: [], publicBetting: [] };
  const books = new Map<number, SportsbookRow>();
  let carriesQuotes = false;
  let gameQuotes = 0;
  let propQuotes = 0;
  const seen = new Set<string>();
  events.forEach((event, index) => {
    const leagueId = ODDS_API_LEAGUES[event.sport_key];
    if (leagueId === undefined || seen.has(event.id)) return;
    const home = event.home_team ? teamByName(leagueId, event.home_team) : undefined;
    const away = event.away_team ? teamByName(leagueId, event.away_team) : undefined;
    if (!home || !away || home.id === away.id) {
      const unknown = [home ? undefined : event.home_team ?? null, away ? undefined : event.away_team ?? null].filter((team) => team !== undefined);
      const reason = unknown.length
        ? `${unknown.map((team) => JSON.stringify(team)).join(' and ')} ${unknown.length > 1 ? 'are not teams' : 'is not a team'} of ${event.sport_key} (src/ingest/reference-data.ts)`
        : `home and away are the same team (${JSON.stringify(event.home_team)})`;
      (out.skipped ??= []).push({ path: `[${index}]`, reason: `event ${event.id} skipped: ${reason}` });
      return;
    }
    seen.add(event.id);
    const gameId = oddsApiGameId(event.id);
    const startTime = new Date(event.commence_time);
    const live = fetchedAt.getTime() >= startTime.getTime();
    out.identities!.push({ gameId, sourceId: event.id, leagueId, homeTeamId: home.id, awayTeamId: away.id, startTime, simulated: event.simulated === true });
    const { game, boxscore } = gameOf(event, gameId, leagueId, home.id, away.id, live);
    out.games.push(game);
    if (boxscore) out.boxscores.push(boxscore);
    if (event.bookmakers) carriesQuotes = true;
    const path = `[${index}]`;
    const taken = new Set<string>();
    (event.bookmakers ?? []).forEach((bookmaker, b) => {
      const book = bookOf(bookmaker.key, bookmaker.title);
      if (book.row) books.set(book.id, book.row);
      bookmaker.markets.forEach((market, m) => {
        const prop = propOfKey(market.key);
        if (prop) {
          market.outcomes.forEach((o, k) => {
            const where = `${path}.bookmakers[${b}].markets[${m}].outcomes[${k}]`;
            const side = SIDES_BY_MARKET[prop.market].find((s) => s === o.name.toLowerCase());
            if (!side) throw new FeedDocumentError(name, `${where}.name`, `${JSON.stringify(o.name)} is not a side of ${market.key}`);
            const player = o.description?.trim();
            if (!player) throw new FeedDocumentError(name, `${where}.description`, `a ${market.key} outcome needs its player`);
            const hasLine = side === 'over' || side === 'under';
            if (hasLine && o.point == null) throw new FeedDocumentError(name, `${where}.point`, `a ${market.key} outcome needs its point`);
            const point = hasLine ? (o.point ?? null) : null;
            // A book may list a player's prop at several lines even in the main market (DraftKings,
            // Kelsey Plum 18.5 and 19.5): the first is its main line, the others are kept as alternates.
            const main = `${book.id}|${prop.market}|${player}|${side}|`;
            const lineKey = point !== null && (prop.alternate || taken.has(main)) ? String(point) : '';
            const key = main + lineKey;
            if (taken.has(key)) return; // a repeated outcome: the first wins
            taken.add(key);
            out.quotes.push({
              gameId, bookId: book.id, marketType: prop.market, period: 'full_game', side, isLive: live, outcomeId: null, teamId: null, point,
              ...pricesAt(o.price, decimal, name, `${where}.price`), lineStatus: lineKey ? 'alternate' : 'normal', playerName: player, lineKey,
              // A team the reference data does not know is no team (never a guess).
              playerTeamId: o.team ? (teamByName(leagueId, o.team)?.id ?? null) : null,
            } satisfies QuoteRow);
            propQuotes++;
          });
          return;
        }
        const kind = marketOfKey(market.key);
        if (!kind) return;
        market.outcomes.forEach((o, k) => {
          const where = `${path}.bookmakers[${b}].markets[${m}].outcomes[${k}]`;
          const placed = placeOutcome(kind.market, o.name, o.description, event);
          if (!placed) throw new FeedDocumentError(name, `${where}.name`, `${JSON.stringify(o.name)} is not a side of ${market.key} in ${event.away_team} at ${event.home_team}`);
          const key = `${book.id}|${placed.marketType}|${kind.period}|${placed.side}`;
          if (taken.has(key)) return; // a repeated outcome: the first wins
          taken.add(key);
          if (hasLine(placed.marketType) && o.point == null) throw new FeedDocumentError(name, `${where}.point`, `a ${market.key} outcome needs its point`);
          const prices = pricesAt(o.price, decimal, name, `${where}.price`);
          gameQuotes++;
          out.quotes.push({
            gameId,
            bookId: book.id,
            marketType: placed.marketType,
            period: kind.period,
            side: placed.side,
            isLive: live,
            outcomeId: null,
            teamId: placed.side === 'home' ? home.id : placed.side === 'away' ? away.id : placed.marketType === 'home_team_total' ? home.id : placed.marketType === 'away_team_total' ? away.id : null,
            point: hasLine(placed.marketType) ? (o.point ?? null) : null,
            ...prices,
            lineStatus: 'normal',
          } satisfies QuoteRow);
        });
      });
    });
  });
  out.books = [...books.values()];
  out.carriesQuotes = carriesQuotes;
  // A capture withdraws only the kind of prices it carries: the event-odds endpoint's props do not
  // withdraw the odds endpoint's game markets, nor the other way round.
  // An event-odds capture without any price is taken as one of props (what this service asks it for).
  out.quoteKind = propQuotes && gameQuotes ? 'all' : propQuotes || (!gameQuotes && /\/events\/[^/]+\/odds/.test(options.endpoint ?? '')) ? 'props' : 'game';
  return out;
}

/** pricesOf, with a refused price named by its path. */
function pricesAt(price: number, decimal: boolean, name: string, where: string): { american: number; decimal: number; fractional: string } {
  try {
    return pricesOf(price, decimal);
  } catch (error) {
    if (error instanceof InvalidOddsError) throw new FeedDocumentError(name, where, error.message);
    throw error;
  }
}

/** The three forms of a price: a decimal kept exactly as quoted (American derived), or an American one. */
function pricesOf(price: number, decimal: boolean): { american: number; decimal: number; fractional: string } {
  const american = decimal ? decimalToAmerican(price) : Math.round(price);
  // Stored as an `int`: a decimal a hair above 1 (or a vast one) has no American price that fits.
  if (!inInt32(american)) throw new InvalidOddsError(`Invalid odds ${String(price)}: the American price is beyond a 32-bit integer`);
  const d = decimal ? price : americanToDecimal(american);
  return { american, decimal: d, fractional: decimalToFractional(d) };
}

/** Which side of which stored market an outcome is: by team name (never by position), or Over/Under. */
function placeOutcome(
  market: StoredMarketType | 'team_total',
  name: string,
  description: string | null | undefined,
  event: OddsApiEvent,
): { marketType: StoredMarketType; side: string } | null {
  const overUnder = /^over$/i.test(name) ? 'over' : /^under$/i.test(name) ? 'under' : null;
  if (market !== 'team_total' && MARKET_TYPE_TABLE[market].sides[0] === 'over') return overUnder ? { marketType: market, side: overUnder } : null;
  if (market === 'team_total') {
    if (!overUnder) return null;
    if (description === event.home_team) return { marketType: 'home_team_total', side: overUnder };
    if (description === event.away_team) return { marketType: 'away_team_total', side: overUnder };
    return null;
  }
  if (name === event.home_team) return { marketType: market, side: 'home' };
  if (name === event.away_team) return { marketType: market, side: 'away' };
  return null;
}

/**
 * The game row of an event (used as is only for a game no other source knows; see
 * src/ingest/store/game-identity.ts): scheduled before `commence_time`, in progress after it, finished once
 * the scores endpoint says `completed`, with the score it gives.
 */
function gameOf(event: OddsApiEvent, id: number, leagueId: number, homeTeamId: number, awayTeamId: number, live: boolean): { game: GameRow; boxscore: BoxscoreRow | null } {
  const startTime = new Date(event.commence_time);
  const score = (team: string | null | undefined) => {
    const value = event.scores?.find((s) => s.name === team)?.score;
    return value == null || value === '' || Number.isNaN(Number(value)) ? null : Number(value);
  };
  const homeScore = score(event.home_team);
  const awayScore = score(event.away_team);
  const completed = event.completed === true;
  const [status, upstream] = completed ? ['finished', 'complete'] : live || homeScore != null ? ['in_progress', 'inprogress'] : ['scheduled', 'scheduled'];
  const { season, phase } = seasonPhaseOn(leagueId, startTime.toISOString().slice(0, 10));
  const winner = completed && homeScore != null && awayScore != null && homeScore !== awayScore ? (homeScore > awayScore ? homeTeamId : awayTeamId) : null;
  const game: GameRow = {
    id, leagueId, coreId: null, status, upstreamStatus: upstream, realStatus: upstream, statusDisplay: completed ? 'Final' : null, startTime,
    awayTeamId, homeTeamId, winningTeamId: winner, type: phase === 'off' ? null : phase, season: String(season), week: null, attendance: null,
    coverage: null, isFree: false, trending: false, awayRotationNumber: null, homeRotationNumber: null, numBets: null, broadcast: null, series: null,
    meta: { source_ids: { [ODDS_API_SOURCE]: event.id } }, simulated: event.simulated === true,
  };
  const boxscore: BoxscoreRow | null = homeScore != null && awayScore != null
    ? { gameId: id, clock: null, period: null, homeScore, awayScore, periodScores: [], totalPoints: homeScore + awayScore, homeFirstHalf: null, awayFirstHalf: null, homeSecondHalf: null, awaySecondHalf: null }
    : null;
  return { game, boxscore };
}
