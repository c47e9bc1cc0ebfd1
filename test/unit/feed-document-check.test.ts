import { FEED } from '../../src/ingest/feeds/actionnetwork/schema';
import { documentCertainlyValid } from '../../src/ingest/feeds/actionnetwork/document-check';
import { normalizeDocument } from '../../src/ingest/feeds/actionnetwork/normalize';
import { readFeed, readSeries } from '../support/feeds';
import { simulatedEvening } from '../support/simulated';

// The hand-written check of a whole scoreboard document (src/ingest/feeds/actionnetwork/document-check.ts)
// must never accept what the zod schema refuses (a refusal then falls back to zod for its message), and
// must accept the real captures (else the fast path is never taken). Its markets part has its own
// test (feed-markets-check.test.ts).

const WRONG_VALUES: unknown[] = [undefined, null, 'x', '', 'not a time', 1.5, 2, 0, -1, Number.NaN, Infinity, 2 ** 60, 2 ** 31, -(2 ** 31) - 1, 2 ** 40, true, {}, { a: 1 }, [], [1], [null], new Date(0)];

/** A real document with a boxscore (linescore included), teams with standings and a league. */
function realDocument(): any {
  const body = readFeed('nba-2026-01-24-mixed-status.json');
  body.games.sort((a: any, b: any) => Number(Boolean(b.boxscore?.linescore?.length)) - Number(Boolean(a.boxscore?.linescore?.length)));
  return body;
}

/** Every object the schema describes in the document, with its listed keys (from the schema itself, so a key added there is tested here). */
function containers(doc: any): Array<[string, any, string[]]> {
  const game = doc.games[0];
  const team = game.teams.find((t: any) => t.standings) ?? game.teams[0];
  team.standings ??= { win: 1, loss: 2 };
  return [
    ['document', doc, Object.keys(FEED.document.shape)],
    ['league', doc.league, Object.keys(FEED.league.shape)],
    ['game', game, Object.keys(FEED.game.shape)],
    ['team', team, Object.keys(FEED.team.shape)],
    ['standings', team.standings, ['win', 'loss', 'ties', 'overtime_losses', 'draw']],
    ['boxscore', game.boxscore, Object.keys(FEED.boxscore.shape)],
    ['linescore period', game.boxscore.linescore[0], Object.keys(FEED.linescorePeriod.shape)],
  ];
}

describe('the document check of the ingest fast path', () => {
  test('when every capture of the real series is checked, then the check accepts it as zod does', () => {
    let documents = 0;
    for (const file of ['nba-2026-01-24.jsonl.gz', 'nba-2026-04-29-playoffs.jsonl.gz']) {
      for (const { body } of readSeries(file)) {
        documents++;
        expect(FEED.document.safeParse(body).success).toBe(true);
        expect(documentCertainlyValid(body)).toBe(true);
      }
    }
    for (const file of ['nba-2026-01-08-scheduled.json', 'nba-2026-01-24-mixed-status.json', 'nba-2026-04-29-playoffs-subset.json']) {
      expect(documentCertainlyValid(readFeed(file))).toBe(true);
    }
    expect(documents).toBeGreaterThan(100);
  });

  test('when the simulator writes an evening of documents, then they take the fast path too', () => {
    const bodies = simulatedEvening();
    for (const body of bodies) expect(documentCertainlyValid(body)).toBe(true);
    expect(bodies.length).toBeGreaterThan(0);
  });

  test.each(containers(realDocument()).map(([what]) => what))('when each field of the %s takes each wrong or odd value, then the check never accepts what zod refuses', (what) => {
    const doc = realDocument();
    const [, container, keys] = containers(doc).find(([w]) => w === what)!;
    expect(documentCertainlyValid(doc)).toBe(true);
    let refusedByZod = 0;
    for (const key of keys) {
      const had = Object.hasOwn(container, key);
      const original = container[key];
      for (const value of WRONG_VALUES) {
        if (value === undefined) delete container[key];
        else container[key] = value;
        if (!FEED.document.safeParse(doc).success) {
          refusedByZod++;
          expect([what, key, value, documentCertainlyValid(doc)]).toEqual([what, key, value, false]);
        }
      }
      if (had) container[key] = original;
      else delete container[key];
    }
    expect(documentCertainlyValid(doc)).toBe(true);
    expect(refusedByZod).toBeGreaterThan(0);
  });

  test('when a linescore period is a hole or a game is not an object, then the check refuses as zod does', () => {
    for (const spoil of [(d: any) => (d.games[0].boxscore.linescore = new Array(2)), (d: any) => (d.games[1] = 'x'), (d: any) => (d.games = {})]) {
      const doc = realDocument();
      spoil(doc);
      expect(FEED.document.safeParse(doc).success).toBe(false);
      expect(documentCertainlyValid(doc)).toBe(false);
    }
  });

  test('when a document passes the fast path, then it normalises to the same rows as the whole zod parse', () => {
    for (const { body } of readSeries('nba-2026-04-29-playoffs.jsonl.gz')) {
      expect(documentCertainlyValid(body)).toBe(true);
      expect(normalizeDocument(body, 'fast.json')).toEqual(normalizeDocument(FEED.document.parse(body), 'zod.json'));
    }
  });

  test('when a field of a game is malformed, then the refusal names it as the whole zod parse does', () => {
    const doc = realDocument();
    doc.games[1].start_time = 'soon';
    expect(() => normalizeDocument(doc, 'bad.json')).toThrow('bad.json: games[1].start_time: expected an ISO 8601 timestamp');
  });
});
