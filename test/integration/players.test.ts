import { ingestDocuments } from '../../src/ingest/ingest';
import { readSources, type SourceDocument } from '../../src/ingest/sources';
import { feedPath } from '../support/feeds';
import { startTestApp, type TestApp } from '../support/app';

// GET /players and Query.players (issue 22, docs/player-props.md) on players the ingest created from
// the first 12 real props captures (test/fixtures/feeds/theoddsapi/wnba-props-*.jsonl.gz): books
// there spell "A'ja Wilson" and "Wilson A'ja", "Elena Delle Donne" and "Delle Donne Elena",
// "NaLyssa Smith" and "Nalyssa Smith", each one player.

const PROPS = 'theoddsapi/wnba-props-2023-05_2023-07.jsonl.gz';
const BASE = '/api/v1/nba/odds';
const WNBA = 5;

describe('players: /players and Query.players on the real props captures', () => {
  let t: TestApp;
  let key: string;
  let all: Array<{ id: number; name: string; league_id: number; team_id: number | null }>;

  beforeAll(async () => {
    t = await startTestApp();
    const docs: SourceDocument[] = [];
    for await (const d of readSources(feedPath(PROPS))) docs.push(d);
    docs.sort((a, b) => a.fetchedAt!.getTime() - b.fetchedAt!.getTime());
    expect(await ingestDocuments(docs.slice(0, 12), { db: t.db })).toMatchObject({ documents: 12, rejected: 0 });
    key = (await t.createKey('starter')).key;
    const res = await t.get(`${BASE}/players?limit=1000`, key);
    expect(res.status).toBe(200);
    all = res.body.data;
  }, 120_000);
  afterAll(() => t?.close());

  const names = (body: { data: Array<{ name: string }> }) => body.data.map((p) => p.name);

  test('when every player is listed, then each is one record with a stable id, the WNBA, no team (The Odds API names none) and sorted by name', async () => {
    const stored = await t.db.prisma.player.count();
    expect(all.length).toBe(stored);
    expect(all.length).toBeGreaterThan(30);
    for (const p of all) expect(p).toEqual({ id: expect.any(Number), name: expect.any(String), league_id: WNBA, team_id: null, espn_id: null });
    expect(all.map((p) => p.name)).toEqual([...all.map((p) => p.name)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    // Two spellings of one player are one record.
    expect(all.filter((p) => /wilson/i.test(p.name))).toHaveLength(1);
    expect(all.filter((p) => /delle donne/i.test(p.name))).toHaveLength(1);
    expect(all.filter((p) => /nalyssa/i.test(p.name))).toHaveLength(1);
  });

  test('when a name is searched in part, in another case, with accents, punctuation or the words swapped, then the same player is found', async () => {
    const wilson = all.find((p) => /wilson/i.test(p.name))!;
    for (const q of ['wilson', 'WILS', "a'ja", 'aja wil', 'Wilson A', 'Wílsón', 'A.ja']) {
      const res = await t.get(`${BASE}/players?name=${encodeURIComponent(q)}`, key);
      expect(res.status).toBe(200);
      expect(res.body.data.map((p: { id: number }) => p.id)).toContain(wilson.id);
    }
    const donne = await t.get(`${BASE}/players?name=${encodeURIComponent('donne elena')}`, key);
    expect(names(donne.body)).toEqual([all.find((p) => /delle donne/i.test(p.name))!.name]);
    const none = await t.get(`${BASE}/players?name=zzzz`, key);
    expect(none.body).toMatchObject({ success: true, data: [], count: 0, pagination: { limit: 100, offset: 0, total: 0, has_more: false } });
  });

  test('when filtered by player_id, league or team, or paged, then only those players come back with the total', async () => {
    const [a, b] = [all[3]!, all[7]!];
    const byId = await t.get(`${BASE}/players?player_id=${b.id},${a.id}`, key);
    expect(byId.body.data).toEqual([a, b]);
    expect((await t.get(`${BASE}/players?league_id=4`, key)).body.data).toEqual([]);
    expect((await t.get(`${BASE}/players?league_id=${WNBA}&limit=1`, key)).body.pagination.total).toBe(all.length);
    // No player of these captures has a known team.
    expect((await t.get(`${BASE}/players?team_id=1`, key)).body.data).toEqual([]);
    const page = await t.get(`${BASE}/players?limit=5&offset=5`, key);
    expect(page.body).toMatchObject({ count: 5, pagination: { limit: 5, offset: 5, total: all.length, has_more: true } });
    expect(page.body.data).toEqual(all.slice(5, 10));
    const both = await t.get(`${BASE}/players?name=wilson&player_id=${a.id}`, key);
    expect(both.body.data).toEqual(/wilson/i.test(a.name) ? [a] : []);
  });

  test('when asked through GraphQL, then Query.players answers the same players', async () => {
    const res = await t.graphql('query($n: String) { players(name: $n, limit: 1000) { total items { id name leagueId teamId } } }', { n: 'smith' }, key);
    expect(res.body.errors).toBeUndefined();
    const rest = await t.get(`${BASE}/players?name=smith&limit=1000`, key);
    expect(res.body.data.players.total).toBe(rest.body.pagination.total);
    expect(res.body.data.players.items.map((p: { id: number }) => p.id)).toEqual(rest.body.data.map((p: { id: number }) => p.id));
    const bad = await t.graphql('{ players(name: "   ") { total } }', {}, key);
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  test.each([
    ['name=', 'name'],
    [`name=${'x'.repeat(101)}`, 'name'],
    ['name=%00abc', 'name'],
    ['name=...', 'name'],
    ['player_id=abc', 'player_id'],
    ['team_id=-1', 'team_id'],
    ['league_id=x', 'league_id'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['offset=-1', 'offset'],
  ])('when /players gets %s, then it answers 400 naming %s', async (query, param) => {
    const res = await t.get(`${BASE}/players?${query}`, key);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(JSON.stringify(res.body)).toContain(param);
  });
});
