import { CORE_BET_TYPES, MARKET_TYPE_TABLE, MARKET_TYPES, STORED_MARKET_TYPES, addDays, hasLine, isOneOf, type StoredMarketType } from '../../domain';
import { FEED_TEAM_TOTAL_KEY, type FeedBetInfo, type FeedBookMarkets, type FeedGame, type FeedLeague, type FeedOutcome, type FeedPeriodMarkets, type FeedStandings, type FeedTeam } from '../feeds/actionnetwork/schema';
import { BOOK_ID_CONSENSUS, BOOK_ID_OPEN, type LeagueRef, type TeamRef, seasonPhaseOn, seasonWindow } from '../reference-data';
import { SIM_BOOKS } from './books';
import { HOUR, daysBetween, feedDayEnd, feedDayStart } from './calendar';
import { boxscoreOf, stateAt, statusOf, type GameState } from './game';
import { SIM_PERIODS, modelOf, type SimPeriod } from './models';
import { clamp, clampInt, sum } from './numbers';
import type { SimulatorOptions } from './options';
import { liveView, pregameView, publicSplit, quoteMarket, suspendedForRun, type Quote, type QuoteContext } from './pricing';
import { Rng } from './random';
import { teamProfile, type GamePlan } from './schedule';

// The feed JSON: a game, its teams and markets and the league object, written with the upstream
// keys in the upstream order (see src/ingest/feeds/actionnetwork/schema.ts and the captures in test/fixtures/feeds).

function marketId(plan: GamePlan, period: SimPeriod, type: StoredMarketType, live: boolean): number {
  const periodIdx = period === 'event' ? 0 : 1;
  // Five market types, two ids each (pregame, live): 0..9 within the period's ten.
  return plan.game.id * 100 + periodIdx * 10 + STORED_MARKET_TYPES.indexOf(type) * 2 + (live ? 1 : 0);
}

/** The feed's key and outcome `type` of a market: its name, or the feed's team-total key. */
const feedKeyOf = (type: StoredMarketType): string => (isOneOf(CORE_BET_TYPES, type) ? FEED_TEAM_TOTAL_KEY : type);

/** Upstream's prop type of team totals. */
const TEAM_TOTAL_PROP_TYPE_ID = 166;

function betInfo(tickets: number, money: number): FeedBetInfo {
  return { tickets: { value: 0, percent: tickets }, money: { value: 0, percent: money } };
}

function fullOutcome(
  ctx: QuoteContext,
  type: StoredMarketType,
  quote: Quote,
  sideIdx: number,
  split: { tickets: number; money: number } | null,
): FeedOutcome {
  const mId = marketId(ctx.plan, ctx.period, type, ctx.live);
  const outcomeId = String(mId * 100 + ctx.book.slot * 2 + sideIdx);
  const isFirstSide = quote.side === 'home' || quote.side === 'over';
  // Key order as upstream.
  return {
    outcome_id: outcomeId,
    market_id: String(mId),
    event_type: 'game',
    event_id: ctx.plan.game.id,
    league_id: ctx.plan.league.id,
    book_id: ctx.book.id,
    book_parent_id: ctx.book.parentId,
    type: feedKeyOf(type),
    // Team totals carry the over/under option and their prop type, as upstream.
    ...(isOneOf(CORE_BET_TYPES, type) ? { option_type_id: quote.side === 'over' ? 1 : 2 } : {}),
    side: quote.side,
    period: ctx.period,
    ...(quote.teamId !== undefined ? { team_id: quote.teamId } : {}), // absent on totals, as upstream
    odds: quote.odds,
    value: quote.value,
    is_live: ctx.live,
    deeplink_id: ctx.book.deeplinks ? `ML${outcomeId}` : '',
    line_status: 'normal',
    // Public betting on pregame outcomes only; live outcomes carry zeros upstream.
    bet_info: split
      ? betInfo(isFirstSide ? split.tickets : 100 - split.tickets, isFirstSide ? split.money : 100 - split.money)
      : betInfo(0, 0),
    // Upstream semantics unknown: null on moneylines, -10000 at the consensus, a small score elsewhere.
    ...(isOneOf(CORE_BET_TYPES, type) ? { prop_type_id: TEAM_TOTAL_PROP_TYPE_ID } : {}),
    odds_coefficient_score:
      !hasLine(type) || isOneOf(CORE_BET_TYPES, type)
        ? null
        : ctx.book.id === BOOK_ID_CONSENSUS
          ? -10000
          : Math.round((MARKET_TYPE_TABLE[type].line === 'handicap' ? quote.q : quote.q - 0.5) * 1e6) / 1e6,
    is_alt_market: false,
  };
}

/** The opening line's reduced outcome shape (book 30), with the upstream key order. */
function openOutcome(ctx: QuoteContext, type: StoredMarketType, quote: Quote, sideIdx: number): FeedOutcome {
  const mId = marketId(ctx.plan, ctx.period, type, false);
  return {
    event_id: ctx.plan.game.id,
    value: quote.value,
    side: quote.side,
    odds: quote.odds,
    type: feedKeyOf(type),
    book_id: ctx.book.id,
    period: ctx.period,
    player_id: 0,
    competitor_id: 0,
    team_id: quote.teamId ?? 0,
    event_type: 'game',
    market_id: String(mId),
    outcome_id: String(mId * 100 + ctx.book.slot * 2 + sideIdx),
    option_type_id: isOneOf(CORE_BET_TYPES, type) ? (quote.side === 'over' ? 1 : 2) : 0,
  };
}

function marketsOf(seed: number, plan: GamePlan, s: GameState, now: number): Record<string, FeedBookMarkets> {
  if (now < plan.postedMs) return {};
  const inPlay = s.phase === 'period' || s.phase === 'break' || s.phase === 'halftime';
  const periods = SIM_PERIODS;
  const out: Record<string, FeedBookMarkets> = {};
  for (const book of SIM_BOOKS) {
    const bookMarkets: FeedBookMarkets = {};
    for (const period of periods) {
      const pm: FeedPeriodMarkets = {};
      // Upstream lists the team totals' key first.
      for (const type of [...CORE_BET_TYPES, ...MARKET_TYPES]) {
        // Team totals are full-game markets upstream.
        if (isOneOf(CORE_BET_TYPES, type) && period !== 'event') continue;
        const outcomes: FeedOutcome[] = [];
        if (book.id === BOOK_ID_OPEN) {
          const ctx: QuoteContext = { seed, plan, book, period, live: false, t: plan.postedMs };
          const quotes = quoteMarket(ctx, type, pregameView(seed, plan, plan.postedMs, period));
          quotes?.forEach((q, i) => outcomes.push(openOutcome(ctx, type, q, i)));
        } else {
          const t = Math.min(now, plan.tipMs);
          const ctx: QuoteContext = { seed, plan, book, period, live: false, t };
          // No public betting on team totals upstream (zeros).
          const split = isOneOf(MARKET_TYPES, type) ? publicSplit(seed, plan, type, period, now) : null;
          const quotes = quoteMarket(ctx, type, pregameView(seed, plan, t, period));
          quotes?.forEach((q, i) => outcomes.push(fullOutcome(ctx, type, q, i, split)));
          if (inPlay && book.offersLive && !suspendedForRun(plan, now, book.runHoldMs)) {
            const view = liveView(plan, s, period);
            const liveCtx: QuoteContext = { seed, plan, book, period, live: true, t: now };
            const liveQuotes = view ? quoteMarket(liveCtx, type, view) : undefined;
            liveQuotes?.forEach((q, i) => outcomes.push(fullOutcome(liveCtx, type, q, i, null)));
          }
        }
        if (outcomes.length > 0) pm[feedKeyOf(type)] = [...(pm[feedKeyOf(type)] ?? []), ...outcomes];
      }
      bookMarkets[period] = pm;
    }
    out[String(book.id)] = bookMarkets;
  }
  return out;
}

function standingsOf(seed: number, team: TeamRef, localDate: string): FeedStandings {
  const model = modelOf(team.league_id);
  const { season, phase } = seasonPhaseOn(team.league_id, localDate);
  const w = seasonWindow(team.league_id, season);
  let played = 0;
  if (w && phase === 'reg') {
    const length = daysBetween(w.regular_season.from, w.regular_season.to) + 1;
    played = Math.round((model.regularSeasonGames * daysBetween(w.regular_season.from, localDate)) / length);
  } else if (phase === 'post' || phase === 'off') {
    played = model.regularSeasonGames;
  }
  const profile = teamProfile(seed, team);
  const winPct = clamp(0.5 + profile.strength / (model.marginSd * 2.4), 0.15, 0.85);
  const luck = new Rng(seed, 'luck', team.id, season).normal(0, 1.5);
  const win = clampInt(played * winPct + luck, 0, played);
  return { win, loss: played - win, ties: null, overtime_losses: null, draw: null };
}

function teamObject(seed: number, team: TeamRef, localDate: string): FeedTeam {
  return {
    id: team.id,
    full_name: team.full_name,
    display_name: team.display_name,
    short_name: team.short_name,
    location: team.location,
    abbr: team.abbr,
    logo: team.logo,
    primary_color: team.primary_color,
    secondary_color: team.secondary_color,
    conference_type: team.conference_type,
    division_type: team.division_type,
    url_slug: team.url_slug,
    standings: standingsOf(seed, team, localDate),
    core_id: team.core_id,
  };
}

export function buildGame(opts: Required<SimulatorOptions>, plan: GamePlan, now: number): FeedGame {
  const { seed } = opts;
  const s = stateAt(plan, now);
  const st = statusOf(plan, s);
  const done = s.phase === 'final' || s.phase === 'closed';
  const homeTotal = sum(plan.periodHome);
  const awayTotal = sum(plan.periodAway);
  const hoursToTip = (plan.tipMs - Math.min(now, plan.tipMs)) / HOUR;
  const box = boxscoreOf(plan, s);
  // Key order as upstream.
  return {
    id: plan.game.id,
    league_id: plan.league.id,
    status: st.status,
    real_status: st.real,
    status_display: st.display,
    start_time: plan.game.start_time,
    away_team_id: plan.away.id,
    home_team_id: plan.home.id,
    winning_team_id: done ? (homeTotal > awayTotal ? plan.home.id : plan.away.id) : null,
    league_name: plan.league.name,
    type: plan.game.season_type,
    season: plan.game.season,
    week: null,
    attendance: done ? plan.attendance : 0,
    coverage: 'full',
    is_free: false,
    trending: plan.trending,
    ...(plan.rotation ? { away_rotation_number: plan.rotation[0], home_rotation_number: plan.rotation[1] } : {}),
    teams: [teamObject(seed, plan.away, plan.game.local_date), teamObject(seed, plan.home, plan.game.local_date)],
    meta: { simulated: true, simulator_seed: seed },
    // Grows towards tip, frozen after it; null before lines are posted.
    num_bets: now < plan.postedMs ? null : Math.max(1, Math.round(plan.numBets * Math.exp(-hoursToTip / 4.5))),
    core_id: plan.game.id + 10_000_000,
    ...(box ? { boxscore: box } : {}),
    broadcast: { ...plan.broadcast },
    markets: marketsOf(seed, plan, s, now),
  };
}

export function leagueObject(league: LeagueRef, localDate: string): FeedLeague {
  const { season, phase } = seasonPhaseOn(league.id, localDate);
  const w = seasonWindow(league.id, season);
  const blacklist: string[] = [];
  for (const b of w?.breaks ?? []) {
    for (let d = b.from; d <= b.to; d = addDays(d, 1)) blacklist.push(feedDayStart(d));
  }
  // Key order as upstream.
  return {
    id: league.id,
    sport: league.sport,
    name: league.name,
    description: league.description,
    logo: league.logo,
    current_season: String(season),
    current_season_type: phase === 'off' ? 'reg' : phase,
    ...(w
      ? {
          pre_season_start: feedDayStart(w.preseason.from),
          pre_season_end: feedDayEnd(w.preseason.to),
          reg_season_start: feedDayStart(w.regular_season.from),
          reg_season_end: feedDayEnd(w.regular_season.to),
          post_season_start: feedDayStart(w.postseason.from),
          post_season_end: feedDayEnd(w.postseason.to),
        }
      : {}),
    blacklist_dates: blacklist,
    calendar_info: {},
    current_week: -1,
    updated_at: feedDayStart(localDate),
    is_active: league.is_active,
    conferences: league.conferences.map((c) => ({ id: c, display: c })),
    divisions: league.divisions.map((d) => ({ ...d })),
  };
}
