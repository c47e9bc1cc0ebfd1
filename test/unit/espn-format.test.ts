import { FeedDocumentError, formatOf } from '../../src/ingest/feeds';
import { espnGameId } from '../../src/ingest/feeds/espn';
import { normalizeEspnSummary } from '../../src/ingest/feeds/espn/normalize';
import { LEAGUE_ID_WNBA } from '../../src/ingest/reference-data';
import { readSeries } from '../support/feeds';

// The ESPN summary format on a real box score (test/fixtures/feeds/espn/) and on variations of it:
// the bad input of issue 37 (no teams, not final, unknown columns, a player without an id).

const capture = () => structuredClone(readSeries('espn/wnba-summary-2023-05_2023-07.jsonl.gz')[0]!);
const normalize = (body: unknown, envelope: Record<string, unknown> = { source: 'espn/summary', league: 'wnba' }) => normalizeEspnSummary(body, 'test', envelope);
const at = new Date('2023-05-20T20:00:00Z');

describe('ESPN summary format', () => {
  test('when a capture is labelled espn/summary or shaped like a summary, then it is read as ESPN; other formats are not', () => {
    const c = capture();
    expect(formatOf({ name: 'x', fetchedAt: at, body: c.body, envelope: { source: 'espn/summary' } }).name).toBe('espn');
    expect(formatOf({ name: 'x', fetchedAt: at, body: c.body }).name).toBe('espn');
    expect(formatOf({ name: 'x', fetchedAt: at, body: { games: [] } }).name).toBe('actionnetwork');
    expect(formatOf({ name: 'x', fetchedAt: at, body: [] }).name).toBe('the-odds-api');
  });

  test('when the real box score is read, then the game, its score and every player line are rows, as the summary writes them', () => {
    const c = capture();
    const doc = normalize(c.body);
    expect(doc.source).toBe('espn');
    expect(doc.carriesQuotes).toBe(false);
    expect(doc.games[0]).toMatchObject({ id: espnGameId('401507135'), leagueId: LEAGUE_ID_WNBA, status: 'finished', meta: { source_ids: { espn: '401507135' } } });
    expect(doc.identities![0]).toMatchObject({ sourceId: '401507135', startTime: new Date('2023-05-20T17:00Z') });
    expect(doc.boxscores[0]).toMatchObject({ homeScore: 85, awayScore: 78 });
    const box = doc.playerBoxscores![0]!;
    expect(box.final).toBe(true);
    const athletes = c.body.boxscore.players.flatMap((t: any) => t.statistics[0].athletes);
    expect(box.lines).toHaveLength(athletes.length);
    const parker = box.lines.find((l) => l.athleteId === '2529458')!;
    expect(parker.name).toBe('Cheyenne Parker-Tyus');
    expect(parker.line).toMatchObject({ minutes: 30, fieldGoalsMade: 7, fieldGoalsAttempted: 14, threesMade: 0, threesAttempted: 1, freeThrowsMade: 4, offensiveRebounds: 9, defensiveRebounds: 2, rebounds: 11, assists: 3, steals: 3, blocks: 0, turnovers: 6, fouls: 2, plusMinus: -20, points: 18, starter: true, didNotPlay: false });
    expect(parker.stats).toEqual({ MIN: '30', FG: '7-14', '3PT': '0-1', FT: '4-5', OREB: '9', DREB: '2', REB: '11', AST: '3', STL: '3', BLK: '0', TO: '6', PF: '2', '+/-': '-20', PTS: '18' });
  });

  test('when the summary has no teams, then the document is refused with the path and the reason', () => {
    const c = capture();
    delete c.body.header.competitions[0].competitors;
    expect(() => normalize(c.body)).toThrow(FeedDocumentError);
    expect(() => normalize(c.body)).toThrow(/competitors: is required/);
    const d = capture();
    d.body.header.competitions[0].competitors[0].team.displayName = 'Springfield Atoms';
    expect(() => normalize(d.body)).toThrow(/"Springfield Atoms" is not a team/);
    const e = capture();
    delete e.body.boxscore;
    expect(() => normalize(e.body)).toThrow(/boxscore: is required/);
    expect(() => normalize(capture().body, { source: 'espn/summary', league: 'mlb' })).toThrow(/no league this service serves/);
  });

  test('when the summary is not final, then its lines are read as a box score that is not final (props stay pending)', () => {
    const c = capture();
    c.body.header.competitions[0].status.type = { name: 'STATUS_IN_PROGRESS', state: 'in', completed: false };
    const doc = normalize(c.body);
    expect(doc.playerBoxscores![0]!.final).toBe(false);
    expect(doc.games[0]!.status).toBe('in_progress');
  });

  test('when a column is unknown, then it is kept as written and parsed into nothing; a known one missing leaves its statistic null', () => {
    const c = capture();
    const stats = c.body.boxscore.players[0].statistics[0];
    stats.names.push('EFF');
    stats.keys.push('efficiency');
    stats.labels.push('EFF');
    for (const a of stats.athletes) a.stats.push('12');
    const i = stats.keys.indexOf('blocks');
    stats.keys[i] = 'blockedShots';
    const doc = normalize(c.body);
    const line = doc.playerBoxscores![0]!.lines[0]!;
    expect(line.stats['EFF']).toBe('12');
    expect(line.line.blocks).toBeNull();
    expect(line.line.points).not.toBeNull();
  });

  test('when a player has no athlete id, then that player is left out and named; the rest of the box score is kept', () => {
    const c = capture();
    const athletes = c.body.boxscore.players[0].statistics[0].athletes;
    const count = c.body.boxscore.players.flatMap((t: any) => t.statistics[0].athletes).length;
    delete athletes[1].athlete.id;
    const doc = normalize(c.body);
    expect(doc.playerBoxscores![0]!.lines).toHaveLength(count - 1);
    expect(doc.skipped).toEqual([{ path: 'boxscore.players[0].statistics[0].athletes[1].athlete.id', reason: 'a player without an ESPN athlete id is left out' }]);
  });

  test('when a player did not play, then the line says so and has no statistics', () => {
    const c = capture();
    const a = c.body.boxscore.players[0].statistics[0].athletes[0];
    a.didNotPlay = true;
    a.stats = [];
    const line = normalize(c.body).playerBoxscores![0]!.lines[0]!;
    expect(line.line).toMatchObject({ didNotPlay: true, points: null, minutes: null });
    expect(line.stats).toEqual({});
  });
});
