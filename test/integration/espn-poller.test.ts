import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { loadConfig, type EspnConfig } from '../../src/config';
import { formatOf } from '../../src/ingest/feeds';
import { startEspnPoller } from '../../src/ingest/feeds/espn/poll';
import type { SourceDocument } from '../../src/ingest/sources';
import { createLogger } from '../../src/logger';
import { readSeries } from '../support/feeds';

// The ESPN poller against a local stand-in of ESPN's site API (loopback only): the scoreboards it
// reads, the summaries of final games only, once, and a failed request logged and tried again.

const summary = readSeries('espn/wnba-summary-2023-05_2023-07.jsonl.gz')[0]!;
const NOW = new Date('2023-05-21T02:00:00.000Z');

async function standIn(answer: (url: URL) => { status: number; body?: unknown }) {
  const requests: URL[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://stand-in');
    requests.push(url);
    const a = answer(url);
    res.writeHead(a.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(a.body ?? null));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const config = (baseUrl: string, extra: Partial<EspnConfig> = {}): EspnConfig => ({ baseUrl, leagues: ['wnba'], intervalMs: 3_600_000, requestGapMs: 0, correctionDays: 1, timeoutMs: 5_000, ...extra });

function logLines() {
  const lines: Array<Record<string, any>> = [];
  const stream = new Writable({ write: (chunk, _e, done) => (lines.push(JSON.parse(String(chunk))), done()) });
  return { lines, logger: createLogger({ logLevel: 'info' }, {}, stream) };
}

/** Resolves once `check` holds, looking again after each turn of the loop (no timed assertion). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

const board = {
  events: [
    { id: '401507135', date: '2023-05-20T17:00Z', status: { type: { completed: true } } },
    { id: '401507136', date: '2023-05-21T01:00Z', status: { type: { completed: false } } },
  ],
};

describe('ESPN poller', () => {
  test('when a game on the scoreboard is final, then its summary is fetched once and ingested as ESPN; a game in play is not asked for', async () => {
    const stand = await standIn((url) => (url.pathname.endsWith('/scoreboard') ? { status: 200, body: board } : { status: 200, body: summary.body }));
    const ingested: SourceDocument[] = [];
    const { logger } = logLines();
    const poller = startEspnPoller({ config: config(stand.url), logger, ingest: async (d) => void ingested.push(d), now: () => NOW });
    try {
      // Both days of the round read (today and one day back): the final game is fetched once.
      await until(() => stand.requests.filter((u) => u.pathname.endsWith('/scoreboard')).length === 2);
      await until(() => ingested.length >= 1);
    } finally {
      await poller.stop();
      await stand.close();
    }
    expect(stand.requests.filter((u) => u.pathname.endsWith('/scoreboard')).map((u) => [u.pathname, u.searchParams.get('dates')])).toEqual([
      ['/apis/site/v2/sports/basketball/wnba/scoreboard', '20230521'],
      ['/apis/site/v2/sports/basketball/wnba/scoreboard', '20230520'],
    ]);
    const summaries = stand.requests.filter((u) => u.pathname.endsWith('/summary'));
    expect(summaries.map((u) => u.searchParams.get('event'))).toEqual(['401507135']);
    expect(ingested).toHaveLength(1);
    expect(ingested[0]).toMatchObject({ envelope: { source: 'espn/summary', league: 'wnba' } });
    expect(formatOf(ingested[0]!).name).toBe('espn');
  });

  test('when ESPN answers with an error, then it is logged and nothing is ingested; the poller goes on', async () => {
    const stand = await standIn(() => ({ status: 503, body: { error: 'busy' } }));
    const ingested: SourceDocument[] = [];
    const { lines, logger } = logLines();
    const poller = startEspnPoller({ config: config(stand.url), logger, ingest: async (d) => void ingested.push(d), now: () => NOW });
    try {
      await until(() => lines.filter((l) => /ESPN poll failed/.test(l.msg)).length === 2);
    } finally {
      await poller.stop();
      await stand.close();
    }
    expect(ingested).toEqual([]);
    expect(lines.find((l) => /ESPN poll failed/.test(l.msg))).toMatchObject({ level: 40, source: 'espn', league: 'wnba', err: expect.stringMatching(/503/) });
  });

  test('when ESPN_POLL is not set, then nothing polls ESPN; set, its settings are read and bad ones refused', () => {
    expect(loadConfig({}).espn).toBeUndefined();
    expect(loadConfig({ ESPN_POLL: '1' }).espn).toEqual({ baseUrl: 'https://site.api.espn.com', leagues: ['nba', 'wnba'], intervalMs: 900_000, requestGapMs: 1_000, correctionDays: 3, timeoutMs: 15_000 });
    expect(loadConfig({ ESPN_POLL: 'true', ESPN_LEAGUES: 'wnba', ESPN_CORRECTION_DAYS: '0' }).espn).toMatchObject({ leagues: ['wnba'], correctionDays: 0 });
    expect(() => loadConfig({ ESPN_POLL: '1', ESPN_LEAGUES: 'mlb' })).toThrow(/ESPN_LEAGUES/);
    expect(() => loadConfig({ ESPN_POLL: '1', ESPN_REQUEST_GAP_MS: '10' })).toThrow(/ESPN_REQUEST_GAP_MS/);
  });
});
