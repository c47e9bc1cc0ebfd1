import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openDatabase } from '../../src/db/client';
import { startTestApp, type TestApp } from '../support/app';
import { feedPath } from '../support/feeds';
import { connectMcp } from '../support/mcp';

// `odds mcp` over stdio (docs/mcp.md), driven by the official SDK client: on the local store
// (DATA_DIR) it lists the tools /mcp lists and answers what REST answers on the same data; with --url
// and ODDS_API_KEY it speaks to a running instance, whose plan rules apply. Needs `npm run build`.

const BIN = path.join(__dirname, '..', '..', 'bin', 'odds.js');
const CAPTURE = feedPath('nba-2026-01-24-mixed-status.json');
const BASE = '/api/v1/nba/odds';
const FINAL = 264314;
const DK = 68;

jest.setTimeout(120_000);

/** An SDK client on `odds mcp <args>` with `env`. */
async function stdioClient(args: string[], env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: { ...(process.env as Record<string, string>), LOG_LEVEL: 'silent', DATABASE_URL: '', ODDS_API_KEY: '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d));
  const client = new Client({ name: 'odds-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** `odds <args>` to its end. */
async function odds(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: '', ODDS_API_KEY: '', ...env } });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.resume();
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  return { code, stderr };
}

const bets = [
  { game_id: FINAL, market_type: 'spread', side: 'home', line: -11.5 },
  { game_id: FINAL, market_type: 'total', side: 'under', line: 232.5 },
];
const clvBets = [{ game_id: FINAL, book_id: DK, market_type: 'spread', side: 'home', line: -11.5, price: -110 }];

beforeAll(() => {
  if (!fs.existsSync(path.join(__dirname, '..', '..', 'dist', 'mcp', 'stdio.js'))) throw new Error('dist/ missing or old: run npm run build');
});

describe('odds mcp on the local store (DATA_DIR)', () => {
  // Answers that do not depend on the clock (the child runs on the real one): games without their
  // markets' ages, closes, grades, CLV, reference data.
  const CALLS: Array<[string, Record<string, unknown>, string, unknown?]> = [
    ['list_games', { date: '2026-01-24', include_markets: false }, '/games?date=2026-01-24&include_markets=false'],
    ['get_game', { game_id: FINAL, include_markets: false }, `/games/${FINAL}?include_markets=false`],
    ['closing_lines', { game_id: [FINAL] }, `/closing?game_id=${FINAL}`],
    ['grade_bets', { bets }, '/grade', { bets }],
    ['bet_clv', { bets: clvBets }, '/clv', { bets: clvBets }],
    ['teams', { league_id: 4 }, '/teams?league_id=4'],
    ['sportsbooks', {}, '/sportsbooks'],
  ];
  let dataDir: string;
  const answers = new Map<string, any>();
  let tools: unknown;
  let refusal: any;
  let text: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-mcp-'));
    const ingest = await odds(['ingest', CAPTURE], { DATA_DIR: dataDir });
    expect(ingest).toMatchObject({ code: 0 });
    // The agent's session: the store is the child's while it runs (one process at a time on DATA_DIR).
    const { client } = await stdioClient([], { DATA_DIR: dataDir });
    try {
      tools = (await client.listTools()).tools;
      for (const [name, args] of CALLS) answers.set(name, await client.callTool({ name, arguments: args }));
      refusal = await client.callTool({ name: 'get_game', arguments: { game_id: 999999 } });
      text = (answers.get('sportsbooks').content[0] as { text: string }).text;
    } finally {
      await client.close();
    }
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  test('when an agent lists the tools over stdio, then they are the tools of /mcp, schemas included', async () => {
    const db = await openDatabase({ dataDir });
    const t = await startTestApp({ db });
    try {
      const http = await connectMcp(t.baseUrl, (await t.createKey('elite')).key);
      expect(tools).toEqual((await http.listTools()).tools);
      await http.close();
    } finally {
      await t.close();
      await db.close();
    }
  });

  test.each(CALLS.map((c) => [c[0], JSON.stringify(c[1]), c] as const))('when %s is called over stdio with %s, then its data is what REST answers on the same store', async (_name, _args, [, , rest, body]) => {
    const db = await openDatabase({ dataDir });
    const t = await startTestApp({ db });
    try {
      const key = (await t.createKey('elite')).key;
      const res = body === undefined ? await t.get(BASE + rest, key) : await t.request('POST', BASE + rest, key, body);
      expect(res.status).toBe(200);
      const result = answers.get(_name);
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent.data).toEqual(res.body.data);
    } finally {
      await t.close();
      await db.close();
    }
  });

  test('when the client ends the server with SIGTERM, then it closes the store and exits 0, so the next process can open it', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp'], { env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: '', DATA_DIR: dataDir } });
    let stdout = '';
    const answered = new Promise<void>((resolve) => child.stdout.on('data', (d) => (stdout += d) && stdout.includes('"id":1') && resolve()));
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`);
    await answered;
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const db = await openDatabase({ dataDir });
    await db.close();
  });

  test('when a tool answers over the local store, then its text says no budget is metered; an unknown id is a tool error', () => {
    expect(text).toMatch(/^\d+ sportsbooks\. Rate budget: not metered \(the local store, read by its operator\)\.$/);
    expect(refusal.isError).toBe(true);
    expect(refusal.content[0].text).toMatch(/^game not found \(game_id 999999\)/);
  });
});

describe('odds mcp --url (a running instance)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ feeds: [CAPTURE], now: () => new Date('2026-01-24T18:00:00Z'), env: { RATE_LIMIT_STARTER: '1000', RATE_LIMIT_PRO: '1000' } });
  }, 120_000);
  afterAll(() => t?.close());

  const CALLS: Array<[string, Record<string, unknown>]> = [
    ['list_games', { date: '2026-01-24', include_boxscore: false }],
    ['get_game_odds', { game_id: 264316, market_type: ['spread', 'total'] }],
    ['find_value', { market_type: 'spread', date: '2026-01-24' }],
    ['find_arbitrage', { market_type: 'total', date: '2026-01-24' }],
    ['line_movement', {}],
    ['historical_odds', { start_date: '2026-01-24', end_date: '2026-01-24', limit: 2 }],
    ['consensus', { date: '2026-01-24' }],
    ['grade_bets', { bets }],
    ['signals', { date: '2026-01-24' }],
    ['convert_odds', { american: 150 }],
    ['get_game', { game_id: 999999 }],
    ['list_games', { date: 'tomorrow' }],
  ];

  test.each(['pro', 'starter'] as const)('when the key (ODDS_API_KEY) is %s, then every tool answers over stdio what /mcp answers to that key, refusals included', async (plan) => {
    const { key } = await t.createKey(plan);
    const http = await connectMcp(t.baseUrl, key);
    const { client } = await stdioClient(['--url', t.baseUrl], { ODDS_API_KEY: key });
    try {
      expect((await client.listTools()).tools).toEqual((await http.listTools()).tools);
      for (const [name, args] of CALLS) {
        const [viaStdio, viaHttp] = [await client.callTool({ name, arguments: args }), await http.callTool({ name, arguments: args })];
        expect({ name, isError: Boolean(viaStdio.isError) }).toEqual({ name, isError: Boolean(viaHttp.isError) });
        const data = (r: any) => r.structuredContent?.data;
        expect(data(viaStdio)).toEqual(data(viaHttp));
        // The texts agree but for the budget's figures (each path spends its own requests).
        const words = (r: any) => r.content[0].text.replace(/\d+ of \d+ requests left this minute \(whole again in \d+ s\)/, 'N').replace(/Rate budget: unchanged \(computed here, no request sent\)\./, 'Rate budget: N.');
        expect(words(viaStdio)).toEqual(words(viaHttp));
      }
      if (plan === 'starter') {
        const movement = await client.callTool({ name: 'line_movement', arguments: {} });
        expect(movement.isError).toBe(true);
        expect((movement.content as any)[0].text).toMatch(/requires the Pro or Elite plan \(your plan: starter\)/);
      }
      const remaining = /(\d+) of 1000 requests left/.exec(((await client.callTool({ name: 'sportsbooks', arguments: {} })).content as any)[0].text);
      expect(Number(remaining![1])).toBeLessThan(1000);
    } finally {
      await client.close();
      await http.close();
    }
  });

  test('when --url is given without ODDS_API_KEY, or is not a URL, then odds mcp says so and exits 2', async () => {
    const noKey = await odds(['mcp', '--url', t.baseUrl], {});
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/ODDS_API_KEY: required with --url/);
    const badUrl = await odds(['mcp', '--url', 'localhost:3000'], { ODDS_API_KEY: 'sk_x' });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toMatch(/--url: expected an http\(s\) URL/);
  });

  test('when the instance cannot be reached, then each tool call is a tool error saying where it tried, not a crash', async () => {
    // A port nothing listens on: one just given up by a server.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const { client } = await stdioClient(['--url', `http://127.0.0.1:${port}`], { ODDS_API_KEY: 'sk_x' });
    try {
      const result = await client.callTool({ name: 'sportsbooks', arguments: {} });
      expect(result.isError).toBe(true);
      expect((result.content as any)[0].text).toMatch(new RegExp(`^cannot reach the service at http://127\\.0\\.0\\.1:${port}/api/v1/nba/odds \\(ECONNREFUSED\\): is it running, and is --url right\\? Rate budget: not known yet`));
    } finally {
      await client.close();
    }
  });

  test('when the key is unknown, then each tool call is a tool error saying so, not a crash', async () => {
    const { client } = await stdioClient(['--url', t.baseUrl], { ODDS_API_KEY: 'sk_unknown0000000000000000000000000000000000000' });
    try {
      const result = await client.callTool({ name: 'sportsbooks', arguments: {} });
      expect(result.isError).toBe(true);
      expect((result.content as any)[0].text).toMatch(/^Unauthorized: missing or invalid API key/);
    } finally {
      await client.close();
    }
  });
});
