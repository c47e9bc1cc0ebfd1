import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Database } from '../../src/db/client';
import { ingestDocuments } from '../../src/ingest/ingest';
import { startPoller } from '../../src/ingest/feeds/actionnetwork/poll';
import { createLogger } from '../../src/logger';
import { openTestDatabase } from '../support/database';
import { readFeed } from '../support/feeds';
import { waitFor } from './live-helpers';

// Live means live: the upstream scoreboard moves to the next day's slate at local midnight while
// late games are still played. The poller then also polls the previous day (`date=YYYYMMDD`) until
// none of its games is unfinished. The feed here serves two days: the current slate (no date
// parameter) and the slate of 2026-01-24 (date=20260124).
const evening = readFeed('nba-2026-01-24-mixed-status.json'); // 2026-01-24: two games in progress, two scheduled
const nextDay = readFeed('nba-2026-01-08-scheduled.json'); // another day's slate, none of those games
/** The 24th once every game has ended (final and official). */
const evening24Final = {
  ...evening,
  games: evening.games.map((g: any) =>
    g.status === 'inprogress' || g.status === 'scheduled' ? { ...g, status: 'complete', real_status: 'closed', status_display: 'Final' } : g,
  ),
};

interface Feed {
  server: http.Server;
  url: string;
  /** The `date` parameter of every request, '' for none. */
  requests: string[];
}

/** Serves `current()` without a date parameter and `ofDay(date)` with one. */
async function serveFeed(current: () => unknown, ofDay: (date: string) => unknown): Promise<Feed> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const date = new URL(req.url ?? '/', 'http://feed').searchParams.get('date') ?? '';
    requests.push(date);
    const body = date ? ofDay(date) : current();
    if (!body) {
      res.writeHead(404).end('no such day');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, requests, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/scoreboard/nba?periods=event` };
}

let db: Database;
beforeEach(async () => {
  db = await openTestDatabase();
});
afterEach(async () => {
  await db?.close();
});

const statusOf = async (id: number) => (await db.prisma.game.findUnique({ where: { id } }))?.status;

test('when the feed moves to the next day while games are being played, then the poller polls that day until its games end, then stops', async () => {
  let currentCalls = 0;
  let dayCalls = 0;
  const feed = await serveFeed(
    () => (currentCalls++ === 0 ? evening : nextDay),
    (date) => (date === '20260124' ? (dayCalls++ === 0 ? evening : evening24Final) : null),
  );
  const infos: unknown[] = [];
  const logger = createLogger({ logLevel: 'silent' });
  logger.info = ((obj: unknown) => infos.push(obj)) as typeof logger.info;
  const poller = startPoller({ url: feed.url, intervalMs: 20, timeZone: 'America/New_York', logger, ingest: (d) => ingestDocuments([d], { db }).then(() => {}) });
  try {
    await waitFor('the previous day polled twice', () => dayCalls >= 2, 10_000);
    const after = currentCalls;
    await waitFor('three more polls of the current slate', () => currentCalls >= after + 3, 10_000);
  } finally {
    await poller.stop();
    await new Promise((resolve) => feed.server.close(resolve));
  }
  // Only the dropped day was asked for, twice: still unfinished, then over.
  expect(feed.requests.filter((d) => d)).toEqual(['20260124', '20260124']);
  expect(await statusOf(264315)).toBe('closed');
  expect(await statusOf(264316)).toBe('closed');
  expect(await statusOf(264318)).toBe('closed');
  expect(infos).toContainEqual(expect.objectContaining({ day: '20260124', game: expect.any(String) }));
});

test('when the previous day stays unfinished past the follow limit, then it is no longer polled and a warning says so', async () => {
  let currentCalls = 0;
  const feed = await serveFeed(
    () => (currentCalls++ === 0 ? evening : nextDay),
    () => evening,
  );
  const warnings: unknown[] = [];
  const logger = createLogger({ logLevel: 'silent' });
  logger.warn = ((obj: unknown) => warnings.push(obj)) as typeof logger.warn;
  const poller = startPoller({ url: feed.url, intervalMs: 20, followLimitMs: 0, logger, ingest: (d) => ingestDocuments([d], { db }).then(() => {}) });
  try {
    await waitFor('the follow limit', () => warnings.length > 0, 10_000);
    const after = currentCalls;
    await waitFor('three more polls of the current slate', () => currentCalls >= after + 3, 10_000);
  } finally {
    await poller.stop();
    await new Promise((resolve) => feed.server.close(resolve));
  }
  expect(warnings).toEqual([expect.objectContaining({ day: '20260124' })]);
  expect(feed.requests.filter((d) => d)).toEqual([]);
  // The store's lost-game timeout is the fallback for such a game (tested in ingest-follow).
  expect(await statusOf(264316)).toBe('in_progress');
});

test('when the previous day cannot be fetched, then the current slate is still polled and the day is tried again', async () => {
  let currentCalls = 0;
  let dayCalls = 0;
  const feed = await serveFeed(
    () => (currentCalls++ === 0 ? evening : nextDay),
    () => (dayCalls++ < 2 ? null : evening24Final),
  );
  const warnings: unknown[] = [];
  const logger = createLogger({ logLevel: 'silent' });
  logger.warn = ((obj: unknown) => warnings.push(obj)) as typeof logger.warn;
  const poller = startPoller({ url: feed.url, intervalMs: 20, logger, ingest: (d) => ingestDocuments([d], { db }).then(() => {}) });
  try {
    await waitFor('the previous day over', () => dayCalls >= 3, 10_000);
    const after = currentCalls;
    await waitFor('three more polls of the current slate', () => currentCalls >= after + 3, 10_000);
  } finally {
    await poller.stop();
    await new Promise((resolve) => feed.server.close(resolve));
  }
  expect(feed.requests.filter((d) => d)).toEqual(['20260124', '20260124', '20260124']);
  expect(warnings).toHaveLength(2);
  expect(warnings[0]).toEqual(expect.objectContaining({ day: '20260124' }));
  expect(await statusOf(264316)).toBe('closed');
});
