import { z } from 'zod';
import { americanToDecimal, decimalToFractional, InvalidOddsError } from '../domain/odds-format';
import type { MarketType, NormalizedDocument } from '../db/feed-rows';
import { MARKET_TYPES, SIDES_BY_MARKET } from '../domain';
import { mapStatus } from './status-map';

// The upstream v2 scoreboard, as far as the service reads it. Objects are not strict: unknown keys
// are ignored, so a feed that grows new fields keeps flowing.
const nullableInt = z.number().int().nullish();
const nullableString = z.string().nullish();

const standings = z
  .object({ win: nullableInt, loss: nullableInt, ties: nullableInt, overtime_losses: nullableInt, draw: nullableInt })
  .nullish();

const feedTeam = z.object({
  id: z.number().int(),
  full_name: z.string(),
  display_name: nullableString,
  short_name: nullableString,
  location: nullableString,
  abbr: z.string(),
  logo: nullableString,
  primary_color: nullableString,
  secondary_color: nullableString,
  conference_type: nullableString,
  division_type: nullableString,
  url_slug: nullableString,
  standings,
  core_id: nullableInt,
});

const feedOutcome = z.object({
  outcome_id: z.union([z.string(), z.number()]).nullish(),
  book_id: z.number().int().nullish(),
  type: z.string().nullish(),
  side: z.string(),
  period: z.string().nullish(),
  team_id: nullableInt,
  odds: z.number().nullable(),
  value: z.number().nullish(),
  is_live: z.boolean().nullish(),
  line_status: nullableString,
  is_alt_market: z.boolean().nullish(),
  bet_info: z
    .object({
      tickets: z.object({ percent: z.number().nullish() }).nullish(),
      money: z.object({ percent: z.number().nullish() }).nullish(),
    })
    .nullish(),
});

const linescore = z.object({ away_points: nullableInt, home_points: nullableInt });

const feedBoxscore = z.object({
  clock: nullableString,
  period: nullableInt,
  linescore: z.array(linescore.nullable()).nullish(),
  total_away_points: nullableInt,
  total_home_points: nullableInt,
  total_away_firsthalf_points: nullableInt,
  total_home_firsthalf_points: nullableInt,
  total_away_secondhalf_points: nullableInt,
  total_home_secondhalf_points: nullableInt,
});

const isoTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO 8601 timestamp');

const feedGame = z.object({
  id: z.number().int().positive(),
  league_id: z.number().int(),
  status: z.string().min(1),
  real_status: nullableString,
  status_display: nullableString,
  start_time: isoTime,
  away_team_id: z.number().int(),
  home_team_id: z.number().int(),
  winning_team_id: nullableInt,
  type: nullableString,
  season: z.union([z.number(), z.string()]).nullish(),
  week: nullableInt,
  attendance: nullableInt,
  coverage: nullableString,
  is_free: z.boolean().nullish(),
  trending: z.boolean().nullish(),
  away_rotation_number: nullableInt,
  home_rotation_number: nullableInt,
  num_bets: nullableInt,
  core_id: z.union([z.number(), z.string()]).nullish(),
  teams: z.array(feedTeam).nullish(),
  meta: z.record(z.string(), z.unknown()).nullish(),
  broadcast: z.record(z.string(), z.unknown()).nullish(),
  series: z.unknown().optional(),
  boxscore: feedBoxscore.nullish(),
  markets: z
    .record(z.string().regex(/^\d+$/, 'book ids are integers'), z.record(z.string(), z.record(z.string(), z.array(feedOutcome))))
    .nullish(),
});

const feedLeague = z.object({
  id: z.number().int(),
  current_season: z.union([z.string(), z.number()]).nullish(),
  current_season_type: nullableString,
  is_active: z.boolean().nullish(),
});

const feedDocument = z.object({
  league: feedLeague.nullish(),
  games: z.array(feedGame),
  simulated: z.boolean().optional(),
});

export type FeedDocumentInput = z.input<typeof feedDocument>;


/** Upstream period keys and the spec's names for them. */
const PERIODS: Readonly<Record<string, string>> = {
  event: 'full_game',
  game: 'full_game',
  firsthalf: 'first_half',
  secondhalf: 'second_half',
  firstquarter: 'first_quarter',
  secondquarter: 'second_quarter',
  thirdquarter: 'third_quarter',
  fourthquarter: 'fourth_quarter',
};

interface PriceForms {
  decimal: number;
  fractional: string;
}
const priceCache = new Map<number, PriceForms>();

/** Decimal and fractional forms of an American price, memoised: a feed uses a few hundred distinct prices. */
function priceForms(american: number): PriceForms {
  let forms = priceCache.get(american);
  if (!forms) {
    const decimal = americanToDecimal(american);
    forms = { decimal, fractional: decimalToFractional(decimal) };
    if (priceCache.size > 10_000) priceCache.clear();
    priceCache.set(american, forms);
  }
  return forms;
}

/** A document that cannot be ingested: `path` points inside it, `reason` says what is wrong. */
export class FeedDocumentError extends Error {
  constructor(
    readonly document: string,
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${document}: ${path || '(document)'}: ${reason}`);
  }
}

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : /^[A-Za-z_]\w*$/.test(String(part)) ? `${i ? '.' : ''}${String(part)}` : `[${JSON.stringify(part)}]`))
    .join('');
}

/**
 * Validates one upstream scoreboard document and turns it into rows. Throws FeedDocumentError naming
 * `documentName`, the path inside the document and the problem. Markets the service does not serve
 * (alternate lines, team totals, props) are skipped, not rejected.
 */
export function normalizeDocument(raw: unknown, documentName: string): NormalizedDocument {
  const parsed = feedDocument.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new FeedDocumentError(documentName, formatPath(issue.path), issue.message);
  }
  const doc = parsed.data;
  const simulatedDoc = doc.simulated === true;
  const out: NormalizedDocument = {
    league: doc.league
      ? {
          id: doc.league.id,
          currentSeason: doc.league.current_season == null ? null : String(doc.league.current_season),
          currentSeasonType: doc.league.current_season_type ?? null,
          isActive: doc.league.is_active ?? null,
        }
      : null,
    teams: [],
    games: [],
    boxscores: [],
    quotes: [],
    publicBetting: [],
  };
  const teamsSeen = new Set<number>();
  const gamesSeen = new Set<number>();

  doc.games.forEach((game, gi) => {
    const at = (suffix: string) => `games[${gi}]${suffix}`;
    if (gamesSeen.has(game.id)) throw new FeedDocumentError(documentName, at('.id'), `game ${game.id} appears twice`);
    gamesSeen.add(game.id);
    if (game.away_team_id === game.home_team_id) {
      throw new FeedDocumentError(documentName, at('.home_team_id'), 'home and away team are the same');
    }
    for (const team of game.teams ?? []) {
      if (teamsSeen.has(team.id)) continue;
      teamsSeen.add(team.id);
      out.teams.push({
        id: team.id,
        leagueId: game.league_id,
        fullName: team.full_name,
        displayName: team.display_name ?? team.full_name,
        shortName: team.short_name ?? team.display_name ?? team.full_name,
        location: team.location ?? '',
        abbr: team.abbr,
        logo: team.logo ?? null,
        primaryColor: team.primary_color?.replace(/^#/, '').toUpperCase() ?? null,
        secondaryColor: team.secondary_color?.replace(/^#/, '').toUpperCase() ?? null,
        conferenceType: team.conference_type?.toUpperCase() ?? null,
        divisionType: team.division_type?.toUpperCase() ?? null,
        urlSlug: team.url_slug ?? null,
        coreId: team.core_id ?? null,
        win: team.standings?.win ?? null,
        loss: team.standings?.loss ?? null,
        ties: team.standings?.ties ?? null,
        overtimeLosses: team.standings?.overtime_losses ?? null,
        draw: team.standings?.draw ?? null,
      });
    }
    const simulated = simulatedDoc || game.meta?.['simulated'] === true;
    out.games.push({
      id: game.id,
      leagueId: game.league_id,
      coreId: game.core_id == null ? null : String(game.core_id),
      status: mapStatus(game.status, game.real_status),
      upstreamStatus: game.status,
      realStatus: game.real_status ?? game.status,
      statusDisplay: game.status_display ?? null,
      startTime: new Date(game.start_time),
      awayTeamId: game.away_team_id,
      homeTeamId: game.home_team_id,
      winningTeamId: game.winning_team_id ?? null,
      type: game.type ?? null,
      season: game.season == null ? null : String(game.season),
      week: game.week ?? null,
      attendance: game.attendance ?? null,
      coverage: game.coverage ?? null,
      isFree: game.is_free ?? false,
      trending: game.trending ?? false,
      awayRotationNumber: game.away_rotation_number ?? null,
      homeRotationNumber: game.home_rotation_number ?? null,
      numBets: game.num_bets ?? null,
      broadcast: game.broadcast ?? null,
      series: game.series ?? null,
      meta: game.meta ?? null,
      simulated,
    });

    if (game.boxscore) {
      const box = game.boxscore;
      const periodScores = (box.linescore ?? []).flatMap((line, i) =>
        line && line.home_points != null && line.away_points != null
          ? [{ period: i + 1, home: line.home_points, away: line.away_points }]
          : [],
      );
      const home = box.total_home_points ?? null;
      const away = box.total_away_points ?? null;
      out.boxscores.push({
        gameId: game.id,
        clock: box.clock ?? null,
        period: box.period ?? null,
        homeScore: home,
        awayScore: away,
        periodScores,
        totalPoints: home != null && away != null ? home + away : null,
        homeFirstHalf: box.total_home_firsthalf_points ?? null,
        awayFirstHalf: box.total_away_firsthalf_points ?? null,
        homeSecondHalf: box.total_home_secondhalf_points ?? null,
        awaySecondHalf: box.total_away_secondhalf_points ?? null,
      });
    }

    for (const [bookKey, periods] of Object.entries(game.markets ?? {})) {
      const bookId = Number(bookKey);
      for (const [periodKey, markets] of Object.entries(periods)) {
        const period = PERIODS[periodKey.toLowerCase()] ?? periodKey.toLowerCase();
        for (const [marketKey, outcomes] of Object.entries(markets)) {
          if (!(MARKET_TYPES as readonly string[]).includes(marketKey)) continue;
          const marketType = marketKey as MarketType;
          const seen = new Set<string>();
          outcomes.forEach((o, oi) => {
            // Built only for an error message: most documents carry thousands of outcomes.
            const where = { toString: () => at(`.markets[${JSON.stringify(bookKey)}].${periodKey}.${marketKey}[${oi}]`) };
            if (o.is_alt_market) return;
            if (!(SIDES_BY_MARKET[marketType] as readonly string[]).includes(o.side)) {
              throw new FeedDocumentError(documentName, `${where}.side`, `expected one of ${SIDES_BY_MARKET[marketType].join(', ')} for ${marketType}, got ${JSON.stringify(o.side)}`);
            }
            if (o.book_id != null && o.book_id !== bookId) {
              throw new FeedDocumentError(documentName, `${where}.book_id`, `outcome of book ${o.book_id} filed under book ${bookId}`);
            }
            // A price withdrawn upstream arrives as null odds: nothing to store.
            if (o.odds === null) return;
            let forms: PriceForms;
            try {
              forms = priceForms(o.odds);
            } catch (error) {
              if (error instanceof InvalidOddsError) throw new FeedDocumentError(documentName, `${where}.odds`, error.message);
              throw error;
            }
            if (marketType !== 'moneyline' && o.value == null) {
              throw new FeedDocumentError(documentName, `${where}.value`, `a ${marketType} outcome needs its line`);
            }
            const isLive = o.is_live ?? false;
            const key = `${o.side}|${isLive}`;
            if (seen.has(key)) return; // the feed repeats an outcome now and then: the first wins
            seen.add(key);
            const teamId = marketType === 'total' ? null : (o.team_id ?? (o.side === 'home' ? game.home_team_id : game.away_team_id));
            out.quotes.push({
              gameId: game.id,
              bookId,
              marketType,
              period,
              side: o.side,
              isLive,
              outcomeId: o.outcome_id == null ? null : String(o.outcome_id),
              teamId,
              point: marketType === 'moneyline' ? null : (o.value ?? null),
              american: Math.round(o.odds),
              decimal: forms.decimal,
              fractional: forms.fractional,
              lineStatus: o.line_status ?? (bookId === 30 ? 'opener' : 'normal'),
            });
            const tickets = o.bet_info?.tickets?.percent ?? null;
            const money = o.bet_info?.money?.percent ?? null;
            if (!isLive && (tickets || money)) {
              out.publicBetting.push({
                gameId: game.id,
                bookId,
                marketType,
                period,
                side: o.side,
                ticketsPercent: tickets,
                moneyPercent: money,
                numBets: game.num_bets ?? null,
              });
            }
          });
        }
      }
    }
  });
  return out;
}
