import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type * as Feed from '../../src/ingest/feeds/actionnetwork/schema';

/** The feed types with every optional or nullable field present (the real captures carry them). */
type Strict<T> = T extends readonly (infer U)[] ? Strict<Exclude<U, null | undefined>>[] : T extends object ? { [K in keyof T]-?: Strict<Exclude<T[K], null | undefined>> } : T;
type FeedDocument = Strict<Feed.FeedDocument>;
type FeedTeam = Strict<Feed.FeedTeam>;
import {
  BOOK_ID_CONSENSUS,
  BOOK_ID_OPEN,
  BOOK_ID_PINNACLE,
  LEAGUE_ID_NBA,
  LEAGUE_ID_WNBA,
  LEAGUES,
  NBA_TEAMS,
  SEASON_WINDOWS,
  SPORTSBOOKS,
  TEAMS,
  WNBA_TEAMS,
  isGameDay,
  leagueById,
  seasonPhaseOn,
  seasonWindow,
  sportsbookById,
  teamByAbbr,
  teamById,
  teamsOfLeague,
} from '../../src/ingest/reference-data';

/** The real captures kept in the repository (copies of the upstream samples). */
const FEEDS = 'test/fixtures/feeds';

/** Every team object of every real capture (documents and recorded series), by id. */
function realTeams(): Map<number, FeedTeam> {
  const out = new Map<number, FeedTeam>();
  const docs: FeedDocument[] = [];
  for (const f of readdirSync(FEEDS).filter((n) => n.endsWith('.json'))) {
    docs.push(JSON.parse(readFileSync(join(FEEDS, f), 'utf8')) as FeedDocument);
  }
  for (const f of readdirSync(FEEDS).filter((n) => n.endsWith('.jsonl.gz'))) {
    const lines = gunzipSync(readFileSync(join(FEEDS, f))).toString('utf8').split('\n');
    for (const line of lines) if (line.trim()) docs.push((JSON.parse(line) as { body: FeedDocument }).body);
  }
  for (const d of docs) for (const g of d.games) for (const t of g.teams) out.set(t.id, t);
  return out;
}

describe('leagues', () => {
  test('when looking up the NBA, then it has the feed id 4, the 2026-27 season ("2026") and 4 x 12-minute quarters', () => {
    const nba = leagueById(LEAGUE_ID_NBA);
    expect(LEAGUE_ID_NBA).toBe(4);
    expect(nba).toMatchObject({ sport: 'basketball', name: 'nba', current_season: '2026', current_season_type: 'reg', is_active: true });
    expect(nba).toMatchObject({ periods: 4, period_minutes: 12 });
    expect(nba?.logo).toMatch(/^https:\/\//);
  });

  test('when looking up the WNBA, then it has id 5, the 2026 season, 4 x 10-minute quarters and no divisions', () => {
    const wnba = leagueById(LEAGUE_ID_WNBA);
    expect(LEAGUE_ID_WNBA).toBe(5);
    expect(wnba).toMatchObject({ sport: 'basketball', name: 'wnba', current_season: '2026', current_season_type: 'reg', is_active: true });
    expect(wnba).toMatchObject({ periods: 4, period_minutes: 10, divisions: [] });
  });

  test('when listing leagues, then ids are unique', () => {
    expect(new Set(LEAGUES.map((l) => l.id)).size).toBe(LEAGUES.length);
  });
});

describe('teams', () => {
  test('when listing NBA teams, then there are 30 with unique ids and unique abbreviations', () => {
    const nba = teamsOfLeague(LEAGUE_ID_NBA);
    expect(nba).toHaveLength(30);
    expect(nba).toEqual(NBA_TEAMS);
    expect(new Set(nba.map((t) => t.id)).size).toBe(30);
    expect(new Set(nba.map((t) => t.abbr)).size).toBe(30);
    expect(new Set(nba.map((t) => t.url_slug)).size).toBe(30);
  });

  test('when listing NBA teams, then 15 play in each conference and 5 in each of the 6 divisions', () => {
    const nba = teamsOfLeague(LEAGUE_ID_NBA);
    const league = leagueById(LEAGUE_ID_NBA);
    expect(nba.filter((t) => t.conference_type === 'EASTERN')).toHaveLength(15);
    expect(nba.filter((t) => t.conference_type === 'WESTERN')).toHaveLength(15);
    for (const d of league?.divisions ?? []) {
      const members = nba.filter((t) => t.division_type === d.id);
      expect(members).toHaveLength(5);
      for (const t of members) expect(t.conference_type).toBe(d.conference_id);
    }
  });

  test('when listing WNBA teams, then all 15 teams of 2026 are there, expansion teams included, with ids 5001+', () => {
    const wnba = teamsOfLeague(LEAGUE_ID_WNBA);
    expect(wnba).toEqual(WNBA_TEAMS);
    expect(wnba).toHaveLength(15);
    expect(new Set(wnba.map((t) => t.abbr)).size).toBe(15);
    for (const name of ['Golden State Valkyries', 'Toronto Tempo', 'Portland Fire', 'Las Vegas Aces', 'New York Liberty']) {
      expect(wnba.map((t) => t.full_name)).toContain(name);
    }
    for (const t of wnba) {
      expect(t.id).toBeGreaterThanOrEqual(5001);
      expect(t.id).toBeLessThanOrEqual(5099);
      expect(t.division_type).toBeNull();
      expect(['EASTERN', 'WESTERN']).toContain(t.conference_type);
    }
    expect(wnba.filter((t) => t.conference_type === 'EASTERN')).toHaveLength(7);
  });

  test('when listing all teams, then ids are unique across leagues while abbreviations repeat only across leagues', () => {
    expect(new Set(TEAMS.map((t) => t.id)).size).toBe(TEAMS.length);
    expect(teamByAbbr(LEAGUE_ID_NBA, 'tor')?.full_name).toBe('Toronto Raptors');
    expect(teamByAbbr(LEAGUE_ID_WNBA, 'TOR')?.full_name).toBe('Toronto Tempo');
    expect(teamById(164)?.full_name).toBe('Boston Celtics');
    expect(teamById(1)).toBeUndefined();
  });

  test('when reading any team, then colours are 6 upper-case hex digits and conference/division are upper-case', () => {
    for (const t of TEAMS) {
      expect(t.primary_color).toMatch(/^[0-9A-F]{6}$/);
      expect(t.secondary_color).toMatch(/^[0-9A-F]{6}$/);
      expect(t.conference_type).toBe(t.conference_type.toUpperCase());
      if (t.division_type !== null) expect(t.division_type).toBe(t.division_type.toUpperCase());
      expect(t.logo).toMatch(/^https:\/\/\S+\.png$/);
      expect(t.url_slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(t.full_name.length).toBeGreaterThan(t.display_name.length);
    }
  });

  const real = realTeams();
  test(
    'when comparing with every team object of the real feed samples, then NBA ids and values are the feed values (colours upper-cased)',
    () => {
      expect(real.size).toBe(30);
      for (const [id, t] of real) {
        const ours = teamById(id);
        expect(ours).toBeDefined();
        expect(ours).toEqual({
          id: t.id,
          league_id: LEAGUE_ID_NBA,
          abbr: t.abbr,
          full_name: t.full_name,
          display_name: t.display_name,
          short_name: t.short_name,
          location: t.location,
          url_slug: t.url_slug,
          logo: t.logo,
          primary_color: t.primary_color.toUpperCase(),
          secondary_color: t.secondary_color.toUpperCase(),
          conference_type: t.conference_type,
          division_type: t.division_type,
          core_id: t.core_id,
        });
      }
    },
  );
});

describe('sportsbooks', () => {
  test('when listing books, then ids are unique and the feed README ids carry their names', () => {
    expect(new Set(SPORTSBOOKS.map((b) => b.id)).size).toBe(SPORTSBOOKS.length);
    const named: [number, string][] = [
      [15, 'Consensus'],
      [30, 'Open'],
      [68, 'DraftKings'],
      [69, 'FanDuel'],
      [75, 'BetMGM'],
      [123, 'Caesars'],
      [71, 'BetRivers'],
      [79, 'bet365'],
      [2988, 'Fanatics'],
      [2724, 'Hard Rock'],
    ];
    for (const [id, name] of named) expect(sportsbookById(id)?.name).toBe(name);
    // Quoted in the real captures, named nowhere: a neutral name that says so, never an invented brand.
    for (const id of [647, 1901, 1904, 3151, 645, 510]) expect(sportsbookById(id)).toMatchObject({ id, name: `Sportsbook ${id}`, name_known: false });
    for (const book of SPORTSBOOKS) expect(String(book.name)).not.toMatch(/^Book \d/);
  });

  test('when classifying books, then only Consensus and Open are aggregates and only Pinnacle is sharp', () => {
    expect(SPORTSBOOKS.filter((b) => b.is_aggregate).map((b) => b.id).sort((a, b) => a - b)).toEqual([
      BOOK_ID_CONSENSUS,
      BOOK_ID_OPEN,
    ]);
    expect(SPORTSBOOKS.filter((b) => b.is_sharp)).toEqual([
      { id: BOOK_ID_PINNACLE, name: 'Pinnacle', name_known: true, kind: 'sportsbook', is_aggregate: false, is_sharp: true },
    ]);
    expect(SPORTSBOOKS.filter((b) => b.kind === 'aggregate').map((b) => b.id)).toEqual([BOOK_ID_CONSENSUS, BOOK_ID_OPEN]);
    expect([15, 30, 68, 69, 75, 123, 71, 79, 2988, 2724, 647, 1901, 1904, 3151, 645, 510]).not.toContain(BOOK_ID_PINNACLE);
  });
});

describe('season windows', () => {
  test('when it is late November 2026, then the NBA is in its regular season and the WNBA is off', () => {
    expect(seasonPhaseOn(LEAGUE_ID_NBA, '2026-11-22')).toEqual({ season: 2026, phase: 'reg' });
    expect(seasonPhaseOn(LEAGUE_ID_WNBA, '2026-11-22')).toEqual({ season: 2026, phase: 'off' });
    expect(isGameDay(LEAGUE_ID_NBA, '2026-11-22')).toBe(true);
    expect(isGameDay(LEAGUE_ID_WNBA, '2026-11-22')).toBe(false);
  });

  test('when it is July, then the WNBA plays (outside its All-Star break) and the NBA does not', () => {
    expect(isGameDay(LEAGUE_ID_WNBA, '2026-07-10')).toBe(true);
    expect(isGameDay(LEAGUE_ID_WNBA, '2026-07-25')).toBe(false);
    expect(isGameDay(LEAGUE_ID_NBA, '2026-07-10')).toBe(false);
    expect(seasonPhaseOn(LEAGUE_ID_NBA, '2026-07-10')).toEqual({ season: 2025, phase: 'off' });
  });

  test('when it is spring, then the NBA season of the previous autumn is in its postseason', () => {
    expect(seasonPhaseOn(LEAGUE_ID_NBA, '2027-05-10')).toEqual({ season: 2026, phase: 'post' });
    expect(seasonPhaseOn(LEAGUE_ID_NBA, '2026-03-01')).toEqual({ season: 2025, phase: 'reg' });
    expect(seasonPhaseOn(LEAGUE_ID_WNBA, '2026-10-01')).toEqual({ season: 2026, phase: 'post' });
  });

  test('when it is Thanksgiving or the All-Star break, then the NBA has no games', () => {
    expect(isGameDay(LEAGUE_ID_NBA, '2026-11-26')).toBe(false);
    expect(isGameDay(LEAGUE_ID_NBA, '2027-02-14')).toBe(false);
    expect(isGameDay(LEAGUE_ID_NBA, '2027-02-20')).toBe(true);
  });

  test('when a season is not listed, then its window follows the league pattern', () => {
    expect(seasonWindow(LEAGUE_ID_NBA, 2030)).toMatchObject({
      regular_season: { from: '2030-10-21', to: '2031-04-12' },
      postseason: { from: '2031-04-14', to: '2031-06-20' },
    });
    expect(isGameDay(LEAGUE_ID_WNBA, '2031-07-01')).toBe(true);
    expect(seasonWindow(999, 2026)).toBeUndefined();
  });

  test('when reading the listed windows, then each is ordered pre < regular < post and uses YYYY-MM-DD dates', () => {
    for (const w of SEASON_WINDOWS) {
      for (const r of [w.preseason, w.regular_season, w.postseason, ...w.breaks]) {
        expect(r.from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(r.to >= r.from).toBe(true);
      }
      expect(w.preseason.to < w.regular_season.from).toBe(true);
      expect(w.regular_season.to < w.postseason.from).toBe(true);
    }
  });
});
