import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Database } from '../../src/db/client';
import { ingestDocuments } from '../../src/ingest/ingest';
import { startPoller } from '../../src/ingest/feeds/actionnetwork/poll';
import { createLogger } from '../../src/logger';
import { openTestDatabase } from '../support/database';
import { feedPath } from '../support/feeds';
import { waitFor } from './live-helpers';

// The upstream poller against a feed served on loopback: it sends the key header, ingests what it
// fetches, and survives failures with backoff.
let db: Database;
let server: http.Server;
let url: string;
let answers: Array<'fail' | 'ok'> = [];
const seenHeaders: Array<string | undefined> = [];
const body = fs.readFileSync(feedPath('nba-2026-01-08-scheduled.json'));

beforeAll(async () => {
  db = await openTestDatabase();
  server = http.createServer((req, res) => {
    seenHeaders.push(req.headers['x-feed-key'] as string | undefined);
    const answer = answers.shift() ?? 'ok';
    if (answer === 'fail') {
      res.writeHead(503).end('busy');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/scoreboard`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await db?.close();
});

test('when the feed fails twice and then answers, then the poller backs off, logs, ingests, and stops cleanly', async () => {
  answers = ['fail', 'fail', 'ok'];
  const warnings: unknown[] = [];
  const logger = createLogger({ logLevel: 'silent' });
  logger.warn = ((obj: unknown) => warnings.push(obj)) as typeof logger.warn;
  const ingested: string[] = [];
  const poller = startPoller({
    url,
    intervalMs: 20,
    key: 'feed-secret',
    keyHeader: 'x-feed-key',
    logger,
    ingest: async (document) => {
      ingested.push(document.name);
      await ingestDocuments([document], { db });
    },
  });
  try {
    await waitFor('an ingested document', () => ingested.length > 0, 10_000);
  } finally {
    await poller.stop();
  }
  expect(warnings).toHaveLength(2);
  expect(seenHeaders.slice(0, 3)).toEqual(['feed-secret', 'feed-secret', 'feed-secret']);
  expect(ingested[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/scoreboard@/);
  expect(await db.prisma.game.count()).toBeGreaterThan(0);
  const requests = seenHeaders.length;
  await new Promise((r) => setTimeout(r, 100));
  expect(seenHeaders.length).toBe(requests); // stopped: no more polls
});

test('when the feed answers something that is not a scoreboard, then the document is rejected and polling goes on', async () => {
  const bad = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"games": "none"}'));
  await new Promise<void>((resolve) => bad.listen(0, '127.0.0.1', resolve));
  const rejected: string[] = [];
  let polls = 0;
  const poller = startPoller({
    url: `http://127.0.0.1:${(bad.address() as AddressInfo).port}/`,
    intervalMs: 20,
    logger: createLogger({ logLevel: 'silent' }),
    ingest: async (document) => {
      polls++;
      await ingestDocuments([document], { db, onRejected: (_n, m) => rejected.push(m) });
    },
  });
  try {
    await waitFor('two polls', () => polls >= 2, 10_000);
  } finally {
    await poller.stop();
    await new Promise((resolve) => bad.close(resolve));
  }
  expect(rejected[0]).toMatch(/games: /);
});
