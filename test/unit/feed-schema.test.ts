import fs from 'node:fs';
import { FEED, FEED_FULLY_CHECKED } from '../../src/ingest/feeds/actionnetwork/schema';
import { FeedDocumentError, normalizeDocument } from '../../src/ingest/feeds/actionnetwork/normalize';
import { createSimulator } from '../../src/ingest/simulator';
import { FEEDS, readFeed, readSeries } from '../support/feeds';

// The one zod schema of the upstream feed (src/ingest/feeds/actionnetwork/schema.ts): the real captures and the
// simulator's documents hold to every field it describes, and a malformed document is refused with
// a message naming the field.

function captures(): { name: string; body: unknown }[] {
  const out: { name: string; body: unknown }[] = [];
  for (const file of fs.readdirSync(FEEDS).sort()) {
    if (file.endsWith('.json')) out.push({ name: file, body: readFeed(file) });
    if (file.endsWith('.jsonl.gz')) readSeries(file).forEach((line, i) => out.push({ name: `${file}:${i + 1}`, body: line.body }));
  }
  return out;
}

/** The first problem the fully checked schema finds, as `path: message`, or null. */
function fullProblem(body: unknown): string | null {
  const parsed = FEED_FULLY_CHECKED.document.safeParse(body);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  return `${issue.path.join('.')}: ${issue.message}`;
}

describe('the feed schema', () => {
  test('when every real capture is checked against every described field, then all of them pass', () => {
    const all = captures();
    expect(all.length).toBeGreaterThan(100);
    const problems = all.map((c) => [c.name, fullProblem(c.body)]).filter(([, p]) => p !== null);
    expect(problems).toEqual([]);
  });

  test('when simulated documents of a whole evening are checked against every described field, then all of them pass', () => {
    const sim = createSimulator({ seed: 42, startDate: '2026-11-22', days: 0 });
    for (let m = 0; m <= 12 * 60; m += 45) {
      for (const body of sim.documentsAt(new Date(Date.parse('2026-11-22T17:00:00Z') + m * 60_000))) expect(fullProblem(body)).toBeNull();
    }
  });

  test('when a field nobody reads has another shape, then ingest still accepts the document but the full check names the field', () => {
    const body = readFeed('nba-2026-01-08-scheduled.json');
    body.league.conferences = 'EASTERN';
    expect(FEED.document.safeParse(body).success).toBe(true);
    expect(fullProblem(body)).toMatch(/^league\.conferences: /);
  });

  test.each([
    ['a game id that is text', (d: any) => (d.games[0].id = '263565'), 'games[0].id', /expected number, received string/],
    ['a team without its full name', (d: any) => delete d.games[2].teams[1].full_name, 'games[2].teams[1].full_name', /expected string, received undefined/],
    ['boxscore points that are text', (d: any) => (d.games[0].boxscore = { total_home_points: '99' }), 'games[0].boxscore.total_home_points', /expected number/],
    ['an outcome without its side', (d: any) => delete Object.values<any>(d.games[0].markets)[0].event.total[1].side, /^games\[0\]\.markets\["\d+"\]\.event\.total\[1\]\.side$/, /expected string, received undefined/],
    ['a book id that is not a number', (d: any) => (d.games[0].markets = { draftkings: {} }), 'games[0].markets.draftkings', /book ids are integers/],
    ['games that are not a list', (d: any) => (d.games = {}), 'games', /expected array, received object/],
  ])('when a document has %s, then it is refused with a message naming the field', (_what, mutate, path, reason) => {
    const body = readFeed('nba-2026-01-08-scheduled.json');
    mutate(body);
    let error: unknown;
    try {
      normalizeDocument(body, 'bad.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FeedDocumentError);
    const refused = error as FeedDocumentError;
    if (typeof path === 'string') expect(refused.path).toBe(path);
    else expect(refused.path).toMatch(path);
    expect(refused.reason).toMatch(reason);
    expect(refused.message).toBe(`bad.json: ${refused.path}: ${refused.reason}`);
  });
});
