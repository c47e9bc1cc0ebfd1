import { isDeepStrictEqual } from 'node:util';
import type { Database } from '../../src/db/client';
import { ingestDocuments } from '../../src/ingest/ingest';
import { seedReferenceData } from '../../src/ingest/seed';
import { readSources } from '../../src/ingest/sources';
import { createLocalBus, type EventBus, type OddsChangeEvent } from '../../src/events/bus';
import { openTestDatabase } from '../support/database';
import { doc, feedPath, readFeed, readSeries } from '../support/feeds';

let db: Database;

async function counts() {
  const [games, quotes, history, betting, teams] = await Promise.all([
    db.prisma.game.count(),
    db.prisma.quote.count(),
    db.prisma.oddsHistory.count(),
    db.prisma.publicBetting.count(),
    db.prisma.team.count(),
  ]);
  return { games, quotes, history, betting, teams };
}

beforeAll(async () => {
  db = await openTestDatabase();
  await seedReferenceData(db.prisma);
});
afterAll(async () => {
  await db?.close();
});

describe('ingest of a real scoreboard document', () => {
  test('when the mixed-status evening is ingested, then games, statuses, boxscores and quotes are stored', async () => {
    const raw = readFeed('nba-2026-01-24-mixed-status.json');
    const summary = await ingestDocuments(readSources(feedPath('nba-2026-01-24-mixed-status.json')), { db });
    expect(summary).toMatchObject({ documents: 1, games: raw.games.length, rejected: 0 });

    const stored = await db.prisma.game.findMany({ include: { boxscore: true } });
    expect(stored).toHaveLength(raw.games.length);
    for (const g of raw.games) {
      const row = stored.find((s) => s.id === g.id)!;
      expect(row.upstreamStatus).toBe(g.status);
      expect(row.realStatus).toBe(g.real_status);
      expect(row.homeTeamId).toBe(g.home_team_id);
      expect(row.startTime.toISOString()).toBe(new Date(g.start_time).toISOString());
      if (g.boxscore) {
        expect(row.boxscore?.homeScore).toBe(g.boxscore.total_home_points);
        expect(row.boxscore?.awayScore).toBe(g.boxscore.total_away_points);
      }
    }
    const statuses = new Set(stored.map((s) => s.status));
    for (const s of statuses) expect(['scheduled', 'in_progress', 'finished', 'closed', 'postponed', 'cancelled']).toContain(s);
    const halftime = stored.find((s) => s.realStatus === 'halftime');
    if (halftime) expect(halftime.status).toBe('in_progress');

    // Every moneyline/spread/total outcome of the document that is not an alternate line has a quote.
    const expected = new Set<string>();
    for (const g of raw.games)
      for (const [book, periods] of Object.entries<any>(g.markets ?? {}))
        for (const market of ['moneyline', 'spread', 'total'])
          for (const o of periods.event?.[market] ?? [])
            if (!o.is_alt_market && o.odds != null) expected.add(`${g.id}|${book}|${market}|${o.side}|${o.is_live ?? false}`);
    const quotes = await db.prisma.quote.findMany({ where: { period: 'full_game' } });
    expect(new Set(quotes.map((q) => `${q.gameId}|${q.bookId}|${q.marketType}|${q.side}|${q.isLive}`))).toEqual(expected);
  });

  test('when the same document is ingested again, then nothing changes', async () => {
    const before = await counts();
    const quotesBefore = await db.prisma.quote.findMany({ orderBy: { id: 'asc' } });
    const summary = await ingestDocuments(readSources(feedPath('nba-2026-01-24-mixed-status.json')), { db, now: () => new Date('2026-01-24T00:00:00Z') });
    expect(summary.quotesChanged).toBe(0);
    expect(summary.historyRows).toBe(0);
    expect(await counts()).toEqual(before);
    const quotesAfter = await db.prisma.quote.findMany({ orderBy: { id: 'asc' } });
    expect(quotesAfter.map((q) => [q.id, q.american, q.point, q.changedAt.getTime()])).toEqual(
      quotesBefore.map((q) => [q.id, q.american, q.point, q.changedAt.getTime()]),
    );
  });
});

/** Gives the first game's first book a team total (the feed's core_bet_type_6_team_score) built from its total. */
function teamTotal(d: any, fields: Record<string, unknown>): void {
  const event = Object.values<any>(d.games[0].markets)[0].event;
  event.core_bet_type_6_team_score = [{ ...event.total[0], type: 'core_bet_type_6_team_score', ...fields }];
}

/** Every history row of `d`, in key and time order (what two stores are compared by). */
const historyOf = (d: Database) =>
  d.prisma.oddsHistory.findMany({
    select: { gameId: true, bookId: true, marketType: true, period: true, side: true, isLive: true, point: true, american: true, seenAt: true },
    orderBy: [{ gameId: 'asc' }, { bookId: 'asc' }, { marketType: 'asc' }, { period: 'asc' }, { side: 'asc' }, { isLive: 'asc' }, { seenAt: 'asc' }],
  });

/** A fresh store (seeded with the reference data unless `seed` is false) and a local bus whose odds events are collected, closed after `body`. */
async function withOddsEvents(body: (fresh: Database, bus: EventBus, events: OddsChangeEvent[]) => Promise<void>, seed = true): Promise<void> {
  const fresh = await openTestDatabase();
  const bus = createLocalBus();
  const events: OddsChangeEvent[] = [];
  bus.subscribe('odds', (e) => events.push(e));
  try {
    if (seed) await seedReferenceData(fresh.prisma);
    await body(fresh, bus, events);
  } finally {
    await bus.close();
    await fresh.close();
  }
}

/** Two fresh stores seeded with the reference data, closed after `body`: one to break, one to compare with. */
async function withTwoStores(body: (fresh: Database, reference: Database) => Promise<void>): Promise<void> {
  const fresh = await openTestDatabase();
  const reference = await openTestDatabase();
  try {
    await Promise.all([seedReferenceData(fresh.prisma), seedReferenceData(reference.prisma)]);
    await body(fresh, reference);
  } finally {
    await fresh.close();
    await reference.close();
  }
}

/** Makes the database refuse every insert into `table` (as a failing disk would) until the returned function is called. */
async function refuseInserts(db: Database, table: string, message: string): Promise<() => Promise<void>> {
  const name = `refuse_${table.toLowerCase()}`;
  await db.prisma.$executeRawUnsafe(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '${message}'; END $$`);
  await db.prisma.$executeRawUnsafe(`CREATE TRIGGER ${name} BEFORE INSERT ON "${table}" FOR EACH ROW EXECUTE FUNCTION ${name}()`);
  return async () => {
    await db.prisma.$executeRawUnsafe(`DROP TRIGGER ${name} ON "${table}"`);
  };
}

/** The message a run failed with, or 'stored'. */
const outcomeOf = (run: Promise<unknown>): Promise<string> =>
  run.then(
    () => 'stored',
    (error: Error) => error.message,
  );

/** A book's markets as another book's: every outcome names `bookId`. */
function bookRenamed(markets: any, bookId: number): any {
  const copy = structuredClone(markets);
  for (const outcomes of Object.values<any>(copy).flatMap((period: any) => Object.values<any>(period))) for (const o of outcomes) o.book_id = bookId;
  return copy;
}

describe('malformed documents', () => {
  const base = () => readFeed('nba-2026-01-08-scheduled.json');

  test.each([
    ['a game without an id', (d: any) => delete d.games[0].id, /games\[0\]\.id/],
    ['odds that are text', (d: any) => (Object.values<any>(d.games[0].markets)[0].event.moneyline[0].odds = '-110'), /games\[0\]\.markets\["\d+"\]\.event\.moneyline\[0\]\.odds/],
    ['impossible American odds', (d: any) => (Object.values<any>(d.games[0].markets)[0].event.moneyline[0].odds = 50), /odds.*50/],
    ['a start time that is not a time', (d: any) => (d.games[1].start_time = 'tomorrow'), /games\[1\]\.start_time/],
    ['no games array', (d: any) => delete d.games, /games/],
    ['a spread side that does not exist', (d: any) => (Object.values<any>(d.games[0].markets)[0].event.spread[0].side = 'draw'), /spread\[0\]\.side/],
    ['a team total of a team not in the game', (d: any) => teamTotal(d, { team_id: 999_999 }), /core_bet_type_6_team_score\[0\]\.team_id/],
    ['a team total with a home side', (d: any) => teamTotal(d, { team_id: d.games[0].home_team_id, side: 'home' }), /core_bet_type_6_team_score\[0\]\.side/],
    // Integers are stored in PostgreSQL's int: one beyond it is the document's fault, not a failed capture.
    ['a week beyond a 32-bit integer', (d: any) => (d.games[0].week = 2 ** 40), /games\[0\]\.week/],
    ['a bet count beyond a 32-bit integer', (d: any) => (d.games[1].num_bets = 2 ** 31), /games\[1\]\.num_bets/],
    ['odds beyond a 32-bit integer', (d: any) => (Object.values<any>(d.games[0].markets)[0].event.moneyline[0].odds = 2 ** 40), /moneyline\[0\]\.odds/],
    ['a book id of ten digits', (d: any) => (d.games[0].markets['9999999999'] = bookRenamed(Object.values<any>(d.games[0].markets)[0], 9_999_999_999)), /games\[0\]\.markets/],
  ])('when a document has %s, then it is rejected naming the path and nothing is written', async (_what, mutate, pathPattern) => {
    const fresh = await openTestDatabase();
    try {
      await seedReferenceData(fresh.prisma);
      const body = base();
      mutate(body);
      const rejected: string[] = [];
      const summary = await ingestDocuments([doc(body, '2026-01-08T12:00:00Z', 'bad.json')], { db: fresh, onRejected: (_n, m) => rejected.push(m) });
      expect(summary.rejected).toBe(1);
      expect(rejected[0]).toMatch(/^bad\.json: /);
      expect(rejected[0]).toMatch(pathPattern);
      expect(await fresh.prisma.game.count()).toBe(0);
      expect(await fresh.prisma.quote.count()).toBe(0);
    } finally {
      await fresh.close();
    }
  });

  test('when a series has a broken line between good ones, then the good ones are stored and the series goes on', async () => {
    const fresh = await openTestDatabase();
    try {
      const good = base();
      const summary = await ingestDocuments(
        [doc(good, '2026-01-08T12:00:00Z', 'series:1'), { name: 'series:2', fetchedAt: null, body: null, error: 'not valid JSON' }, doc(good, '2026-01-08T12:05:00Z', 'series:3')],
        { db: fresh },
      );
      expect(summary).toMatchObject({ documents: 3, rejected: 1, games: good.games.length });
      expect(await fresh.prisma.game.count()).toBe(good.games.length);
    } finally {
      await fresh.close();
    }
  });

  test('when a document carries unknown extra keys, then they are ignored', async () => {
    const body = base();
    body.unexpected = { nested: true };
    body.games[0].brand_new_field = [1, 2, 3];
    Object.values<any>(body.games[0].markets)[0].event.moneyline[0].some_flag = 'x';
    const summary = await ingestDocuments([doc(body, '2026-01-08T12:00:00Z')], { db });
    expect(summary.rejected).toBe(0);
  });
});

describe('history', () => {
  test('when only one price moves between two captures, then exactly one history row is added and an event names it', () =>
    withOddsEvents(async (fresh, bus, events) => {
      const first = readFeed('nba-2026-01-08-scheduled.json');
      await ingestDocuments([doc(first, '2026-01-08T12:00:00Z')], { db: fresh, bus });
      const historyBefore = await fresh.prisma.oddsHistory.count();
      const second = structuredClone(first);
      const [bookId, periods] = Object.entries<any>(second.games[0].markets).find(([b]) => b === '68') ?? Object.entries<any>(second.games[0].markets)[2]!;
      const outcome = periods.event.moneyline[0];
      outcome.odds = outcome.odds < 0 ? outcome.odds - 15 : outcome.odds + 15;
      events.length = 0;
      const summary = await ingestDocuments([doc(second, '2026-01-08T12:10:00Z')], { db: fresh, bus });
      expect(summary.historyRows).toBe(1);
      expect(await fresh.prisma.oddsHistory.count()).toBe(historyBefore + 1);
      const row = await fresh.prisma.oddsHistory.findFirst({ orderBy: { id: 'desc' } });
      expect(row).toMatchObject({ gameId: second.games[0].id, bookId: Number(bookId), marketType: 'moneyline', side: outcome.side, american: outcome.odds });
      expect(row?.seenAt.toISOString()).toBe('2026-01-08T12:10:00.000Z');
      expect(events).toHaveLength(1);
      expect(events[0]!.markets).toEqual([{ gameId: second.games[0].id, marketType: 'moneyline', bookId: Number(bookId) }]);
    }, false));
});

describe('games', () => {
  test('when only a game\'s bet count changes between two captures, then the stored game has the new count and time, is announced, and nothing else of it changes', () =>
    withOddsEvents(async (fresh, bus, events) => {
      const first = readFeed('nba-2026-01-08-scheduled.json');
      await ingestDocuments([doc(first, '2026-01-08T12:00:00Z')], { db: fresh, bus });
      const gameId = first.games[0].id;
      const before = await fresh.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
      const second = structuredClone(first);
      second.games[0].num_bets = (second.games[0].num_bets ?? 0) + 321;
      events.length = 0;
      await ingestDocuments([doc(second, '2026-01-08T12:10:00Z')], { db: fresh, bus });
      const after = await fresh.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
      expect(after).toEqual({ ...before, numBets: second.games[0].num_bets, updatedAt: new Date('2026-01-08T12:10:00Z'), seenAt: new Date('2026-01-08T12:10:00Z') });
      expect(events.map((e) => e.games)).toEqual([[gameId]]);
      // An older capture does not bring the old count back.
      await ingestDocuments([doc(first, '2026-01-08T12:05:00Z')], { db: fresh, bus });
      expect((await fresh.prisma.game.findUniqueOrThrow({ where: { id: gameId } })).numBets).toBe(second.games[0].num_bets);
    }));
});

describe('lost games', () => {
  // A game in progress that no capture carries for 3 hours is marked lost (`unknown`) by the capture
  // that finds it so. The captures queued behind that one are diffed before it commits: a game it
  // marks must read lost to them, whether memory holds the game or not.
  const slate = () => readFeed('nba-2026-01-08-scheduled.json');
  const { id, start_time: start } = slate().games[0];
  const playing = () => {
    const d = slate();
    Object.assign(d.games[0], { status: 'inprogress', real_status: 'inprogress', status_display: '2nd Qtr' });
    return d;
  };
  const without = () => {
    const d = slate();
    d.games.shift();
    return d;
  };
  /** The time `minutes` after the game's start. */
  const at = (minutes: number) => new Date(new Date(start).getTime() + minutes * 60_000).toISOString();

  test('when the capture right after the one that finds a game lost carries it in progress again, then the feed\'s status wins', () =>
    withOddsEvents(async (fresh, bus, events) => {
      // One run: the three captures are queued behind each other.
      await ingestDocuments([doc(playing(), at(10)), doc(without(), at(200)), doc(playing(), at(210))], { db: fresh, bus });
      expect(events.map((e) => e.games.includes(id))).toEqual([true, true, true]);
      expect((await fresh.prisma.game.findUniqueOrThrow({ where: { id } })).status).toBe('in_progress');
    }));

  test('when a game memory no longer holds is found lost and the next capture carries it in progress again, then the feed\'s status wins', () =>
    withOddsEvents(async (fresh, bus, events) => {
      // Not carried for two days: the sweep marks it lost in the database and memory forgets it, so
      // the third capture reads it from the database, which must hold the second capture's change.
      const twoDays = 2 * 24 * 60;
      await ingestDocuments([doc(playing(), at(10)), doc(without(), at(twoDays + 60)), doc(playing(), at(twoDays + 70))], { db: fresh, bus });
      expect(events.map((e) => e.games.includes(id))).toEqual([true, true, true]);
      expect((await fresh.prisma.game.findUniqueOrThrow({ where: { id } })).status).toBe('in_progress');
    }));
});

describe('replay of a recorded series', () => {
  test('when broken lines sit between the captures of a real series, then documents are counted, reported and published in stream order, each capture once and in its order', () =>
    withOddsEvents(async (fresh, bus, published) => {
      // The first 12 captures of 2026-01-24 with a broken line after the 1st, 2nd, 6th and 7th: several
      // captures are queued behind the running statement while rejections wait their turn.
      const captures = readSeries('nba-2026-01-24.jsonl.gz').slice(0, 12);
      const broken = (n: number) => ({ name: `series:broken${n}`, fetchedAt: null, body: null, error: 'not valid JSON' });
      const stream = captures.flatMap((c, i) => [doc(c.body, c.fetched_at, `series:${i + 1}`), ...([0, 1, 5, 6].includes(i) ? [broken(i + 1)] : [])]);
      const order: string[] = [];
      const summary = await ingestDocuments(stream, {
        db: fresh,
        bus,
        onRejected: (name) => order.push(`rejected ${name}`),
        onDocument: (s, name) => order.push(`${name} (${s.documents})`),
      });
      expect(summary).toMatchObject({ documents: stream.length, rejected: 4 });
      const expected = stream.flatMap((d, i) => (d.name.startsWith('series:broken') ? [`rejected ${d.name}`, `${d.name} (${i + 1})`] : [`${d.name} (${i + 1})`]));
      expect(order).toEqual(expected);
      // One event per capture that changed something, in capture order, each with the next version.
      expect(published.length).toBeGreaterThan(6);
      expect(published.map((e) => e.at)).toEqual([...published.map((e) => e.at)].sort());
      const versions = published.map((e) => e.version ?? 0);
      expect(versions.every((v) => v > 0)).toBe(true);
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
      expect(new Set(versions).size).toBe(versions.length);
    }), 60_000);

  test.each([
    ['each capture its own statement', false],
    ['captures written in groups', true],
  ])('when a capture fails on the database (%s), then the run stops with its error, the captures queued behind it are not written, and the next run goes on from the database', (_, grouped) =>
    withTwoStores(async (fresh, reference) => {
      const captures = readSeries('nba-2026-01-24.jsonl.gz').slice(0, 8);
      const stream = (from: number, to: number) => captures.slice(from, to).map((c, i) => doc(c.body, c.fetched_at, `series:${from + i + 1}`));
      await ingestDocuments(stream(0, 2), { db: fresh, grouped });
      // The database refuses every capture statement for a while (as a failing disk or a restart would).
      const accept = await refuseInserts(fresh, 'ChangeLog', 'refused by the test');
      expect(await outcomeOf(ingestDocuments(stream(2, 6), { db: fresh, grouped }))).toMatch(/refused by the test/);
      const versionAfterFailure = await fresh.prisma.changeLog.count();
      await accept();
      // The failure is not passed on: the next run is written, diffed from what the database holds.
      const summary = await ingestDocuments(stream(6, 8), { db: fresh, grouped });
      expect(summary).toMatchObject({ documents: 2, rejected: 0 });
      expect(await fresh.prisma.changeLog.count()).toBeGreaterThan(versionAfterFailure);
      // Exactly as if the refused captures had never been sent.
      await ingestDocuments([...stream(0, 2), ...stream(6, 8)], { db: reference });
      const quotes = (d: Database) =>
        d.prisma.quote.findMany({
          select: { gameId: true, bookId: true, marketType: true, period: true, side: true, isLive: true, point: true, american: true, isAvailable: true, seenAt: true, changedAt: true },
          orderBy: [{ gameId: 'asc' }, { bookId: 'asc' }, { marketType: 'asc' }, { period: 'asc' }, { side: 'asc' }, { isLive: 'asc' }],
        });
      expect(await quotes(fresh)).toEqual(await quotes(reference));
      expect(await historyOf(fresh)).toEqual(await historyOf(reference));
    }), 60_000);

  test('when the signals of a capture cannot be stored, then its prices are not stored either, and the next run stores both as if nothing had failed', () =>
    withTwoStores(async (fresh, reference) => {
      const captures = readSeries('nba-2026-01-24.jsonl.gz');
      const docs = captures.map((c, i) => doc(c.body, c.fetched_at, `series:${i + 1}`));
      // The first capture that stores a line-movement signal, found on the reference store.
      let first = -1;
      for (let i = 0; i < docs.length && first < 0; i++) {
        await ingestDocuments([docs[i]!], { db: reference });
        if (await reference.prisma.lineSignal.count()) first = i;
      }
      expect(first).toBeGreaterThan(0);
      await ingestDocuments(docs.slice(0, first), { db: fresh });
      const logged = await fresh.prisma.changeLog.count();
      const accept = await refuseInserts(fresh, 'LineSignal', 'signal refused by the test');
      expect(await outcomeOf(ingestDocuments([docs[first]!], { db: fresh }))).toMatch(/signal refused by the test/);
      // One transaction: the prices that showed the signals are not stored without them.
      expect(await fresh.prisma.oddsHistory.count({ where: { seenAt: new Date(captures[first]!.fetched_at) } })).toBe(0);
      expect(await fresh.prisma.changeLog.count()).toBe(logged);
      await accept();
      await ingestDocuments([docs[first]!], { db: fresh });
      const signals = (d: Database) => d.prisma.lineSignal.findMany({ select: { key: true, data: true, detectedAt: true }, orderBy: { key: 'asc' } });
      expect((await signals(fresh)).length).toBeGreaterThan(0);
      expect(await signals(fresh)).toEqual(await signals(reference));
      expect(await historyOf(fresh)).toEqual(await historyOf(reference));
    }), 120_000);

  test('when the playoff series is replayed, then opening and closing lines and final scores match the raw captures, and a second replay changes nothing', async () => {
    const fresh = await openTestDatabase();
    try {
      const captures = readSeries('nba-2026-04-29-playoffs.jsonl.gz');
      const summary = await ingestDocuments(readSources(feedPath('nba-2026-04-29-playoffs.jsonl.gz')), { db: fresh });
      expect(summary).toMatchObject({ documents: captures.length, rejected: 0 });

      // Expected opening (first seen) and closing (last seen) price of every pregame full-game outcome,
      // team totals (core_bet_type_6_team_score) included, stored as one market per team.
      const open = new Map<string, { odds: number; value: number | null; at: string }>();
      const close = new Map<string, { odds: number; value: number | null }>();
      const storedType = (market: string, g: any, o: any) =>
        market !== 'core_bet_type_6_team_score' ? market : o.team_id === g.home_team_id ? 'home_team_total' : 'away_team_total';
      let teamTotals = 0;
      for (const capture of captures)
        for (const g of capture.body.games)
          for (const [book, periods] of Object.entries<any>(g.markets ?? {}))
            for (const market of ['moneyline', 'spread', 'total', 'core_bet_type_6_team_score'])
              for (const o of periods.event?.[market] ?? []) {
                if (o.is_alt_market || o.odds == null || o.is_live) continue;
                if (market === 'core_bet_type_6_team_score') teamTotals++;
                const key = `${g.id}|${book}|${storedType(market, g, o)}|${o.side}`;
                const seen = { odds: o.odds, value: market === 'moneyline' ? null : o.value, at: capture.fetched_at };
                if (!open.has(key)) open.set(key, seen);
                close.set(key, seen);
              }
      const history = await fresh.prisma.oddsHistory.findMany({ where: { isLive: false, period: 'full_game' }, orderBy: [{ seenAt: 'asc' }, { id: 'asc' }] });
      const firstRow = new Map<string, (typeof history)[number]>();
      for (const h of history) {
        const key = `${h.gameId}|${h.bookId}|${h.marketType}|${h.side}`;
        if (!firstRow.has(key)) firstRow.set(key, h);
      }
      expect(teamTotals).toBeGreaterThan(0);
      expect(firstRow.size).toBe(open.size);
      for (const [key, expected] of open) {
        const row = firstRow.get(key)!;
        expect([key, row.american, row.point, row.seenAt.toISOString()]).toEqual([key, expected.odds, expected.value, new Date(expected.at).toISOString()]);
      }
      const quotes = await fresh.prisma.quote.findMany({ where: { isLive: false, period: 'full_game' } });
      for (const [key, expected] of close) {
        const q = quotes.find((x) => `${x.gameId}|${x.bookId}|${x.marketType}|${x.side}` === key)!;
        expect([key, q.american, q.point]).toEqual([key, expected.odds, expected.value]);
      }

      // Final scores as the last capture of each finished game shows them.
      const last = new Map<number, any>();
      for (const capture of captures) for (const g of capture.body.games) last.set(g.id, g);
      const finals = [...last.values()].filter((g) => g.status === 'complete' && g.boxscore);
      expect(finals.length).toBeGreaterThan(0);
      for (const g of finals) {
        const box = await fresh.prisma.boxscore.findUnique({ where: { gameId: g.id } });
        expect([g.id, box?.homeScore, box?.awayScore]).toEqual([g.id, g.boxscore.total_home_points, g.boxscore.total_away_points]);
        expect(box?.totalPoints).toBe(g.boxscore.total_home_points + g.boxscore.total_away_points);
      }

      const before = { quotes: await fresh.prisma.quote.count(), history: await fresh.prisma.oddsHistory.count() };
      const again = await ingestDocuments(readSources(feedPath('nba-2026-04-29-playoffs.jsonl.gz')), { db: fresh });
      expect(again).toMatchObject({ quotesChanged: 0, historyRows: 0, rejected: 0 });
      expect({ quotes: await fresh.prisma.quote.count(), history: await fresh.prisma.oddsHistory.count() }).toEqual(before);
    } finally {
      await fresh.close();
    }
  }, 180_000);
});

describe('captures written in groups (a recorded series, as odds ingest writes it)', () => {
  test.each([
    ['captures written in groups', true],
    ['each capture its own statement', false],
  ])('when the stream pauses after some captures (%s), then they are written, counted and announced without waiting for the next ones', (_, grouped) =>
    withOddsEvents(async (fresh, bus, published) => {
      const captures = readSeries('nba-2026-01-24.jsonl.gz').slice(0, 4);
      let resume!: () => void;
      const paused = new Promise<void>((r) => (resume = r));
      // A pipe fed as captures come: two, a pause, then two more.
      async function* stream() {
        for (const [i, c] of captures.entries()) {
          if (i === 2) await paused;
          yield doc(c.body, c.fetched_at, `pipe:${i + 1}`);
        }
      }
      const done: string[] = [];
      const run = ingestDocuments(stream(), { db: fresh, bus, grouped, onDocument: (_summary, name) => done.push(name) });
      for (let i = 0; i < 200 && done.length < 2; i++) await new Promise((r) => setTimeout(r, 25));
      expect(done).toEqual(['pipe:1', 'pipe:2']);
      expect(await fresh.prisma.changeLog.count()).toBe(2);
      expect(published.map((e) => e.version)).toEqual([1, 2]);
      resume();
      expect(await run).toMatchObject({ documents: 4, rejected: 0 });
      expect(done).toEqual(['pipe:1', 'pipe:2', 'pipe:3', 'pipe:4']);
    }));

  /** Every feed table, row for row, without what differs between two stores whatever the ingest (row ids, times of the reference data and of commits). */
  const tables = async (d: Database) => {
    const out: Record<string, unknown[]> = {};
    for (const [table, order] of [
      ['League', '"id"'], ['Sportsbook', '"id"'], ['Team', '"id"'], ['Game', '"id"'], ['Boxscore', '"gameId"'], ['Player', '"leagueId", "name"'],
      ['Quote', '"gameId", "bookId", "marketType", "period", "side", "isLive", "playerId", "lineKey"'],
      ['OddsHistory', '"gameId", "bookId", "marketType", "period", "side", "isLive", "playerId", "lineKey", "seenAt"'],
      ['PublicBetting', '"gameId", "bookId", "marketType", "period", "side"'],
      ['ChangeLog', '"version"'], ['LineSignal', '"key"'], ['IngestState', '"id"'],
    ] as Array<[string, string]>) {
      const rows = await d.prisma.$queryRawUnsafe<Array<Record<string, unknown>>>(`SELECT * FROM "${table}" ORDER BY ${order}`);
      out[table] = rows.map(({ id: _id, recordedAt: _recorded, createdAt: _created, ...r }) => (['Team', 'League', 'Player'].includes(table) ? { ...r, updatedAt: undefined } : r));
    }
    return out;
  };
  /** Each odds event, with its lists in a fixed order (a set's order is not part of the event). */
  const sorted = (events: OddsChangeEvent[]) =>
    events.map((e) => ({ ...e, games: [...e.games].sort(), markets: [...e.markets].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))) }));

  test.each([
    ['the Action Network series of 2026-01-24', ['nba-2026-01-24.jsonl.gz']],
    ["the Action Network playoff series, then The Odds API's Australian days of the same games (decimal prices, other ids)", ['nba-2026-04-29-playoffs.jsonl.gz', 'theoddsapi/nba-au-daily-2026-04-26_2026-05-01.jsonl.gz']],
    ["The Odds API's WNBA week (in-play prices, string ids, moved start times)", ['theoddsapi/wnba-2026-07-14_2026-07-21.jsonl.gz']],
    ["The Odds API's player props (players matched and created, alternate lines)", ['theoddsapi/wnba-props-2023-05_2023-07.jsonl.gz']],
  ])('when %s is written in groups, then every table, counter and odds event equals writing one capture at a time', async (_, files) => {
    const runs: Array<{ tables: Record<string, unknown[]>; events: OddsChangeEvent[]; signals: string[]; summary: object }> = [];
    for (const grouped of [false, true]) {
      await withOddsEvents(async (fresh, bus, events) => {
        const signals: string[] = [];
        bus.subscribe('signals', (e) => signals.push(...e.signals.map((s) => s.key)));
        let summary: object = {};
        for (const file of files) summary = await ingestDocuments(readSources(feedPath(file)), { db: fresh, bus, grouped });
        runs.push({ tables: await tables(fresh), events: sorted(events), signals: [...new Set(signals)].sort(), summary });
      });
    }
    const [single, grouped] = runs as [(typeof runs)[0], (typeof runs)[0]];
    expect(single.tables['OddsHistory']!.length).toBeGreaterThan(1000);
    expect(grouped.summary).toEqual(single.summary);
    // The first row that differs, not whole tables: a failing comparison of thousands of rows takes minutes to print.
    const same = (name: string, got: unknown[], want: unknown[]) => {
      const at = Math.max(0, want.findIndex((row, i) => !isDeepStrictEqual(row, got[i])));
      expect([name, got.length, at, got[at]]).toEqual([name, want.length, at, want[at]]);
    };
    for (const table of Object.keys(single.tables)) same(table, grouped.tables[table]!, single.tables[table]!);
    same('odds events', grouped.events, single.events);
    // Signals as sets of keys: a market leader's data that two captures of a group change is announced once, not twice.
    expect(grouped.signals).toEqual(single.signals);
  }, 300_000);
});
