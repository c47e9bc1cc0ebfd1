import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { io as connect, type Socket } from 'socket.io-client';
import { LiveBook, liveStateOf, type LiveDeltaPayload } from '../../clients/typescript/src';
import { createKey } from '../../src/db/account-store';
import type { Database } from '../../src/db/client';
import { describeWithPostgres, openTestDatabase } from '../support/database';
import { readSeries } from '../support/feeds';
import { freePort, startRedisServer } from '../support/redis-server';
import { readSseFrames, type SseFrame } from '../support/sse';
import { waitFor } from './live-helpers';

// Issue 39, point 1 ("one truth per seq"): two `odds serve` processes on one PostgreSQL database and
// a Redis of the test's own, fed by `odds ingest` (a separate process) with the real captures of
// 2026-01-24 in three parts, the second process started after the first two. Every delta with the
// same seq is the same bytes on both; games that start playing come whole on both; every client's
// state (the typed client's rules) ends equal to GET /live; an SSE client resumed on the other
// process gets exactly what an uncut one got after its Last-Event-ID.

const BIN = path.join(__dirname, '..', '..', 'bin', 'odds.js');
const run = promisify(execFile);
const LONG = 60_000;

/** `odds serve` on a free port; resolves once it listens. */
async function serve(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve'], { env: { ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk;
      if (out.includes('listening on')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk) => (out += chunk));
    child.once('exit', (code) => reject(new Error(`odds serve exited ${code} before listening: ${out}`)));
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return { child, url: `http://127.0.0.1:${port}` };
}

/** A Socket.IO client of /live-odds keeping its state by the typed client's rules, and every delta it got. */
function socketClient(url: string, key: string, filter: Record<string, unknown>) {
  const book = new LiveBook();
  const deltas = new Map<number, string>();
  const verdicts: string[] = [];
  const snapshots: any[] = [];
  const socket: Socket = connect(`${url}/live-odds`, { auth: { apiKey: key, ...filter }, transports: ['websocket'], reconnection: false, forceNew: true });
  socket.on('live_odds', (p: any) => {
    if (!p.success) return;
    snapshots.push(p);
    book.replace(p.data, p.stream, p.seq);
  });
  socket.on('odds_change', (d: LiveDeltaPayload) => {
    const { at: _at, ...content } = d;
    deltas.set(d.seq, JSON.stringify(content));
    const verdict = book.verdict(d);
    verdicts.push(verdict);
    if (verdict === 'apply') book.apply(d);
  });
  return { socket, book, deltas, verdicts, snapshots };
}

/** An SSE client of /stream (optionally resuming), keeping every frame with an id. */
function sseClient(url: string, key: string, lastEventId?: string) {
  const frames: SseFrame[] = [];
  const abort = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...(lastEventId && { 'last-event-id': lastEventId }) };
  void fetch(`${url}/api/v1/nba/odds/stream`, { headers, signal: abort.signal })
    .then((res) => readSseFrames(res.body, (f) => f.event !== 'heartbeat' && frames.push(f)))
    .catch(() => {});
  const lastId = () => frames.at(-1)?.id ?? null;
  return { frames, abort: () => abort.abort(), lastId };
}

describeWithPostgres('two odds serve processes, one change log', () => {
  let db: Database & { url?: string };
  let redis: { url: string; stop(): Promise<void> };
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const children: ChildProcess[] = [];
  const sockets: Socket[] = [];

  beforeAll(async () => {
    db = await openTestDatabase('postgres');
    redis = await startRedisServer(await freePort());
    dir = mkdtempSync(path.join(tmpdir(), 'odds-cluster-'));
    env = {
      ...process.env, DATABASE_URL: db.url, REDIS_URL: redis.url, HOST: '127.0.0.1', LOG_LEVEL: 'info', FEED_URL: '', ODDS_API_KEY: '',
      // No interval snapshots: every state comes from the first snapshot and the deltas.
      LIVE_PUSH_INTERVAL_MS: '600000',
    };
  }, LONG);
  afterAll(async () => {
    for (const s of sockets) s.close();
    for (const c of children) c.kill('SIGKILL');
    await redis?.stop();
    await db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const ingestPart = async (name: string, from: number, to: number) => {
    const file = path.join(dir, `${name}.jsonl`);
    writeFileSync(file, readSeries('nba-2026-01-24.jsonl.gz').slice(from, to).map((line) => JSON.stringify(line)).join('\n') + '\n');
    await run(process.execPath, [BIN, 'ingest', '--quiet', file], { env });
  };
  const latest = async () => Number((await db.prisma.$queryRawUnsafe<Array<{ v: bigint | null }>>(`SELECT max("version") AS v FROM "ChangeLog"`))[0]?.v ?? 0n);
  /** The newest entry whose stored delta is not empty: the last id an unfiltered SSE client gets (the series has no props). */
  const lastNonEmpty = async () =>
    Number(
      (await db.prisma.$queryRawUnsafe<Array<{ v: bigint | null }>>(
        `SELECT max("version") AS v FROM "ChangeLog" WHERE jsonb_array_length("delta"->'games') > 0 OR jsonb_array_length("delta"->'quotes') > 0`,
      ))[0]?.v ?? 0n,
    );

  test('when two processes serve the same ingests, then deltas, whole games, end states and SSE resumes agree', async () => {
    // Part 1 before anyone listens; process A starts.
    await ingestPart('part1', 0, 50);
    const a = await serve(env);
    children.push(a.child);
    const { key } = await createKey(db.prisma, { plan: 'pro', expiresAt: null });
    const filters = [{}, { book_id: 15 }];
    const onA = filters.map((f) => socketClient(a.url, key, f));
    sockets.push(...onA.map((c) => c.socket));
    const uncut = sseClient(a.url, key);
    const cut = sseClient(a.url, key);
    await waitFor('the snapshots on A', () => onA.every((c) => c.snapshots.length > 0) && uncut.frames.length > 0 && cut.frames.length > 0, LONG);

    // Part 2 with only A up (two games start playing in it); the cut SSE client leaves after it.
    await ingestPart('part2', 50, 80);
    let last = await latest();
    const sent = await lastNonEmpty();
    await waitFor('part 2 on A', () => onA.every((c) => c.book.seq === last) && [cut, uncut].every((c) => Number(c.lastId()) === sent), LONG);
    cut.abort();
    const leftAt = cut.lastId()!;

    // Process B starts late; its clients join with the same filters.
    const b = await serve(env);
    children.push(b.child);
    const onB = filters.map((f) => socketClient(b.url, key, f));
    sockets.push(...onB.map((c) => c.socket));
    await waitFor('the snapshots on B', () => onB.every((c) => c.snapshots.length > 0), LONG);
    const joinedAt = Math.min(...onB.map((c) => c.snapshots[0].seq));

    // Part 3 with both up (more games start and finish).
    await ingestPart('part3', 80, 128);
    last = await latest();
    const clients = [...onA, ...onB];
    await waitFor('part 3 on every client', () => clients.every((c) => c.book.seq === last), LONG);

    // The same seq is the same bytes on both processes, filter by filter, and each process sent every entry after B's start.
    for (let i = 0; i < filters.length; i++) {
      const [ofA, ofB] = [onA[i]!, onB[i]!];
      const after = [...ofB.deltas.keys()].filter((seq) => seq > joinedAt);
      expect(after.length).toBeGreaterThan(10);
      expect([...ofA.deltas.keys()].filter((seq) => seq > joinedAt)).toEqual(after);
      for (const seq of after) expect(ofB.deltas.get(seq)).toBe(ofA.deltas.get(seq));
    }
    // No client ever saw a gap: base_seq always met its seq.
    for (const c of clients) expect(c.verdicts.filter((v) => v === 'resync')).toEqual([]);

    // A game that started playing after B's start came whole on both: every quote /live shows of it
    // at its start... read from its stored delta, the same on both processes' unfiltered clients.
    const starts = await db.prisma.$queryRawUnsafe<Array<{ version: bigint; seenAt: Date; started: number[]; markets: Array<{ gameId: number; marketType: string; bookId: number }> }>>(
      `SELECT "version", "seenAt", "started", "markets" FROM "ChangeLog" WHERE cardinality("started") > 0 AND "version" > $1 ORDER BY "version"`,
      joinedAt,
    );
    expect(starts.length).toBeGreaterThan(0);
    for (const start of starts) {
      const seq = Number(start.version);
      const delta = JSON.parse(onA[0]!.deltas.get(seq)!);
      expect(onB[0]!.deltas.get(seq)).toBe(onA[0]!.deltas.get(seq));
      for (const gameId of start.started.map(Number)) {
        const status = delta.games.find((g: any) => g.game_id === gameId)?.status;
        if (status !== 'in_progress' && status !== 'live') continue; // started and finished in one ingest
        // Whole: every game market of every book that quoted the game by then, not only the markets the ingest changed.
        const carried = new Set(delta.quotes.filter((q: any) => q.game_id === gameId).map((q: any) => `${q.book_id}|${q.market_type}`));
        const stored = await db.prisma.quote.findMany({
          where: { gameId, marketType: { in: ['spread', 'moneyline', 'total'] }, openedAt: { lte: start.seenAt } },
          select: { bookId: true, marketType: true },
          distinct: ['bookId', 'marketType'],
        });
        expect(stored.length).toBeGreaterThan(0);
        for (const q of stored) expect(carried).toContain(`${q.bookId}|${q.marketType}`);
      }
    }

    // Every client's state is GET /live's state of its filter.
    for (const [url, group] of [[a.url, onA], [b.url, onB]] as const) {
      for (let i = 0; i < filters.length; i++) {
        const query = new URLSearchParams(Object.entries(filters[i]!).map(([k, v]): [string, string] => [k, String(v)]));
        const res = await fetch(`${url}/api/v1/nba/odds/live?${query}`, { headers: { authorization: `Bearer ${key}` } });
        const body = (await res.json()) as any;
        expect(res.status).toBe(200);
        expect(group[i]!.book.state().games).toEqual(liveStateOf(body.data).games);
      }
    }

    // The SSE client cut after part 2 resumes on B with its Last-Event-ID: exactly the events the uncut one got after it.
    const end = await lastNonEmpty();
    await waitFor('the uncut SSE client at the end', () => Number(uncut.lastId()) === end, LONG);
    const resumed = sseClient(b.url, key, leftAt);
    await waitFor('the resumed SSE client at the end', () => Number(resumed.lastId()) === end, LONG);
    resumed.abort();
    uncut.abort();
    const expected = uncut.frames.filter((f) => Number(f.id) > Number(leftAt));
    expect(expected.length).toBeGreaterThan(1);
    expect(resumed.frames.every((f) => f.event === 'odds_change')).toBe(true);
    expect(resumed.frames.map((f) => JSON.stringify(f))).toEqual(expected.map((f) => JSON.stringify(f)));
  }, 5 * LONG);
});
