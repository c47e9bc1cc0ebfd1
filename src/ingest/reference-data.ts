/**
 * Static reference data: leagues, teams, sportsbooks and season windows. Pure data plus tiny typed
 * look-ups, no I/O. Values follow the upstream scoreboard feed (real captures in test/fixtures/feeds/) where
 * the real samples show them; the rest is documented at each choice.
 *
 * Everything here is time-zone independent: season windows are local calendar dates of the league
 * (US Eastern game days), never instants.
 */

/** Upstream league id of the NBA (`league_id` in every real sample). */
export const LEAGUE_ID_NBA = 4;
/**
 * League id used for the WNBA. No WNBA document of the feed was available to confirm the upstream
 * value, so 5 is our choice (unconfirmed); the simulator and ingest use this constant. If a real WNBA
 * document shows another id, change it here (and only here).
 */
export const LEAGUE_ID_WNBA = 5;

export type Sport = 'basketball';
export type SeasonType = 'pre' | 'reg' | 'post';

export interface LeagueRef {
  id: number;
  sport: Sport;
  /** Feed spelling: lower-case short name ("nba"). */
  name: string;
  /** Short display label ("NBA"). */
  abbr: string;
  description: string;
  logo: string;
  /** Season string as the feed writes it: the calendar year the season starts in ("2026" = NBA 2026-27). */
  current_season: string;
  current_season_type: SeasonType;
  is_active: boolean;
  /** Regulation: `periods` quarters of `period_minutes` minutes; overtime periods of `overtime_minutes`. */
  periods: number;
  period_minutes: number;
  overtime_minutes: number;
  conferences: readonly string[];
  /** Division ids with their conference; empty for the WNBA (conferences only). */
  divisions: readonly { id: string; display: string; conference_id: string }[];
}

/** As of November 2026: the NBA 2026-27 season is under way, the WNBA 2026 season ended in October. */
export const LEAGUES: readonly LeagueRef[] = [
  {
    id: LEAGUE_ID_NBA,
    sport: 'basketball',
    name: 'nba',
    abbr: 'NBA',
    description: "Men's National Basketball Association", // the feed's own wording
    logo: 'https://static.sprtactn.co/leagues/500/nba.png',
    current_season: '2026',
    current_season_type: 'reg',
    is_active: true,
    periods: 4,
    period_minutes: 12,
    overtime_minutes: 5,
    conferences: ['EASTERN', 'WESTERN'],
    divisions: [
      { id: 'ATLANTIC', display: 'Atlantic', conference_id: 'EASTERN' },
      { id: 'CENTRAL', display: 'Central', conference_id: 'EASTERN' },
      { id: 'SOUTHEAST', display: 'Southeast', conference_id: 'EASTERN' },
      { id: 'SOUTHWEST', display: 'Southwest', conference_id: 'WESTERN' },
      { id: 'NORTHWEST', display: 'Northwest', conference_id: 'WESTERN' },
      { id: 'PACIFIC', display: 'Pacific', conference_id: 'WESTERN' },
    ],
  },
  {
    id: LEAGUE_ID_WNBA,
    sport: 'basketball',
    name: 'wnba',
    abbr: 'WNBA',
    description: "Women's National Basketball Association",
    // Same path scheme as the NBA logo of the feed; not confirmed by a sample.
    logo: 'https://static.sprtactn.co/leagues/500/wnba.png',
    current_season: '2026',
    current_season_type: 'reg',
    is_active: true,
    periods: 4,
    period_minutes: 10,
    overtime_minutes: 5,
    conferences: ['EASTERN', 'WESTERN'],
    divisions: [],
  },
];

/** A team as the feed's `teams[]` carries it, minus the per-game `standings`. */
export interface TeamRef {
  id: number;
  league_id: number;
  abbr: string;
  full_name: string;
  display_name: string;
  short_name: string;
  location: string;
  url_slug: string;
  logo: string;
  /** Hex without '#', upper-case. */
  primary_color: string;
  secondary_color: string;
  /** Upper-case ("EASTERN"). */
  conference_type: string;
  /** Upper-case ("SOUTHEAST"); null for WNBA teams (the WNBA has no divisions). */
  division_type: string | null;
  /** Upstream "core" id; null when unknown. */
  core_id: number | null;
}

/**
 * NBA: the 30 teams exactly as the `teams[]` arrays of the real samples carry them (ids 157-186, names,
 * logos, colours, conference/division, url_slug, core_id), except that colours are upper-cased (the
 * feed had one lower-case value, Brooklyn's secondary "cb0436").
 */
export const NBA_TEAMS: readonly TeamRef[] = [
  {
    id: 157, league_id: LEAGUE_ID_NBA, abbr: 'WAS', full_name: 'Washington Wizards', display_name: 'Wizards',
    short_name: 'Wizards', location: 'Washington', url_slug: 'washington-wizards',
    logo: 'https://static.sprtactn.co/teamlogos/nba/100/wsh.png',
    primary_color: '002B5C', secondary_color: 'E31837', conference_type: 'EASTERN', division_type: 'SOUTHEAST', core_id: 2143,
  },
  {
    id: 158, league_id: LEAGUE_ID_NBA, abbr: 'CHA', full_name: 'Charlotte Hornets', display_name: 'Hornets',
    short_name: 'Hornets', location: 'Charlotte', url_slug: 'charlotte-hornets',
    logo: 'https://static.sprtactn.co/teamlogos/nba/100/cha.png',
    primary_color: '1D1160', secondary_color: '008CA8', conference_type: 'EASTERN', division_type: 'SOUTHEAST', core_id: 2233,
  },
  {
    id: 159, league_id: LEAGUE_ID_NBA, abbr: 'ATL', full_name: 'Atlanta Hawks', display_name: 'Hawks',
    short_name: 'Hawks', location: 'Atlanta', url_slug: 'atlanta-hawks',
    logo: 'https://static.sprtactn.co/teamlogos/nba/100/atl.png',
    primary_color: 'E13A3E', secondary_color: 'C4D600', conference_type: 'EASTERN', division_type: 'SOUTHEAST', core_id: 2240,
  },
  {
    id: 160, league_id: LEAGUE_ID_NBA, abbr: 'MIA', full_name: 'Miami Heat', display_name: 'Heat',
    short_name: 'Heat', location: 'Miami', url_slug: 'miami-heat',
    logo: 'https://static.sprtactn.co/teamlogos/nba/100/mia.png',
    primary_color: '98002E', secondary_color: 'F9A01B', conference_type: 'EASTERN', division_type: 'SOUTHEAST', core_id: 1952,
  },
  {
    id: 161, league_id: LEAGUE_ID_NBA, abbr: 'ORL', full_name: 'Orlando Magic', display_name: 'Magic',
    short_name: 'Magic', location: 'Orlando', url_slug: 'orlando-magic',
    logo: 'https://assets.actionnetwork.com/738861_magic3.png',
    primary_color: '007DC5', secondary_color: 'C4CED3', conference_type: 'EASTERN', division_type: 'SOUTHEAST', core_id: 7106,
  },
  {
    id: 162, league_id: LEAGUE_ID_NBA, abbr: 'NYK', full_name: 'New York Knicks', display_name: 'Knicks',
    short_name: 'Knicks', location: 'New York', url_slug: 'new-york-knicks',
    logo: 'https://assets.actionnetwork.com/740173_58419cc8a6515b1e0ad75a67.png',
    primary_color: '006BB6', secondary_color: 'F58426', conference_type: 'EASTERN', division_type: 'ATLANTIC', core_id: 2002,
  },
  {
    id: 163, league_id: LEAGUE_ID_NBA, abbr: 'PHI', full_name: 'Philadelphia 76ers', display_name: '76ers',
    short_name: '76ers', location: 'Philadelphia', url_slug: 'philadelphia-76ers',
    logo: 'https://static.sprtactn.co/teamlogos/nba/100/phi.png',
    primary_color: 'ED174C', secondary_color: '006BB6', conference_type: 'EASTERN', division_type: 'ATLANTIC', core_id: 2082,
  },
  {
    id: 164, league_id: LEAGUE_ID_NBA, abbr: 'BOS', full_name: 'Boston Celtics', display_name: 'Celtics',
    short_name: 'Celtics', location: 'Boston', url_slug: 'boston-celtics',
    logo: 'https://static.sprtactn.co/teamlogos/nba/100/bos.png',
    primary_color: '008348', secondary_color: 'BB9753', conference_type: 'EASTERN', division_type: 'ATLANTIC', core_id: 2126,
  },
  {
    id: 165, league_id: LEAGUE_ID_NBA, abbr: 'BKN', full_name: 'Brooklyn Nets', display_name: 'Nets',
    short_name: 'Nets', location: 'Brooklyn', url_slug: 'brooklyn-nets',
    logo: 'https://static.sprtactn.co/teamlogos/nba/100/bkn.png',
    primary_color: '061922', secondary_color: 'CB0436', conference_type: 'EASTERN', division_type: 'ATLANTIC', core_id: 2226,
  },
  {
    id: 166, league_id: LEAGUE_ID_NBA, abbr: 'TOR', full_name: 'Toronto Raptors', display_name: 'Raptors',
    short_name: 'Raptors', location: 'Toronto', url_slug: 'toronto-raptors',
    logo: 'https://static.sprtactn.co/teamlogos/nba/100/tor.png',
    primary_color: 'CE1141', secondary_color: '061922', conference_type: 'EASTERN', division_type: 'ATLANTIC', core_id: 2178,
  },
  {
    id: 167, league_id: LEAGUE_ID_NBA, abbr: 'CLE', full_name: 'Cleveland Cavaliers', display_name: 'Cavaliers',
    short_name: 'Cavaliers', location: 'Cleveland', url_slug: 'cleveland-cavaliers',
    logo: 'https://assets.actionnetwork.com/408598_cleveland1.png',
    primary_color: '860038', secondary_color: 'FDBB30', conference_type: 'EASTERN', division_type: 'CENTRAL', core_id: 2217,
  },
  {
    id: 168, league_id: LEAGUE_ID_NBA, abbr: 'IND', full_name: 'Indiana Pacers', display_name: 'Pacers',
    short_name: 'Pacers', location: 'Indiana', url_slug: 'indiana-pacers',
    logo: 'https://static.sprtactn.co/teamlogos/nba/100/ind.png',
    primary_color: 'FFC633', secondary_color: '00275D', conference_type: 'EASTERN', division_type: 'CENTRAL', core_id: 1968,
  },
  {
    id: 169, league_id: LEAGUE_ID_NBA, abbr: 'CHI', full_name: 'Chicago Bulls', display_name: 'Bulls',
    short_name: 'Bulls', location: 'Chicago', url_slug: 'chicago-bulls',
    logo: 'https://static.sprtactn.co/teamlogos/nba/100/chi.png',
    primary_color: 'CE1141', secondary_color: '061922', conference_type: 'EASTERN', division_type: 'CENTRAL', core_id: 2070,
  },
  {
    id: 170, league_id: LEAGUE_ID_NBA, abbr: 'DET', full_name: 'Detroit Pistons', display_name: 'Pistons',
    short_name: 'Pistons', location: 'Detroit', url_slug: 'detroit-pistons',
    logo: 'https://assets.actionnetwork.com/343538_pistons.png',
    primary_color: 'ED174C', secondary_color: '006BB6', conference_type: 'EASTERN', division_type: 'CENTRAL', core_id: 2172,
  },
  {
    id: 171, league_id: LEAGUE_ID_NBA, abbr: 'MIN', full_name: 'Minnesota Timberwolves', display_name: 'Timberwolves',
    short_name: 'Timberwolves', location: 'Minnesota', url_slug: 'minnesota-timberwolves',
    logo: 'https://assets.actionnetwork.com/821630_twolves-cropped-128x128.png',
    primary_color: '005083', secondary_color: '00A94F', conference_type: 'WESTERN', division_type: 'NORTHWEST', core_id: 2065,
  },
  {
    id: 172, league_id: LEAGUE_ID_NBA, abbr: 'MIL', full_name: 'Milwaukee Bucks', display_name: 'Bucks',
    short_name: 'Bucks', location: 'Milwaukee', url_slug: 'milwaukee-bucks',
    logo: 'https://static.sprtactn.co/teamlogos/nba/100/mil.png',
    primary_color: '00471B', secondary_color: 'F0EBD2', conference_type: 'EASTERN', division_type: 'CENTRAL', core_id: 2241,
  },
  {
    id: 173, league_id: LEAGUE_ID_NBA, abbr: 'UTA', full_name: 'Utah Jazz', display_name: 'Jazz',
    short_name: 'Jazz', location: 'Utah', url_slug: 'utah-jazz',
    logo: 'https://assets.actionnetwork.com/13223_jazz25.png',
    primary_color: '4E008E', secondary_color: '010101', conference_type: 'WESTERN', division_type: 'NORTHWEST', core_id: 2127,
  },
  {
    id: 174, league_id: LEAGUE_ID_NBA, abbr: 'DEN', full_name: 'Denver Nuggets', display_name: 'Nuggets',
    short_name: 'Nuggets', location: 'Denver', url_slug: 'denver-nuggets',
    logo: 'https://assets.actionnetwork.com/725847_nba_den_150x150.png',
    primary_color: '4D90CD', secondary_color: 'FDB927', conference_type: 'WESTERN', division_type: 'NORTHWEST', core_id: 2216,
  },
  {
    id: 175, league_id: LEAGUE_ID_NBA, abbr: 'OKC', full_name: 'Oklahoma City Thunder', display_name: 'Thunder',
    short_name: 'Thunder', location: 'Oklahoma City', url_slug: 'oklahoma-city-thunder',
    logo: 'https://static.sprtactn.co/teamlogos/nba/100/okc.png',
    primary_color: '007DC3', secondary_color: 'F05133', conference_type: 'WESTERN', division_type: 'NORTHWEST', core_id: 17317,
  },
  {
    id: 176, league_id: LEAGUE_ID_NBA, abbr: 'POR', full_name: 'Portland Trail Blazers', display_name: 'Trail Blazers',
    short_name: 'Trail Blazers', location: 'Portland', url_slug: 'portland-trail-blazers',
    logo: 'https://assets.actionnetwork.com/312105_Blazers.png',
    primary_color: 'E03A3E', secondary_color: 'BAC3C9', conference_type: 'WESTERN', division_type: 'NORTHWEST', core_id: 2104,
  },
  {
    id: 177, league_id: LEAGUE_ID_NBA, abbr: 'MEM', full_name: 'Memphis Grizzlies', display_name: 'Grizzlies',
    short_name: 'Grizzlies', location: 'Memphis', url_slug: 'memphis-grizzlies',
    logo: 'https://static.sprtactn.co/teamlogos/nba/100/mem.png',
    primary_color: '0F586C', secondary_color: '7399C6', conference_type: 'WESTERN', division_type: 'SOUTHWEST', core_id: 2036,
  },
  {
    id: 178, league_id: LEAGUE_ID_NBA, abbr: 'HOU', full_name: 'Houston Rockets', display_name: 'Rockets',
    short_name: 'Rockets', location: 'Houston', url_slug: 'houston-rockets',
    logo: 'https://static.sprtactn.co/teamlogos/nba/100/hou.png',
    primary_color: 'CE1141', secondary_color: 'C4CED3', conference_type: 'WESTERN', division_type: 'SOUTHWEST', core_id: 2200,
  },
  {
    id: 179, league_id: LEAGUE_ID_NBA, abbr: 'NOP', full_name: 'New Orleans Pelicans', display_name: 'Pelicans',
    short_name: 'Pelicans', location: 'New Orleans', url_slug: 'new-orleans-pelicans',
    logo: 'https://static.sprtactn.co/teamlogos/nba/100/no.png',
    primary_color: '002B5C', secondary_color: 'E31837', conference_type: 'WESTERN', division_type: 'SOUTHWEST', core_id: 1995,
  },
  {
    id: 180, league_id: LEAGUE_ID_NBA, abbr: 'DAL', full_name: 'Dallas Mavericks', display_name: 'Mavericks',
    short_name: 'Mavericks', location: 'Dallas', url_slug: 'dallas-mavericks',
    logo: 'https://static.sprtactn.co/teamlogos/nba/100/dal.png',
    primary_color: '007DC5', secondary_color: 'C4CED3', conference_type: 'WESTERN', division_type: 'SOUTHWEST', core_id: 2046,
  },
  {
    id: 181, league_id: LEAGUE_ID_NBA, abbr: 'SAS', full_name: 'San Antonio Spurs', display_name: 'Spurs',
    short_name: 'Spurs', location: 'San Antonio', url_slug: 'san-antonio-spurs',
    logo: 'https://static.sprtactn.co/teamlogos/nba/100/sas.png',
    primary_color: 'BAC3C9', secondary_color: '061922', conference_type: 'WESTERN', division_type: 'SOUTHWEST', core_id: 2076,
  },
  {
    id: 182, league_id: LEAGUE_ID_NBA, abbr: 'GSW', full_name: 'Golden State Warriors', display_name: 'Warriors',
    short_name: 'Warriors', location: 'Golden State', url_slug: 'golden-state-warriors',
    logo: 'https://assets.actionnetwork.com/759063_Warriors.png',
    primary_color: 'FDB927', secondary_color: '006BB6', conference_type: 'WESTERN', division_type: 'PACIFIC', core_id: 2080,
  },
  {
    id: 183, league_id: LEAGUE_ID_NBA, abbr: 'PHX', full_name: 'Phoenix Suns', display_name: 'Suns',
    short_name: 'Suns', location: 'Phoenix', url_slug: 'phoenix-suns',
    logo: 'https://assets.actionnetwork.com/875040_Suns.png',
    primary_color: 'E56020', secondary_color: '1D1160', conference_type: 'WESTERN', division_type: 'PACIFIC', core_id: 2024,
  },
  {
    id: 184, league_id: LEAGUE_ID_NBA, abbr: 'LAC', full_name: 'Los Angeles Clippers', display_name: 'Clippers',
    short_name: 'Clippers', location: 'LA', url_slug: 'los-angeles-clippers',
    logo: 'https://assets.actionnetwork.com/719322_clippers.png',
    primary_color: 'ED174C', secondary_color: '006BB6', conference_type: 'WESTERN', division_type: 'PACIFIC', core_id: 2190,
  },
  {
    id: 185, league_id: LEAGUE_ID_NBA, abbr: 'SAC', full_name: 'Sacramento Kings', display_name: 'Kings',
    short_name: 'Kings', location: 'Sacramento', url_slug: 'sacramento-kings',
    logo: 'https://assets.actionnetwork.com/348219_kings.png',
    primary_color: '724C9F', secondary_color: '8E9090', conference_type: 'WESTERN', division_type: 'PACIFIC', core_id: 2152,
  },
  {
    id: 186, league_id: LEAGUE_ID_NBA, abbr: 'LAL', full_name: 'Los Angeles Lakers', display_name: 'Lakers',
    short_name: 'Lakers', location: 'Los Angeles', url_slug: 'los-angeles-lakers',
    logo: 'https://assets.actionnetwork.com/758536_Lakers.png',
    primary_color: 'FDB927', secondary_color: '552582', conference_type: 'WESTERN', division_type: 'PACIFIC', core_id: 2060,
  },
];

/**
 * WNBA, 2026 season (15 teams, incl. the expansion Golden State Valkyries (2025), Toronto Tempo and
 * Portland Fire (2026)). No upstream WNBA sample was available, so:
 * - ids are our own stable choice in a range disjoint from upstream NBA ids: 5001-5015, assigned in
 *   alphabetical order of full name; never renumber, only append;
 * - logos follow the feed's NBA path scheme (teamlogos/<league>/100/<abbr>.png), unconfirmed;
 * - colours are the teams' published primaries/secondaries (Tempo and Fire from their 2025 brand
 *   launches, approximate);
 * - core_id is unknown (null).
 */
export const WNBA_TEAMS: readonly TeamRef[] = [
  wnba(5001, 'ATL', 'Atlanta', 'Dream', 'E31837', '5091CD', 'EASTERN'),
  wnba(5002, 'CHI', 'Chicago', 'Sky', '418FDE', 'FFCD00', 'EASTERN'),
  wnba(5003, 'CON', 'Connecticut', 'Sun', 'F05023', '0A2240', 'EASTERN'),
  wnba(5004, 'DAL', 'Dallas', 'Wings', '002B5C', 'C4D600', 'WESTERN'),
  wnba(5005, 'GSV', 'Golden State', 'Valkyries', '5D2E8C', '000000', 'WESTERN'),
  wnba(5006, 'IND', 'Indiana', 'Fever', '002D62', 'E03A3E', 'EASTERN'),
  wnba(5007, 'LV', 'Las Vegas', 'Aces', 'A7A8AA', '000000', 'WESTERN'),
  wnba(5008, 'LA', 'Los Angeles', 'Sparks', '552583', 'FDB927', 'WESTERN'),
  wnba(5009, 'MIN', 'Minnesota', 'Lynx', '266092', '79BC43', 'WESTERN'),
  wnba(5010, 'NY', 'New York', 'Liberty', '86CEBC', '000000', 'EASTERN'),
  wnba(5011, 'PHX', 'Phoenix', 'Mercury', '3C286E', 'FA4B0A', 'WESTERN'),
  wnba(5012, 'POR', 'Portland', 'Fire', 'CE0E2D', '1D1D1B', 'WESTERN'),
  wnba(5013, 'SEA', 'Seattle', 'Storm', '2C5235', 'FEE11A', 'WESTERN'),
  wnba(5014, 'TOR', 'Toronto', 'Tempo', '6B2C3E', 'C5A572', 'EASTERN'),
  wnba(5015, 'WAS', 'Washington', 'Mystics', '0C2340', 'E03A3E', 'EASTERN'),
];

function wnba(
  id: number,
  abbr: string,
  location: string,
  nickname: string,
  primary: string,
  secondary: string,
  conference: string,
): TeamRef {
  const fullName = `${location} ${nickname}`;
  return {
    id,
    league_id: LEAGUE_ID_WNBA,
    abbr,
    full_name: fullName,
    display_name: nickname,
    short_name: nickname,
    location,
    url_slug: fullName.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    logo: `https://static.sprtactn.co/teamlogos/wnba/100/${abbr.toLowerCase()}.png`,
    primary_color: primary,
    secondary_color: secondary,
    conference_type: conference,
    division_type: null,
    core_id: null,
  };
}

/** All teams of both leagues. Ids are unique across leagues; abbreviations only within a league. */
export const TEAMS: readonly TeamRef[] = [...NBA_TEAMS, ...WNBA_TEAMS];

/** What a book is: a place to bet at fixed odds, a betting exchange, a prediction market, or an aggregate of other books. */
export const BOOK_KINDS = ['sportsbook', 'exchange', 'prediction_market', 'aggregate'] as const;
export type BookKind = (typeof BOOK_KINDS)[number];

export interface SportsbookRef {
  id: number;
  /** Always a name (spec 2.7): the upstream one, or a neutral "Sportsbook 510" when no source names the id. */
  name: string;
  /** False when `name` is the neutral one: no source names this id. */
  name_known: boolean;
  kind: BookKind;
  /** Aggregates (consensus, opening line) are not places to bet: exclude from best odds, book counts, arbitrage. */
  is_aggregate: boolean;
  /** A sharp, low-margin reference book whose prices approximate the fair line. */
  is_sharp: boolean;
}

/** Consensus line (aggregate of books). */
export const BOOK_ID_CONSENSUS = 15;
/** Opening line (aggregate; reduced outcome shape upstream, no public betting). */
export const BOOK_ID_OPEN = 30;
/**
 * Pinnacle, the sharp reference book. Its upstream id is unknown; 4999 is our own choice, unused by
 * any id seen in the feed samples or named in the feed README.
 */
export const BOOK_ID_PINNACLE = 4999;

function book(id: number, name: string, kind: BookKind = 'sportsbook', isSharp = false): SportsbookRef {
  return { id, name, name_known: true, kind, is_aggregate: kind === 'aggregate', is_sharp: isSharp };
}
/** An id a feed quotes without naming it anywhere: a neutral name, flagged as unknown upstream. */
function unnamed(id: number): SportsbookRef {
  return { id, name: `Sportsbook ${id}`, name_known: false, kind: 'sportsbook', is_aggregate: false, is_sharp: false };
}

/**
 * Every book with its stable integer id. Ids under 4999 are Action Network's (from the feed README:
 * the most credible mapping found, not confirmed upstream); 4999 and 6001-6999 are ours, given to
 * books only The Odds API names (src/ingest/feeds/the-odds-api/books.ts maps its keys onto these ids:
 * the same book from two sources is one sportsbook). Never renumber, only append.
 */
export const SPORTSBOOKS: readonly SportsbookRef[] = [
  book(BOOK_ID_CONSENSUS, 'Consensus', 'aggregate'),
  book(BOOK_ID_OPEN, 'Open', 'aggregate'),
  book(68, 'DraftKings'),
  book(69, 'FanDuel'),
  book(75, 'BetMGM'),
  book(123, 'Caesars'),
  book(71, 'BetRivers'),
  book(79, 'bet365'),
  book(2988, 'Fanatics'),
  book(2724, 'Hard Rock'),
  // Quoted in the real captures but named nowhere (not in the feed README, not in the documents): the
  // ids are listed so their quotes are served and /sportsbooks shows them, under a neutral name that
  // says so (name_known false) rather than an invented brand. The simulator never quotes them
  // (src/ingest/simulator/books.ts).
  unnamed(647),
  unnamed(1901),
  unnamed(1904),
  unnamed(3151),
  unnamed(645),
  unnamed(510),
  book(BOOK_ID_PINNACLE, 'Pinnacle', 'sportsbook', true),
  // Books The Odds API names (its bookmaker titles).
  book(6001, 'BetOnline.ag'),
  book(6002, 'BetUS'),
  book(6003, 'Bovada'),
  book(6004, 'LowVig.ag'),
  book(6005, 'MyBookie.ag'),
  book(6006, 'ESPN BET'),
  book(6007, 'Bally Bet'),
  book(6008, 'betPARX'),
  book(6009, 'Fliff'),
  book(6010, 'BetAnySports'),
  book(6020, 'Betfair Exchange (AU)', 'exchange'),
  book(6021, 'Betfair Exchange (UK)', 'exchange'),
  book(6022, 'Betfair Exchange (EU)', 'exchange'),
  book(6023, 'Matchbook', 'exchange'),
  book(6024, 'Smarkets', 'exchange'),
  book(6025, 'Novig', 'exchange'),
  book(6026, 'ProphetX', 'exchange'),
  book(6027, 'BetOpenly', 'exchange'),
  book(6030, 'Kalshi', 'prediction_market'),
  book(6031, 'Polymarket', 'prediction_market'),
  book(6040, 'PointsBet (AU)'),
  book(6041, 'TABtouch'),
  book(6042, 'Unibet'),
  book(6043, 'TAB'),
  book(6044, 'Neds'),
  book(6045, 'SportsBet'),
  book(6046, 'Ladbrokes'),
  book(6047, 'Bet Right'),
  book(6048, 'Betr'),
  book(6049, 'PlayUp'),
  book(6050, 'Dabble AU'),
  book(6051, 'bet365 (AU)'),
  book(6052, 'BoomBet'),
];

// ---------------------------------------------------------------------------------------------------
// Season windows (local calendar dates of the league's game day, US Eastern)

export interface DateRange {
  /** Inclusive, YYYY-MM-DD. */
  from: string;
  /** Inclusive, YYYY-MM-DD. */
  to: string;
}

export interface SeasonWindow {
  league_id: number;
  /** The feed's season number: the calendar year the season starts in. */
  season: number;
  preseason: DateRange;
  regular_season: DateRange;
  /** Play-in and playoffs ("post" in the feed). */
  postseason: DateRange;
  /** Days without games inside the season (All-Star break, holidays). */
  breaks: readonly DateRange[];
}

/**
 * Known and planned windows. NBA 2025 is taken from the feed's league object (regular season
 * 2025-10-21..2026-04-12, postseason from 2026-04-14); later seasons follow the published pattern
 * (regular season late October to mid April, playoffs to mid/late June; WNBA regular season mid May to
 * mid September, playoffs to mid October). Seasons not listed are derived by `seasonWindow` from the
 * same month/day pattern.
 */
export const SEASON_WINDOWS: readonly SeasonWindow[] = [
  {
    league_id: LEAGUE_ID_NBA,
    season: 2025,
    preseason: { from: '2025-10-02', to: '2025-10-17' },
    regular_season: { from: '2025-10-21', to: '2026-04-12' },
    postseason: { from: '2026-04-14', to: '2026-06-21' },
    breaks: [
      { from: '2025-11-27', to: '2025-11-27' },
      { from: '2025-12-24', to: '2025-12-24' },
      { from: '2026-02-13', to: '2026-02-18' },
    ],
  },
  {
    league_id: LEAGUE_ID_NBA,
    season: 2026,
    preseason: { from: '2026-10-02', to: '2026-10-16' },
    regular_season: { from: '2026-10-20', to: '2027-04-11' },
    postseason: { from: '2027-04-13', to: '2027-06-20' },
    breaks: [
      { from: '2026-11-26', to: '2026-11-26' },
      { from: '2026-12-24', to: '2026-12-24' },
      { from: '2027-02-12', to: '2027-02-17' },
    ],
  },
  {
    league_id: LEAGUE_ID_WNBA,
    season: 2025,
    preseason: { from: '2025-05-02', to: '2025-05-11' },
    regular_season: { from: '2025-05-16', to: '2025-09-11' },
    postseason: { from: '2025-09-14', to: '2025-10-17' },
    breaks: [{ from: '2025-07-18', to: '2025-07-20' }],
  },
  {
    league_id: LEAGUE_ID_WNBA,
    season: 2026,
    preseason: { from: '2026-05-01', to: '2026-05-10' },
    regular_season: { from: '2026-05-15', to: '2026-09-13' },
    postseason: { from: '2026-09-16', to: '2026-10-16' },
    breaks: [{ from: '2026-07-24', to: '2026-07-26' }],
  },
  {
    league_id: LEAGUE_ID_WNBA,
    season: 2027,
    preseason: { from: '2027-04-30', to: '2027-05-09' },
    regular_season: { from: '2027-05-14', to: '2027-09-12' },
    postseason: { from: '2027-09-15', to: '2027-10-19' },
    breaks: [{ from: '2027-07-23', to: '2027-07-25' }],
  },
];

/** Month/day pattern used for seasons without an explicit window. `+1` marks the following year. */
const SEASON_PATTERN: Record<number, { pre: [string, string]; reg: [string, string]; post: [string, string] }> = {
  [LEAGUE_ID_NBA]: { pre: ['10-02', '10-16'], reg: ['10-21', '+1-04-12'], post: ['+1-04-14', '+1-06-20'] },
  [LEAGUE_ID_WNBA]: { pre: ['05-01', '05-10'], reg: ['05-15', '09-12'], post: ['09-15', '10-17'] },
};

export type SeasonPhase = SeasonType | 'off';

export function leagueById(id: number): LeagueRef | undefined {
  return LEAGUES.find((l) => l.id === id);
}

export function teamById(id: number): TeamRef | undefined {
  return TEAMS.find((t) => t.id === id);
}

export function teamsOfLeague(leagueId: number): readonly TeamRef[] {
  return TEAMS.filter((t) => t.league_id === leagueId);
}

/** Team by league and abbreviation (case-insensitive); abbreviations repeat across leagues (e.g. "TOR"). */
export function teamByAbbr(leagueId: number, abbr: string): TeamRef | undefined {
  const wanted = abbr.toUpperCase();
  return TEAMS.find((t) => t.league_id === leagueId && t.abbr === wanted);
}

/**
 * Other spellings of team names that feeds use (keys and values in the matching form of
 * `nameKey`): The Odds API writes full names, sometimes shortened ("LA Clippers").
 */
const TEAM_ALIASES: Readonly<Record<string, string>> = {
  'la clippers': 'los angeles clippers',
  'la lakers': 'los angeles lakers',
  'la sparks': 'los angeles sparks',
  'philadelphia sixers': 'philadelphia 76ers',
  'portland trailblazers': 'portland trail blazers',
};

/** A name as names are compared: lower case, letters and digits separated by single spaces. */
function nameKey(name: string): string {
  return name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, ' ').trim();
}

const TEAMS_BY_NAME = new Map(TEAMS.map((t) => [`${t.league_id}|${nameKey(t.full_name)}`, t]));

/** Team of a league by full name or a known alias, compared without case and punctuation. */
export function teamByName(leagueId: number, name: string): TeamRef | undefined {
  const key = nameKey(name);
  return TEAMS_BY_NAME.get(`${leagueId}|${TEAM_ALIASES[key] ?? key}`);
}

export function sportsbookById(id: number): SportsbookRef | undefined {
  return SPORTSBOOKS.find((b) => b.id === id);
}

/** The window of `season` for a league: the explicit one if listed, else derived from the month/day pattern. */
export function seasonWindow(leagueId: number, season: number): SeasonWindow | undefined {
  const known = SEASON_WINDOWS.find((w) => w.league_id === leagueId && w.season === season);
  if (known) return known;
  const pattern = SEASON_PATTERN[leagueId];
  if (!pattern) return undefined;
  const at = (md: string): string =>
    md.startsWith('+1-') ? `${String(season + 1)}-${md.slice(3)}` : `${String(season)}-${md}`;
  return {
    league_id: leagueId,
    season,
    preseason: { from: at(pattern.pre[0]), to: at(pattern.pre[1]) },
    regular_season: { from: at(pattern.reg[0]), to: at(pattern.reg[1]) },
    postseason: { from: at(pattern.post[0]), to: at(pattern.post[1]) },
    breaks: [],
  };
}

function inRange(date: string, range: DateRange): boolean {
  // YYYY-MM-DD strings compare chronologically.
  return date >= range.from && date <= range.to;
}

/**
 * Phase of the league on a local date (YYYY-MM-DD), with the season it belongs to. Dates between
 * seasons are 'off' and carry the season that ended last.
 */
export function seasonPhaseOn(leagueId: number, localDate: string): { season: number; phase: SeasonPhase } {
  const year = Number(localDate.slice(0, 4));
  // A date can belong to the season that started this year or (NBA) the one that started last year.
  for (const season of [year, year - 1]) {
    const w = seasonWindow(leagueId, season);
    if (!w) continue;
    if (inRange(localDate, w.regular_season)) return { season, phase: 'reg' };
    if (inRange(localDate, w.postseason)) return { season, phase: 'post' };
    if (inRange(localDate, w.preseason)) return { season, phase: 'pre' };
  }
  const thisYear = seasonWindow(leagueId, year);
  const ended = thisYear && localDate > thisYear.postseason.to ? year : year - 1;
  return { season: ended, phase: 'off' };
}

/** True when the league plays regular-season or postseason games on that local date (breaks excluded). */
export function isGameDay(leagueId: number, localDate: string): boolean {
  const { season, phase } = seasonPhaseOn(leagueId, localDate);
  if (phase !== 'reg' && phase !== 'post') return false;
  const w = seasonWindow(leagueId, season);
  return !!w && !w.breaks.some((b) => inRange(localDate, b));
}
