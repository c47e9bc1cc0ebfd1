import { startFeeds, type FeedRunner } from '../../src/ingest/feed-runner';
import { createSimulator } from '../../src/ingest/simulator';
import { demoClockShift } from '../../src/ingest/simulator/simulated-feed';
import { createLogger } from '../../src/logger';
import { startTestApp, type TestApp } from '../support/app';

// `odds serve --simulate` (the demo of `npm start`) started at any hour: the simulated feed runs in
// the app as in `odds serve`, under a fake wall clock that starts at a chosen instant and runs 60x
// (a simulated minute per second), so prices move within a test.

const LIVE = '/api/v1/nba/odds/live';
const SPEED = 60;

interface Demo {
  t: TestApp;
  feeds: FeedRunner;
  key: string;
  /** The fake wall clock. */
  now: () => Date;
}

async function startDemo(startAt: string, clock: 'demo' | 'real'): Promise<Demo> {
  const realStart = Date.now();
  const fakeStart = Date.parse(startAt);
  const now = () => new Date(fakeStart + (Date.now() - realStart) * SPEED);
  const t = await startTestApp({ now, env: { SIMULATOR_INTERVAL_MS: '500', SIMULATOR_CLOCK: clock } });
  const feeds = startFeeds({ config: t.config, db: t.db, bus: t.bus, logger: createLogger(t.config), simulate: true, now });
  const key = (await t.createKey('pro')).key;
  return { t, feeds, key, now };
}

async function stopDemo(demo: Demo | undefined): Promise<void> {
  await demo?.feeds.stop();
  await demo?.t.close();
}

/** GETs `path` until `accept` holds for the body (the feed ingests in the background), or fails naming what was last seen. */
async function getUntil(demo: Demo, path: string, accept: (body: any) => boolean, timeoutMs = 60_000): Promise<any> {
  const started = Date.now();
  let body: any;
  for (;;) {
    body = (await demo.t.get(path, demo.key)).body;
    if (accept(body)) return body;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out: last answer ${JSON.stringify(body).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Each displayed live price of a /live answer, by game, market and side. */
function prices(body: any): Map<string, string> {
  const out = new Map<string, string>();
  for (const game of body.data)
    for (const [type, market] of Object.entries<any>(game.markets))
      for (const o of market.outcomes) out.set(`${game.game_id}|${type}|${o.book_id}|${o.side}`, `${o.point}|${o.odds.american}`);
  return out;
}

describe.each([
  ['05:49 UTC in November (US night)', '2026-11-24T05:49:00Z'],
  ['15:00 UTC in November (US morning)', '2026-11-24T15:00:00Z'],
  ['15:00 UTC in July (WNBA season only)', '2026-07-15T15:00:00Z'],
])('the demo started at %s', (_when, startAt) => {
  let demo: Demo | undefined;
  beforeAll(async () => {
    demo = await startDemo(startAt, 'demo');
  }, 120_000);
  afterAll(() => stopDemo(demo), 60_000);

  test('when /live is read, then games are in progress, started before now, with the data\'s time as updated_at, and their prices move', async () => {
    const d = demo!;
    // The backfill (the hours before the start) comes first; then the feed ticks from the start on.
    const first = await getUntil(d, LIVE, (b) => b.count > 0 && Date.parse(b.updated_at) >= Date.parse(startAt));
    expect(first.success).toBe(true);
    expect(first.data.every((g: any) => g.status === 'in_progress')).toBe(true);
    // Start times are on the wall clock: in the last few hours, not on a US evening elsewhere in the day.
    const at = d.now().getTime();
    for (const g of first.data) {
      expect(Date.parse(g.start_time)).toBeLessThan(at);
      expect(Date.parse(g.start_time)).toBeGreaterThan(at - 5 * 3_600_000);
    }
    expect(first.updated_at).not.toBeNull();
    expect(Date.parse(first.updated_at)).toBeGreaterThanOrEqual(Date.parse(startAt));
    expect(Date.parse(first.updated_at)).toBeLessThanOrEqual(d.now().getTime());
    const before = prices(first);
    const later = await getUntil(d, LIVE, (b) => b.count > 0 && [...prices(b)].some(([k, v]) => before.has(k) && before.get(k) !== v));
    expect(Date.parse(later.updated_at)).toBeGreaterThan(Date.parse(first.updated_at));
  }, 120_000);

  test('when /live?market_type=player_props is read, then the games in progress list live player props (simulated players with their teams)', async () => {
    const d = demo!;
    const body = await getUntil(d, `${LIVE}?market_type=player_props`, (b) => b.count > 0 && b.data.every((g: any) => g.markets.player_props?.outcomes.length > 0));
    for (const g of body.data) {
      expect(g.status).toBe('in_progress');
      const teams = [g.home_team_id, g.away_team_id];
      for (const o of g.markets.player_props.outcomes) {
        expect(o.is_live).toBe(true);
        expect(teams).toContain(o.player.team_id);
      }
    }
  }, 120_000);
});

describe('the simulated feed on the real clock (SIMULATOR_CLOCK=real)', () => {
  let demo: Demo | undefined;
  beforeAll(async () => {
    demo = await startDemo('2026-11-24T15:00:00Z', 'real');
  }, 120_000);
  afterAll(() => stopDemo(demo), 60_000);

  test('when no game is being played (10:00 in New York), then /live is empty and updated_at is still the data\'s time', async () => {
    const d = demo!;
    const body = await getUntil(d, LIVE, (b) => b.updated_at != null);
    expect(body).toMatchObject({ success: true, count: 0, data: [] });
    expect(Date.parse(body.updated_at)).toBeGreaterThanOrEqual(Date.parse('2026-11-24T09:00:00Z'));
    expect(Date.parse(body.updated_at)).toBeLessThanOrEqual(d.now().getTime());
  }, 120_000);
});

describe('demoClockShift', () => {
  test('when the wall clock is at any hour of a day, then the shifted clock is less than a day back and at least 3 games are being played there', () => {
    const options = { seed: 42, timeZone: 'America/New_York' };
    // The simulated slates of 2026-11-22..25 (New York days) cover every shifted instant below.
    const games = createSimulator({ ...options, startDate: '2026-11-22', days: 3 }).scheduleGames();
    for (let h = 0; h < 24; h++) {
      const at = new Date(Date.UTC(2026, 10, 24, h, 49));
      const shift = demoClockShift(at, options);
      expect(shift).toBeGreaterThanOrEqual(0);
      expect(shift).toBeLessThan(24 * 3_600_000);
      expect(shift % 60_000).toBe(0);
      const simNow = at.getTime() - shift;
      const playing = games.filter((g) => Date.parse(g.tip_off_at) <= simNow && simNow < Date.parse(g.final_at));
      expect([h, playing.length >= 3]).toEqual([h, true]);
    }
  });
});
