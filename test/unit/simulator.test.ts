import { readFileSync } from 'node:fs';
import type * as Feed from '../../src/ingest/feeds/actionnetwork/schema';
import { FEED_TEAM_TOTAL_KEY } from '../../src/ingest/feeds/actionnetwork/schema';
import { normalizeDocument } from '../../src/ingest/feeds/actionnetwork/normalize';
import { LEAGUE_ID_NBA, LEAGUE_ID_WNBA, SPORTSBOOKS } from '../../src/ingest/reference-data';
import { SIM_GAME_ID_BASE, createSimulator as createFeedSimulator, type SimGame, type SimulatorOptions } from '../../src/ingest/simulator';

/** The feed types with every optional or nullable field present: what these tests read of the simulator's output. */
type Strict<T> = T extends readonly (infer U)[] ? Strict<Exclude<U, null | undefined>>[] : T extends object ? { [K in keyof T]-?: Strict<Exclude<T[K], null | undefined>> } : T;
type FeedDocument = Strict<Feed.FeedDocument>;
type FeedGame = Strict<Feed.FeedGame>;
type FeedOutcome = Strict<Feed.FeedOutcome>;

/** The simulator, its documents typed as Strict (the tests check the fields they read). */
function createSimulator(options: SimulatorOptions) {
  const sim = createFeedSimulator(options);
  return {
    ...sim,
    documentsAt: (...args: Parameters<typeof sim.documentsAt>) => sim.documentsAt(...args) as FeedDocument[],
    gameAt: (...args: Parameters<typeof sim.gameAt>) => sim.gameAt(...args) as FeedGame | undefined,
  };
}

const MIN = 60_000;
const NOV = { seed: 42, startDate: '2026-11-22', days: 2 };

function implied(american: number): number {
  return american > 0 ? 100 / (american + 100) : -american / (-american + 100);
}

/** Every outcome of a game with its book key and period key. */
function outcomesOf(g: FeedGame): { book: string; period: string; o: FeedOutcome }[] {
  const out: { book: string; period: string; o: FeedOutcome }[] = [];
  for (const [book, byPeriod] of Object.entries(g.markets)) {
    for (const [period, byType] of Object.entries(byPeriod)) {
      for (const arr of Object.values(byType ?? {})) for (const o of arr ?? []) out.push({ book, period, o });
    }
  }
  return out;
}

/** Two-way markets of a game: outcomes grouped by book, period, type and live flag. */
function twoWayMarkets(g: FeedGame): { key: string; outcomes: FeedOutcome[] }[] {
  const groups = new Map<string, FeedOutcome[]>();
  for (const { book, period, o } of outcomesOf(g)) {
    // Team totals share one key upstream: one two-way market per team.
    const type = o.type === FEED_TEAM_TOTAL_KEY ? `${o.type}:${String(o.team_id)}` : o.type;
    const key = `${book}/${period}/${type}/${o.is_live === true ? 'live' : 'pre'}`;
    groups.set(key, [...(groups.get(key) ?? []), o]);
  }
  return [...groups.entries()].map(([key, outcomes]) => ({ key, outcomes }));
}

function minutesFrom(iso: string, minutes: number): Date {
  return new Date(Date.parse(iso) + minutes * MIN);
}

/** The game's instants every `step` minutes from `from` to `to` minutes around its start. */
function lifeOf(sim: ReturnType<typeof createSimulator>, game: SimGame, from = -40 * 60, to = 200, step = 3): FeedGame[] {
  const out: FeedGame[] = [];
  for (let m = from; m <= to; m += step) {
    const g = sim.gameAt(game.id, minutesFrom(game.start_time, m));
    if (g) out.push(g);
  }
  return out;
}

function etParts(iso: string): { date: string; minutes: number } {
  const f = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/New_York',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  const p = Object.fromEntries(f.formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, minutes: Number(p.hour) * 60 + Number(p.minute) };
}

describe('simulator: schedule', () => {
  const sim = createSimulator(NOV);
  const games = sim.scheduleGames();

  test('when simulating late November, then every day of the window has 6-12 NBA games and there is no WNBA game', () => {
    const perDay = new Map<string, number>();
    for (const g of games) {
      expect(g.league_id).toBe(LEAGUE_ID_NBA);
      perDay.set(g.local_date, (perDay.get(g.local_date) ?? 0) + 1);
    }
    expect([...perDay.keys()].sort()).toEqual(['2026-11-22', '2026-11-23', '2026-11-24']);
    for (const n of perDay.values()) {
      expect(n).toBeGreaterThanOrEqual(6);
      expect(n).toBeLessThanOrEqual(12);
    }
  });

  test('when simulating late November, then documents contain the NBA scoreboard only (WNBA off-season)', () => {
    const docs = sim.documentsAt(new Date('2026-11-22T23:00:00Z'));
    expect(docs.map((d) => d.league.id)).toEqual([LEAGUE_ID_NBA]);
    expect(docs[0]?.league).toMatchObject({ name: 'nba', current_season: '2026', current_season_type: 'reg' });
  });

  test('when simulating July, then WNBA games are scheduled (3-6 a day) and the NBA has none', () => {
    const july = createSimulator({ seed: 42, startDate: '2026-07-08', days: 2 }).scheduleGames();
    expect(july.length).toBeGreaterThan(0);
    expect(july.every((g) => g.league_id === LEAGUE_ID_WNBA)).toBe(true);
    const docs = createSimulator({ seed: 42, startDate: '2026-07-08', days: 0 }).documentsAt(new Date('2026-07-08T20:00:00Z'));
    expect(docs.map((d) => d.league.id)).toEqual([LEAGUE_ID_WNBA]);
    const perDay = new Map<string, number>();
    for (const g of july) perDay.set(g.local_date, (perDay.get(g.local_date) ?? 0) + 1);
    for (const n of perDay.values()) expect(n).toBeGreaterThanOrEqual(3);
  });

  test('when reading tip times, then they are between 19:00 and 22:30 US Eastern on the game day', () => {
    for (const g of games) {
      const { date, minutes } = etParts(g.start_time);
      expect(date).toBe(g.local_date);
      expect(minutes).toBeGreaterThanOrEqual(19 * 60);
      expect(minutes).toBeLessThanOrEqual(22 * 60 + 30);
    }
  });

  test('when reading a slate, then no team plays twice on a day, ids are unique and in the simulator range', () => {
    expect(new Set(games.map((g) => g.id)).size).toBe(games.length);
    for (const g of games) expect(g.id).toBeGreaterThan(SIM_GAME_ID_BASE);
    const byDay = new Map<string, number[]>();
    for (const g of games) byDay.set(g.local_date, [...(byDay.get(g.local_date) ?? []), g.away_team_id, g.home_team_id]);
    for (const teams of byDay.values()) expect(new Set(teams).size).toBe(teams.length);
  });

  test('when two windows overlap, then the shared days have the same games', () => {
    const other = createSimulator({ ...NOV, startDate: '2026-11-23', days: 0 }).scheduleGames();
    expect(other).toEqual(games.filter((g) => g.local_date === '2026-11-23'));
  });

  test('when reading a game timeline, then it lasts about 2h15 from tip and states follow each other', () => {
    for (const g of games) {
      const tip = Date.parse(g.tip_off_at);
      const minutes = (Date.parse(g.final_at) - tip) / MIN;
      expect(minutes).toBeGreaterThan(115);
      expect(minutes).toBeLessThan(150 + 15 * g.overtime_periods);
      expect(Date.parse(g.odds_posted_at)).toBeLessThan(Date.parse(g.created_at));
      expect(Date.parse(g.created_at)).toBeLessThan(Date.parse(g.start_time));
      expect(Date.parse(g.start_time)).toBeLessThan(tip);
      expect(Date.parse(g.final_at)).toBeLessThan(Date.parse(g.closed_at));
    }
  });
});

describe('simulator: determinism', () => {
  const now = new Date('2026-11-23T01:30:00Z');

  test('when the seed and the instant are the same, then the documents are deep-equal (fresh instances, any order)', () => {
    const a = createSimulator(NOV);
    a.documentsAt(new Date('2026-11-24T03:00:00Z')); // computing another instant first changes nothing
    const b = createSimulator(NOV);
    expect(a.documentsAt(now)).toEqual(b.documentsAt(now));
  });

  test('when the seed differs, then the documents differ', () => {
    const a = createSimulator(NOV).documentsAt(now);
    const b = createSimulator({ ...NOV, seed: 43 }).documentsAt(now);
    expect(a).not.toEqual(b);
  });

  test('when generating, then neither Math.random nor Date.now is used', () => {
    const random = jest.spyOn(Math, 'random').mockImplementation(() => {
      throw new Error('Math.random used');
    });
    const dateNow = jest.spyOn(Date, 'now').mockImplementation(() => {
      throw new Error('Date.now used');
    });
    try {
      expect(createSimulator({ ...NOV, seed: 9 }).documentsAt(now).length).toBe(1);
    } finally {
      random.mockRestore();
      dateNow.mockRestore();
    }
  });

  test('when options are invalid, then creation throws a RangeError', () => {
    expect(() => createSimulator({ ...NOV, startDate: '22/11/2026' })).toThrow(RangeError);
    expect(() => createSimulator({ ...NOV, days: -1 })).toThrow(RangeError);
    expect(() => createSimulator({ ...NOV, seed: Number.NaN })).toThrow(RangeError);
    expect(() => createSimulator({ ...NOV, timeZone: 'Mars/Olympus' })).toThrow(RangeError);
  });
});

describe('simulator: labels and shape', () => {
  const sim = createSimulator(NOV);
  const first = sim.scheduleGames()[0] as SimGame;
  const live = sim.documentsAt(minutesFrom(first.start_time, 60));
  const doc = live[0] as FeedDocument;

  test('when reading a document, then it and every game are labelled simulated with the seed', () => {
    expect(doc.simulated).toBe(true);
    for (const g of doc.games) expect(g.meta).toEqual({ simulated: true, simulator_seed: 42 });
  });

  test('when reading a document, then it has the real top-level and league keys', () => {
    expect(Object.keys(doc)).toEqual(['league', 'games', 'market_rules', 'content_live_count', 'simulated']);
    expect(Object.keys(doc.league)).toEqual([
      'id', 'sport', 'name', 'description', 'logo', 'current_season', 'current_season_type',
      'pre_season_start', 'pre_season_end', 'reg_season_start', 'reg_season_end', 'post_season_start',
      'post_season_end', 'blacklist_dates', 'calendar_info', 'current_week', 'updated_at', 'is_active',
      'conferences', 'divisions',
    ]);
    expect(doc.league.reg_season_start).toBe('2026-10-20T07:00:00.000Z');
  });

  test('when reading a live game, then its keys, teams, boxscore and outcomes have the real key names and order', () => {
    const g = doc.games.find((x) => x.id === first.id) as FeedGame;
    expect(Object.keys(g)).toEqual([
      'id', 'league_id', 'status', 'real_status', 'status_display', 'start_time', 'away_team_id', 'home_team_id',
      'winning_team_id', 'league_name', 'type', 'season', 'week', 'attendance', 'coverage', 'is_free', 'trending',
      'away_rotation_number', 'home_rotation_number', 'teams', 'meta', 'num_bets', 'core_id', 'boxscore', 'broadcast',
      'markets',
    ]);
    expect(g.teams.map((t) => t.id)).toEqual([g.away_team_id, g.home_team_id]);
    expect(Object.keys(g.teams[0] ?? {})).toEqual([
      'id', 'full_name', 'display_name', 'short_name', 'location', 'abbr', 'logo', 'primary_color',
      'secondary_color', 'conference_type', 'division_type', 'url_slug', 'standings', 'core_id',
    ]);
    expect(Object.keys(g.teams[0]?.standings ?? {})).toEqual(['win', 'loss', 'ties', 'overtime_losses', 'draw']);
    expect(Object.keys(g.boxscore?.linescore[0] ?? {})).toEqual(['id', 'abbr', 'display_name', 'full_name', 'away_points', 'home_points']);
    const fullKeys = [
      'outcome_id', 'market_id', 'event_type', 'event_id', 'league_id', 'book_id', 'book_parent_id', 'type', 'side',
      'period', 'team_id', 'odds', 'value', 'is_live', 'deeplink_id', 'line_status', 'bet_info',
      'odds_coefficient_score', 'is_alt_market',
    ];
    // As in the real playoff capture's core_bet_type_6_team_score outcomes.
    const teamTotalKeys = [
      'outcome_id', 'market_id', 'event_type', 'event_id', 'league_id', 'book_id', 'book_parent_id', 'type', 'option_type_id', 'side',
      'period', 'team_id', 'odds', 'value', 'is_live', 'deeplink_id', 'line_status', 'bet_info', 'prop_type_id',
      'odds_coefficient_score', 'is_alt_market',
    ];
    expect(outcomesOf(g).some(({ book, o }) => book !== '30' && o.type === FEED_TEAM_TOTAL_KEY)).toBe(true);
    const openKeys = [
      'event_id', 'value', 'side', 'odds', 'type', 'book_id', 'period', 'player_id', 'competitor_id', 'team_id',
      'event_type', 'market_id', 'outcome_id', 'option_type_id',
    ];
    for (const { book, o } of outcomesOf(g)) {
      if (book === '30') expect(Object.keys(o)).toEqual(openKeys);
      else if (o.type === 'total') expect(Object.keys(o)).toEqual(fullKeys.filter((k) => k !== 'team_id'));
      else if (o.type === FEED_TEAM_TOTAL_KEY) expect(Object.keys(o)).toEqual(teamTotalKeys);
      else expect(Object.keys(o)).toEqual(fullKeys);
      expect(typeof o.outcome_id).toBe('string');
      expect(typeof o.market_id).toBe('string');
      expect(Number.isInteger(o.odds)).toBe(true);
      expect(o.event_id).toBe(g.id);
      expect(o.book_id).toBe(Number(book));
      if (book !== '30') expect(o).toMatchObject({ line_status: 'normal', is_alt_market: false, league_id: LEAGUE_ID_NBA });
    }
  });

  test('when reading markets, then every quoted book is a known sportsbook with event and firsthalf periods', () => {
    const g = doc.games[0] as FeedGame;
    // Only books with a name: the simulator never quotes an id the reference cannot name.
    const known = new Set(SPORTSBOOKS.filter((b) => b.name_known).map((b) => String(b.id)));
    expect(Object.keys(g.markets).length).toBeGreaterThanOrEqual(8);
    for (const [book, byPeriod] of Object.entries(g.markets)) {
      expect(known.has(book)).toBe(true);
      expect(Object.keys(byPeriod)).toEqual(['event', 'firsthalf']);
      for (const [period, byType] of Object.entries(byPeriod)) {
        for (const arr of Object.values(byType ?? {})) for (const o of arr ?? []) expect(o.period).toBe(period);
      }
    }
    expect(Object.keys(g.markets)).toEqual(expect.arrayContaining(['15', '30', '68', '69', '75', '123', '71', '79', '4999']));
  });

  test('when reading the opening line (book 30), then it never moves, has no live outcomes and shares outcome ids with the consensus', () => {
    const early = sim.gameAt(first.id, minutesFrom(first.odds_posted_at, 1)) as FeedGame;
    const late = sim.gameAt(first.id, minutesFrom(first.start_time, 60)) as FeedGame;
    expect(late.markets['30']).toEqual(early.markets['30']);
    const consensus = new Set(outcomesOf(late).filter((x) => x.book === '15' && x.o.is_live === false).map((x) => x.o.outcome_id));
    for (const { o } of outcomesOf(late).filter((x) => x.book === '30')) {
      expect(o.is_live).toBeUndefined();
      expect(consensus.has(o.outcome_id)).toBe(true);
      if (o.type === 'total') expect(o.team_id).toBe(0);
    }
  });

  test('when compared with real documents (mixed-status evening, playoffs with team totals), then every simulated key also occurs in a real one', () => {
    const read = (name: string) => JSON.parse(readFileSync(`test/fixtures/feeds/${name}`, 'utf8')) as FeedDocument;
    const mixed = read('nba-2026-01-24-mixed-status.json');
    const real = { ...mixed, games: [...mixed.games, ...read('nba-2026-04-29-playoffs-subset.json').games] } as FeedDocument;
    const keysOf = (objs: object[]): Set<string> => new Set(objs.flatMap((o) => Object.keys(o)));
    const missing = (ours: Set<string>, theirs: Set<string>): string[] => [...ours].filter((k) => !theirs.has(k));
    expect(missing(keysOf(doc.games), keysOf(real.games))).toEqual([]);
    const boxes = (d: FeedDocument): object[] => d.games.flatMap((g) => (g.boxscore ? [g.boxscore] : []));
    expect(missing(keysOf(boxes(doc)), keysOf(boxes(real)))).toEqual([]);
    const outcomes = (d: FeedDocument): object[] => d.games.flatMap((g) => outcomesOf(g).map((x) => x.o));
    expect(missing(keysOf(outcomes(doc)), keysOf(outcomes(real)))).toEqual([]);
    const teams = (d: FeedDocument): object[] => d.games.flatMap((g) => g.teams);
    expect(missing(keysOf(teams(doc)), keysOf(teams(real)))).toEqual([]);
    expect(missing(keysOf([doc.league]), keysOf([real.league]))).toEqual([]);
  });
});

describe('simulator: odds realism', () => {
  const sim = createSimulator({ ...NOV, days: 1 });
  const games = sim.scheduleGames();
  // Every game of the window, pregame and at several in-game instants.
  const snapshots: FeedGame[] = games.flatMap((g) =>
    [-600, -30, 25, 50, 80, 100, 130].map((m) => sim.gameAt(g.id, minutesFrom(g.start_time, m)) as FeedGame),
  );

  test("when pricing any two-way market at any book, then the vig (sum of implied probabilities - 1) is between 1% and 8%", () => {
    let checked = 0;
    for (const g of snapshots) {
      for (const { key, outcomes } of twoWayMarkets(g)) {
        expect(outcomes).toHaveLength(2);
        const vig = implied(outcomes[0]?.odds ?? 0) + implied(outcomes[1]?.odds ?? 0) - 1;
        if (vig < 0.01 || vig > 0.08) throw new Error(`${key} of game ${String(g.id)}: vig ${String(vig)}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  test('when comparing books, then the sharp book has the lowest margin and the majors 4-5%', () => {
    const g = snapshots[0] as FeedGame;
    const vigOf = (book: string): number => {
      const ml = g.markets[book]?.event?.spread ?? [];
      return implied(ml[0]?.odds ?? 0) + implied(ml[1]?.odds ?? 0) - 1;
    };
    const avg = (book: string): number => {
      let total = 0;
      let n = 0;
      for (const s of snapshots) {
        const sp = (s.markets[book]?.event?.spread ?? []).filter((o) => o.is_live === false);
        total += implied(sp[0]?.odds ?? 0) + implied(sp[1]?.odds ?? 0) - 1;
        n++;
      }
      return total / n;
    };
    expect(vigOf('4999')).toBeLessThan(0.035);
    expect(avg('4999')).toBeLessThan(0.03);
    for (const book of ['68', '69', '75', '123', '71', '79']) {
      expect(avg(book)).toBeGreaterThan(0.035);
      expect(avg(book)).toBeLessThan(0.06);
    }
  });

  test('when reading spreads and totals, then lines on half points and on whole points both occur, and books disagree a little', () => {
    const values = snapshots.flatMap((g) => outcomesOf(g).filter((x) => x.o.type !== 'moneyline').map((x) => x.o.value));
    expect(values.some((v) => Number.isInteger(v))).toBe(true);
    expect(values.some((v) => !Number.isInteger(v))).toBe(true);
    expect(values.every((v) => Number.isInteger(v * 2))).toBe(true);
    const homeSpreads = new Set<number>();
    const g = snapshots[0] as FeedGame;
    for (const { o } of outcomesOf(g)) if (o.type === 'spread' && o.side === 'home' && o.period === 'event') homeSpreads.add(o.value);
    expect(homeSpreads.size).toBeGreaterThan(1);
    expect(Math.max(...homeSpreads) - Math.min(...homeSpreads)).toBeLessThanOrEqual(3);
  });

  test('when a book quotes a spread and a moneyline, then they agree on the favourite (pregame and live, full game and first half)', () => {
    let checked = 0;
    for (const g of snapshots) {
      for (const [book, byPeriod] of Object.entries(g.markets)) {
        for (const [period, byType] of Object.entries(byPeriod)) {
          for (const live of [false, true]) {
            const pick = (o: FeedOutcome): boolean => (book === '30' ? true : o.is_live === live) && o.side === 'home';
            const spreadHome = byType?.spread?.find(pick);
            const mlHome = byType?.moneyline?.find(pick);
            const mlAway = byType?.moneyline?.find((o) => (book === '30' ? true : o.is_live === live) && o.side === 'away');
            if (!spreadHome || !mlHome || !mlAway || spreadHome.value === 0) continue;
            const homeFavouredBySpread = spreadHome.value < 0;
            const where = `${String(g.id)} ${book} ${period} live=${String(live)}`;
            if (homeFavouredBySpread && implied(mlHome.odds) < implied(mlAway.odds)) throw new Error(where);
            if (!homeFavouredBySpread && implied(mlHome.odds) > implied(mlAway.odds)) throw new Error(where);
            const away = byType?.spread?.find((o) => (book === '30' ? true : o.is_live === live) && o.side === 'away');
            expect(away?.value).toBe(-spreadHome.value);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  test('when reading totals, then over and under share the line and carry no team id; first-half totals are about half', () => {
    const g = snapshots[0] as FeedGame;
    const event = g.markets['15']?.event?.total ?? [];
    const half = g.markets['15']?.firsthalf?.total ?? [];
    expect(event.map((o) => o.side)).toEqual(['over', 'under']);
    expect(event[0]?.value).toBe(event[1]?.value);
    for (const o of [...event, ...half]) expect('team_id' in o).toBe(false);
    const ratio = (half[0]?.value ?? 0) / (event[0]?.value ?? 1);
    expect(ratio).toBeGreaterThan(0.45);
    expect(ratio).toBeLessThan(0.56);
    expect(event[0]?.value).toBeGreaterThan(190);
    expect(event[0]?.value).toBeLessThan(265);
  });

  test('when reading public betting on pregame outcomes, then tickets and money of the two sides each sum to 100', () => {
    for (const g of snapshots) {
      for (const { key, outcomes } of twoWayMarkets(g)) {
        if (key.startsWith('30/')) {
          for (const o of outcomes) expect(o.bet_info).toBeUndefined();
          continue;
        }
        const [a, b] = outcomes as [FeedOutcome, FeedOutcome];
        if (key.endsWith('/live') || key.includes(FEED_TEAM_TOTAL_KEY)) {
          expect(a.bet_info).toEqual({ tickets: { value: 0, percent: 0 }, money: { value: 0, percent: 0 } });
          continue;
        }
        const tickets = (a.bet_info?.tickets.percent ?? 0) + (b.bet_info?.tickets.percent ?? 0);
        const money = (a.bet_info?.money.percent ?? 0) + (b.bet_info?.money.percent ?? 0);
        if (tickets !== 100 || money !== 100) throw new Error(`${key} of game ${String(g.id)}: ${String(tickets)}/${String(money)}`);
      }
    }
  });
});

describe('simulator: game life', () => {
  const sim = createSimulator(NOV);
  const game = sim.scheduleGames()[3] as SimGame;
  const life = lifeOf(sim, game);

  test('when following one game over time, then its status goes scheduled -> created -> inprogress -> complete -> closed, never back', () => {
    const order = ['scheduled/scheduled', 'scheduled/created', 'inprogress/inprogress', 'inprogress/halftime', 'complete/complete', 'complete/closed'];
    const seen: string[] = [];
    for (const g of life) {
      const pair = `${g.status}/${g.real_status}`;
      expect(order).toContain(pair);
      if (seen[seen.length - 1] !== pair) seen.push(pair);
    }
    const ranks = seen.map((p) => (p === 'inprogress/halftime' ? order.indexOf('inprogress/inprogress') : order.indexOf(p)));
    for (let i = 1; i < ranks.length; i++) expect(ranks[i]).toBeGreaterThanOrEqual(ranks[i - 1] as number);
    expect(seen).toEqual(expect.arrayContaining(order));
    expect(seen.filter((p) => p === 'inprogress/halftime')).toHaveLength(1);
  });

  test('when the game is on, then the display shows the period and clock, "Half" at halftime and "Final" at the end', () => {
    for (const g of life) {
      if (g.status === 'scheduled') expect(g.status_display).toBeNull();
      if (g.real_status === 'inprogress') expect(g.status_display).toMatch(/^(1st|2nd|3rd|4th|OT|\dOT) \d{1,2}:\d{2}$/);
      if (g.real_status === 'halftime') {
        expect(g.status_display).toBe('Half');
        expect(g.boxscore).toMatchObject({ halftime: true, period: 2, clock: '00:00' });
      }
      if (g.status === 'complete') expect(g.status_display).toMatch(/^Final( - \d?OT)?$/);
      if (g.boxscore && g.status === 'inprogress') {
        const [mm, ss] = g.boxscore.clock.split(':').map(Number);
        expect((mm ?? 99) * 60 + (ss ?? 99)).toBeLessThanOrEqual(12 * 60);
      }
    }
  });

  test('when reading scores at any instant, then totals are the sums of the linescore and halves split it', () => {
    let withBox = 0;
    for (const g of life) {
      const box = g.boxscore;
      if (g.real_status === 'scheduled') {
        expect(box).toBeUndefined();
        continue;
      }
      if (!box) throw new Error(`no boxscore when ${g.real_status}`);
      withBox++;
      const pts = (side: 'away' | 'home', from: number, to: number): number =>
        box.linescore.slice(from, to).reduce((s, p) => s + ((side === 'away' ? p.away_points : p.home_points) ?? 0), 0);
      expect(box.total_away_points).toBe(pts('away', 0, 99));
      expect(box.total_home_points).toBe(pts('home', 0, 99));
      expect(box.total_away_firsthalf_points).toBe(pts('away', 0, 2));
      expect(box.total_home_firsthalf_points).toBe(pts('home', 0, 2));
      expect(box.total_away_secondhalf_points).toBe(pts('away', 2, 99));
      expect(box.total_home_secondhalf_points).toBe(pts('home', 2, 99));
      // Minutes before tip ("created") the boxscore exists with every period still null, as upstream.
      box.linescore.forEach((p, i) => {
        expect(p.id).toBe(i + 1);
        const started = g.real_status !== 'created' && i < box.period;
        expect(p.away_points === null).toBe(!started);
        expect(p.home_points === null).toBe(!started);
      });
    }
    expect(withBox).toBeGreaterThan(40);
  });

  test('when time passes, then scores never go down and the final has a winner that outscored the other team', () => {
    let lastAway = 0;
    let lastHome = 0;
    for (const g of life) {
      const a = g.boxscore?.total_away_points ?? 0;
      const h = g.boxscore?.total_home_points ?? 0;
      expect(a).toBeGreaterThanOrEqual(lastAway);
      expect(h).toBeGreaterThanOrEqual(lastHome);
      [lastAway, lastHome] = [a, h];
      if (g.status === 'complete') {
        expect(a).not.toBe(h);
        expect(g.winning_team_id).toBe(h > a ? g.home_team_id : g.away_team_id);
        expect(g.attendance).toBeGreaterThan(0);
      } else {
        expect(g.winning_team_id).toBeNull();
      }
    }
    expect(lastAway + lastHome).toBeGreaterThan(150);
  });

  test('when the game is not in progress, then there are no live outcomes; once in progress, live outcomes appear next to pregame ones', () => {
    let liveSnapshots = 0;
    let suspended = 0; // a moment after a scoring run every book may have its live markets suspended
    for (const g of life) {
      const all = outcomesOf(g).map((x) => x.o);
      const live = all.filter((o) => o.is_live === true);
      if (g.status === 'inprogress') {
        expect(all.some((o) => o.is_live === false)).toBe(true);
        if (live.length > 0) liveSnapshots++;
        else suspended++;
      } else {
        expect(live).toHaveLength(0);
      }
    }
    expect(liveSnapshots).toBeGreaterThan(30);
    expect(suspended).toBeLessThanOrEqual(liveSnapshots / 10);
  });

  test('when the game is on, then pregame outcomes are frozen at the closing prices and live lines move with the score', () => {
    const pregame = (g: FeedGame): FeedOutcome[] => outcomesOf(g).map((x) => x.o).filter((o) => o.is_live === false);
    const atTip = sim.gameAt(game.id, new Date(game.tip_off_at)) as FeedGame;
    const inPlay = life.filter((g) => g.status !== 'scheduled');
    for (const g of inPlay) {
      expect(pregame(g).map((o) => [o.outcome_id, o.odds, o.value, o.bet_info])).toEqual(
        pregame(atTip).map((o) => [o.outcome_id, o.odds, o.value, o.bet_info]),
      );
    }
    const liveLines = new Set(
      inPlay.flatMap((g) => (g.markets['68']?.event?.total ?? []).filter((o) => o.is_live === true).map((o) => o.value)),
    );
    expect(liveLines.size).toBeGreaterThan(5);
    for (const g of inPlay.filter((x) => x.status === 'inprogress')) {
      const liveTotal = (g.markets['68']?.event?.total ?? []).find((o) => o.is_live === true);
      const scored = (g.boxscore?.total_away_points ?? 0) + (g.boxscore?.total_home_points ?? 0);
      if (liveTotal) expect(liveTotal.value).toBeGreaterThan(scored);
    }
  });

  test('when the first half is over, then live first-half markets are gone while full-game live markets remain', () => {
    const secondHalf = life.filter((g) => g.status === 'inprogress' && (g.boxscore?.period ?? 0) >= 3);
    expect(secondHalf.length).toBeGreaterThan(0);
    for (const g of secondHalf) {
      const firstHalfLive = outcomesOf(g).filter((x) => x.period === 'firsthalf' && x.o.is_live === true);
      expect(firstHalfLive).toHaveLength(0);
    }
    // Full-game live markets stay (but for the brief suspensions after a scoring run).
    const withLive = secondHalf.filter((g) => outcomesOf(g).some((x) => x.period === 'event' && x.o.is_live === true));
    expect(withLive.length).toBeGreaterThanOrEqual(secondHalf.length * 0.9);
  });

  test('when lines are not posted yet, then markets are empty and num_bets is null; afterwards num_bets grows until tip and then freezes', () => {
    const before = sim.gameAt(game.id, minutesFrom(game.odds_posted_at, -1)) as FeedGame;
    expect(before.markets).toEqual({});
    expect(before.num_bets).toBeNull();
    let last = 0;
    for (const g of life.filter((x) => x.num_bets !== null)) {
      expect(g.num_bets ?? 0).toBeGreaterThanOrEqual(last);
      last = g.num_bets ?? 0;
    }
    const atTip = sim.gameAt(game.id, new Date(game.tip_off_at)) as FeedGame;
    expect(life[life.length - 1]?.num_bets).toBe(atTip.num_bets);
    expect(atTip.num_bets ?? 0).toBeGreaterThan(1000);
  });
});

describe('simulator: overtime and WNBA', () => {
  test('when a game is tied after regulation, then it goes to overtime, shows OT periods and ends "Final - OT"', () => {
    const sim = createSimulator({ seed: 5, startDate: '2026-11-01', days: 30 });
    const ot = sim.scheduleGames().find((g) => g.overtime_periods > 0);
    if (!ot) throw new Error('no overtime game in 30 days');
    const during = lifeOf(sim, ot, 100, 240, 2);
    expect(during.some((g) => /^(OT|\dOT) /.test(g.status_display ?? ''))).toBe(true);
    const final = sim.gameAt(ot.id, minutesFrom(ot.closed_at, 1)) as FeedGame;
    expect(final).toMatchObject({ status: 'complete', real_status: 'closed' });
    expect(final.status_display).toBe(ot.overtime_periods === 1 ? 'Final - OT' : `Final - ${String(ot.overtime_periods)}OT`);
    const box = final.boxscore;
    expect(box?.linescore).toHaveLength(4 + ot.overtime_periods);
    expect(box?.linescore[4]).toMatchObject({ id: 5, abbr: 'OT', display_name: 'OT', full_name: 'Overtime' });
    const reg = (box?.linescore ?? []).slice(0, 4);
    expect(reg.reduce((s, p) => s + (p.away_points ?? 0), 0)).toBe(reg.reduce((s, p) => s + (p.home_points ?? 0), 0));
    expect(box?.total_away_points).not.toBe(box?.total_home_points);
  });

  test('when a WNBA game is on, then quarters are 10 minutes and the scoreboard is the WNBA one', () => {
    const sim = createSimulator({ seed: 3, startDate: '2026-07-08', days: 0 });
    const game = sim.scheduleGames()[0] as SimGame;
    expect(game.league_id).toBe(LEAGUE_ID_WNBA);
    const life = lifeOf(sim, game, 0, 180, 2);
    const clocks = life.filter((g) => g.real_status === 'inprogress').map((g) => g.boxscore?.clock ?? '');
    expect(clocks.length).toBeGreaterThan(20);
    expect(clocks).toContain('10:00');
    for (const c of clocks) expect(c <= '10:00').toBe(true);
    const final = life[life.length - 1] as FeedGame;
    expect(final.status).toBe('complete');
    expect(final.league_name).toBe('wnba');
    expect((final.boxscore?.total_away_points ?? 0) + (final.boxscore?.total_home_points ?? 0)).toBeLessThan(230);
    const doc = sim.documentsAt(new Date(game.start_time))[0] as FeedDocument;
    expect(doc.league).toMatchObject({ id: LEAGUE_ID_WNBA, name: 'wnba', current_season: '2026', divisions: [] });
  });
});

describe('simulator: ingest path', () => {
  test('when simulated documents of a whole evening go through the feed normaliser, then they validate and keep their labels', () => {
    const sim = createSimulator({ ...NOV, days: 0 });
    let quotes = 0;
    for (let h = -2; h <= 6; h += 0.5) {
      for (const doc of sim.documentsAt(new Date(Date.parse('2026-11-23T00:00:00Z') + h * 60 * MIN))) {
        const out = normalizeDocument(JSON.parse(JSON.stringify(doc)) as unknown, `sim@${String(h)}h`);
        expect(out.games.every((g) => g.simulated)).toBe(true);
        expect(out.games).toHaveLength(doc.games.length);
        quotes += out.quotes.length;
      }
    }
    expect(quotes).toBeGreaterThan(1000);
  });
});
