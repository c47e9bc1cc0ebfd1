import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { feedPath } from '../support/feeds';

// The `odds` binary as a user runs it (compiled: npm install builds dist/).
const BIN = path.join(__dirname, '..', '..', 'bin', 'odds.js');
const run = promisify(execFile);

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

async function odds(args: string[], env: Record<string, string>, input?: string): Promise<Result> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, LOG_LEVEL: 'silent', ...env, DATABASE_URL: '' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  if (input !== undefined) child.stdin.end(input);
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  return { code, stdout, stderr };
}

jest.setTimeout(90_000);

let dataDir: string;
const env = () => ({ DATA_DIR: dataDir });

beforeAll(() => {
  if (!fs.existsSync(path.join(__dirname, '..', '..', 'dist', 'cli', 'index.js'))) throw new Error('dist/ missing: run npm run build');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-cli-'));
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('odds keys', () => {
  test('when a key is created with --json on a fresh data directory, then it prints the key once with its account and plan', async () => {
    const { code, stdout } = await odds(['keys', 'create', '--plan', 'pro', '--expires-at', '2030-01-31T00:00:00Z', '--name', 'ci', '--json'], env());
    expect(code).toBe(0);
    const created = JSON.parse(stdout);
    expect(Object.keys(created).sort()).toEqual(['account_id', 'expires_at', 'id', 'key', 'plan']);
    expect(created.key).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ plan: 'pro', expires_at: '2030-01-31T00:00:00.000Z' });

    const list = await odds(['keys', 'list', '--json'], env());
    const keys = JSON.parse(list.stdout);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ id: created.id, plan: 'pro', revoked_at: null });
    expect(list.stdout).not.toContain(created.key);

    const revoke = await odds(['keys', 'revoke', created.id], env());
    expect(revoke.code).toBe(0);
    const after = JSON.parse((await odds(['keys', 'list', '--json'], env())).stdout);
    expect(after[0].revoked_at).not.toBeNull();
  });

  test.each([
    [['keys', 'create', '--plan', 'platinum'], /platinum.*(starter|choices)/s],
    [['keys', 'create'], /--plan/],
    [['no-such-command'], /unknown command 'no-such-command'/],
    [['keys', 'create', '--plan', 'pro', '--no-such-option'], /unknown option/],
  ])('when the usage is wrong (odds %j), then the command says why and exits 2', async (args, message) => {
    const { code, stderr } = await odds(args, env());
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  test('when asked for --version, then it prints the package version and exits 0', async () => {
    const { code, stdout } = await odds(['--version'], env());
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')).version);
  });

  test('when a key is created for an existing account with --plan, then the account moves to that plan', async () => {
    const first = JSON.parse((await odds(['keys', 'create', '--plan', 'starter', '--json'], env())).stdout);
    const second = await odds(['keys', 'create', '--account', first.account_id, '--plan', 'elite', '--json'], env());
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ account_id: first.account_id, plan: 'elite' });
    const third = await odds(['keys', 'create', '--account', first.account_id, '--json'], env());
    expect(JSON.parse(third.stdout)).toMatchObject({ account_id: first.account_id, plan: 'elite' });
  });

  test('when an unknown key is revoked, then it says so and exits non-zero', async () => {
    const { code, stderr } = await odds(['keys', 'revoke', 'key_nope'], env());
    expect(code).toBe(1);
    expect(stderr).toContain('no key with id key_nope');
  });
});

describe('odds ingest', () => {
  test('when a document is ingested twice, then the second run changes nothing', async () => {
    const first = await odds(['ingest', feedPath('nba-2026-01-08-scheduled.json')], env());
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^ingested 1 documents: \d+ games, [1-9]\d* quotes changed, \d+ history rows, 0 rejected$/m);
    const second = await odds(['ingest', feedPath('nba-2026-01-08-scheduled.json')], env());
    expect(second.stdout).toMatch(/ 0 quotes changed, 0 history rows, 0 rejected/);
  });

  test('when The Odds API captures are ingested, then each line is recognised as such; --format forces a format and refuses unknown names', async () => {
    const au = await odds(['ingest', '--quiet', feedPath('theoddsapi/nba-au-daily-2026-04-26_2026-05-01.jsonl.gz')], env());
    expect(au.code).toBe(0);
    expect(au.stdout).toMatch(/^ingested 6 documents: 20 games, [1-9]\d* quotes changed, [1-9]\d* history rows, 0 rejected$/m);
    // A scoreboard read as The Odds API is not a list of events: refused with the path, the run goes on.
    const forced = await odds(['ingest', '--format', 'the-odds-api', feedPath('nba-2026-01-08-scheduled.json')], env());
    expect(forced.code).toBe(1);
    expect(forced.stderr).toMatch(/rejected .*nba-2026-01-08-scheduled\.json: /);
    const unknown = await odds(['ingest', '--format', 'oddsjam', feedPath('nba-2026-01-08-scheduled.json')], env());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--format.*oddsjam.*actionnetwork, the-odds-api/s);
  });

  test('when captures carry an event of a team the league does not have, then it is named once on stderr and the rest is ingested', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-skip-'));
    try {
      // Two real captures of the WNBA week; in both, the first event becomes an All-Star game.
      const lines = zlib.gunzipSync(fs.readFileSync(feedPath('theoddsapi/wnba-2026-07-14_2026-07-21.jsonl.gz'))).toString('utf8').split('\n').slice(0, 2);
      const captures = lines.map((line) => JSON.parse(line));
      for (const capture of captures) Object.assign(capture.body[0], { home_team: 'Team Clark', away_team: 'Team Collier' });
      const events = captures[0].body.length;
      const file = path.join(dir, 'all-star.jsonl');
      fs.writeFileSync(file, captures.map((c) => JSON.stringify(c)).join('\n'));
      const res = await odds(['ingest', file], env());
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(new RegExp(`^ingested 2 documents: ${events - 1} games, [1-9]\\d* quotes changed, [1-9]\\d* history rows, 0 rejected$`, 'm'));
      const skipped = res.stderr.split('\n').filter((l) => l.startsWith('skipped '));
      expect(skipped).toEqual([
        `skipped ${file}:1 [0]: event ${captures[0].body[0].id} skipped: "Team Clark" and "Team Collier" are not teams of basketball_wnba (src/ingest/reference-data.ts)`,
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('when standard input holds a broken document, then it is rejected with its name and the exit code is 1', async () => {
    const { code, stdout, stderr } = await odds(['ingest', '-'], env(), '{"games": [{"id": "x"}]}');
    expect(code).toBe(1);
    expect(stderr).toMatch(/rejected stdin: games\[0\]\.id: /);
    expect(stdout).toMatch(/1 rejected/);
  });

  test('when a series has Windows line ends, blank lines, a broken line and no final line end, then every line is read and named by its number', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-lines-'));
    try {
      const [a, b, c] = zlib.gunzipSync(fs.readFileSync(feedPath('nba-2026-01-24.jsonl.gz'))).toString('utf8').split('\n');
      const file = path.join(dir, 'series.jsonl.gz');
      // a multi-byte character right where the gzip stream may be cut into chunks does not matter: lines are decoded whole
      fs.writeFileSync(file, zlib.gzipSync(`${a}\r\n\r\n${b}\r\n{"broken": "é\r\n${c}`));
      const res = await odds(['ingest', file], env());
      expect(res.code).toBe(1);
      expect(res.stdout).toMatch(/^ingested 4 documents: \d+ games, \d+ quotes changed, \d+ history rows, 1 rejected$/m);
      expect(res.stderr).toMatch(new RegExp(`rejected ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4: \\(document\\): not valid JSON`));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('when a compressed series is damaged', () => {
    let dir: string;
    beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-damaged-'))));
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
    const lines = () => zlib.gunzipSync(fs.readFileSync(feedPath('nba-2026-01-24.jsonl.gz'))).toString('utf8').split('\n');

    test('then a cut file is named in one line with the line it broke after, and the documents before it stay stored', async () => {
      const [a, b, c, d] = lines();
      // three whole lines and half of the fourth, the gzip trailer cut off
      const gz = zlib.gzipSync(`${a}\n${b}\n${c}\n${d!.slice(0, d!.length / 2)}`);
      const cut = path.join(dir, 'cut.jsonl.gz');
      fs.writeFileSync(cut, gz.subarray(0, gz.length - 8));
      const res = await odds(['ingest', cut], env());
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(`odds: ${cut}: damaged after line 3 (unexpected end of file); 3 documents before it were ingested\n`);
      // the same three documents again change nothing: they were committed
      const whole = path.join(dir, 'whole.jsonl');
      fs.writeFileSync(whole, `${a}\n${b}\n${c}\n`);
      const again = await odds(['ingest', whole], env());
      expect(again.stdout).toMatch(/^ingested 3 documents: \d+ games, 0 quotes changed, 0 history rows, 0 rejected$/m);
    });

    test('then a file that is not gzip at all is named, and nothing was ingested', async () => {
      const fake = path.join(dir, 'fake.jsonl.gz');
      fs.writeFileSync(fake, `${lines()[0]}\n`);
      const res = await odds(['ingest', fake], env());
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(`odds: ${fake}: not a gzip file (incorrect header check); nothing was ingested\n`);
    });
  });

  test('when the path does not exist, then it says so', async () => {
    const { code, stderr } = await odds(['ingest', '/nonexistent/feed.json'], env());
    expect(code).toBe(1);
    expect(stderr).toMatch(/ENOENT|no such file/);
  });
});

describe('configuration and the data directory', () => {
  test('when a variable is invalid, then the command stops at once naming it', async () => {
    const { code, stderr } = await odds(['serve'], { ...env(), PORT: 'eighty' });
    expect(code).toBe(2);
    expect(stderr).toMatch(/PORT="eighty"/);
    const tz = await odds(['keys', 'list'], { ...env(), LEAGUE_TIME_ZONE: 'Mars/Olympus' });
    expect(tz.code).toBe(2);
    expect(tz.stderr).toMatch(/LEAGUE_TIME_ZONE/);
  });

  test('when a server holds the embedded store, then a second process gets an error naming the holder', async () => {
    const server = spawn(process.execPath, [BIN, 'serve'], { env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: '' } });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        server.stdout.on('data', (d) => {
          out += d;
          if (out.includes('listening')) resolve();
        });
        server.on('exit', (c) => reject(new Error(`server exited ${c}`)));
      });
      // The server restarted itself with the V8 flags of its memory budgets (src/cli/v8-flags.ts)
      // in the same process: the one spawned here, whose pid the lock names.
      expect(fs.readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0')).toEqual(expect.arrayContaining(['--max-semi-space-size=1', '--liftoff-only', '--optimize-for-size', BIN, 'serve']));
      expect(fs.readFileSync(`/proc/${server.pid}/environ`, 'utf8').split('\0')).toContain('MALLOC_ARENA_MAX=2');
      const { code, stderr } = await odds(['keys', 'list'], env());
      expect(code).toBe(2);
      expect(stderr).toContain(`in use by process ${server.pid}`);
      expect(stderr).toContain('odds serve');
    } finally {
      const exited = new Promise<number | null>((resolve) => server.on('exit', (c) => resolve(c)));
      server.kill('SIGTERM');
      // Graceful shutdown exits 0 and releases the lock.
      expect(await exited).toBe(0);
    }
    const after = await odds(['keys', 'list'], env());
    expect(after.code).toBe(0);
  }, 60_000);

  test('when help is asked for, then every command is described', async () => {
    const { stdout } = await run(process.execPath, [BIN, '--help']);
    for (const command of ['serve', 'migrate', 'ingest', 'simulate', 'keys', 'accounts']) expect(stdout).toContain(command);
    const keysHelp = await run(process.execPath, [BIN, 'keys', 'create', '--help']);
    expect(keysHelp.stdout).toMatch(/--plan.*--expires-at.*--json/s);
  });
});

describe('odds simulate', () => {
  test('when the same seed and instant are simulated twice, then the documents are identical and labelled simulated', async () => {
    const args = ['simulate', '--stdout', '--seed', '7', '--at', '2026-11-21T23:30:00Z'];
    const first = await odds(args, env());
    const second = await odds(args, env());
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(second.stdout);
    const lines = first.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).toMatchObject({ fetched_at: '2026-11-21T23:30:00.000Z', source: 'simulator', body: { simulated: true } });
      for (const game of line.body.games) expect(game.meta).toMatchObject({ simulated: true, simulator_seed: 7 });
    }
    const other = await odds(['simulate', '--stdout', '--seed', '8', '--at', '2026-11-21T23:30:00Z'], env());
    expect(other.stdout).not.toBe(first.stdout);
  });

  test('when a simulated range is stored, then its games are in the store', async () => {
    const { code, stdout, stderr } = await odds(['simulate', '--at', '2026-11-21T20:00:00Z', '--until', '2026-11-21T21:00:00Z', '--every', '30'], env());
    expect(code).toBe(0);
    // not a terminal: no progress bar (see 'progress on a terminal')
    expect(stderr).not.toContain('simulate [');
    expect(stdout).toMatch(/^simulated \(seed 42\) [1-9]\d* documents: [1-9]\d* games, [1-9]\d* quotes changed/m);
  });
});

describe('odds serve --simulate (npm start)', () => {
  let demoDir: string;
  beforeAll(() => (demoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-demo-'))));
  afterAll(() => fs.rmSync(demoDir, { recursive: true, force: true }));

  /** Starts the demo, reads its banner up to the GraphQL line, stops it (exit 0); returns the banner. */
  async function demoBanner(): Promise<{ banner: string; gamesStatus: number; withoutKeyStatus: number }> {
    const server = spawn(process.execPath, [BIN, 'serve', '--simulate'], {
      env: { ...process.env, DATA_DIR: demoDir, PORT: '0', LOG_LEVEL: 'silent', DATABASE_URL: '', REDIS_URL: '', SIMULATOR_INTERVAL_MS: '600000' },
    });
    const exited = new Promise<number | null>((resolve) => server.on('exit', (c) => resolve(c)));
    try {
      const banner = await new Promise<string>((resolve, reject) => {
        let out = '';
        server.stdout.on('data', (d) => {
          out += d;
          if (/GraphQL .*\n/.test(out)) resolve(out);
        });
        server.stderr.on('data', (d) => (out += d));
        void exited.then((c) => reject(new Error(`server exited ${c}: ${out}`)));
      });
      const key = /demo key {2}(sk_\S+)/.exec(banner)![1]!;
      const api = /API {7}(http:\S+)/.exec(banner)![1]!;
      const gamesStatus = (await fetch(api, { headers: { authorization: `Bearer ${key}` } })).status;
      const withoutKeyStatus = (await fetch(api)).status;
      return { banner, gamesStatus, withoutKeyStatus };
    } finally {
      server.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }

  test('when the demo starts on a fresh data directory, then it prints a working elite key and the URLs of the API, docs, board and GraphQL, and later starts show the same key', async () => {
    const first = await demoBanner();
    expect(first.banner).toMatch(/^ {2}demo key {2}sk_[A-Za-z0-9_-]{43} {2}\(elite plan; kept in .*demo-key and reused on later starts\)$/m);
    const port = /http:\/\/localhost:(\d+)\//.exec(first.banner)![1];
    expect(first.banner).toContain(`  API       http://localhost:${port}/api/v1/nba/odds/games`);
    expect(first.banner).toContain(`  docs      http://localhost:${port}/docs\n`);
    expect(first.banner).toContain(`  board     http://localhost:${port}/\n`);
    expect(first.banner).toContain(`  GraphQL   http://localhost:${port}/graphql\n`);
    expect(first.gamesStatus).toBe(200);
    expect(first.withoutKeyStatus).toBe(401);

    const second = await demoBanner();
    const keyOf = (banner: string) => /demo key {2}(sk_\S+)/.exec(banner)![1];
    expect(keyOf(second.banner)).toBe(keyOf(first.banner));
    expect(second.gamesStatus).toBe(200);
  }, 180_000);

  test('when the kept demo key was revoked, then the next start creates and prints a new one', async () => {
    const kept = fs.readFileSync(path.join(demoDir, 'demo-key'), 'utf8').trim();
    const keys = JSON.parse((await odds(['keys', 'list', '--json'], { DATA_DIR: demoDir })).stdout) as Array<{ id: string; name: string | null }>;
    const demo = keys.find((k) => k.name === 'demo')!;
    expect((await odds(['keys', 'revoke', demo.id], { DATA_DIR: demoDir })).code).toBe(0);
    const next = await demoBanner();
    const key = /demo key {2}(sk_\S+)/.exec(next.banner)![1];
    expect(key).not.toBe(kept);
    expect(next.gamesStatus).toBe(200);
  }, 120_000);
});

describe('progress on a terminal', () => {
  // `script` gives the command a pseudo-terminal, as a user's shell does: the bars only show there.
  async function inTerminal(args: string[]): Promise<Result> {
    const child = spawn('script', ['-qec', [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' '), '/dev/null'], {
      env: { ...process.env, LOG_LEVEL: 'silent', DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
    return { code, stdout, stderr: '' };
  }

  test('when a folder with a rejected document is ingested, then the bar keeps counting documents and rejections after the rejection line', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-progress-'));
    try {
      fs.writeFileSync(path.join(dir, 'a-broken.json'), '{"games": [{"id": "x"}]}');
      fs.copyFileSync(feedPath('nba-2026-01-08-scheduled.json'), path.join(dir, 'b.json'));
      const { code, stdout } = await inTerminal(['ingest', dir]);
      expect(code).toBe(1);
      expect(stdout).toContain('rejected ');
      const afterRejection = stdout.slice(stdout.indexOf('rejected '));
      expect(afterRejection).not.toMatch(/\{\w+\}/);
      expect(afterRejection).toContain('ingest [');
      expect(afterRejection).toContain('2/2 files | 2 documents | 1 rejected');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('when a simulated range is replayed with --until, then a bar counts its documents to the end', async () => {
    const { code, stdout } = await inTerminal(['simulate', '--at', '2026-11-22T20:00:00Z', '--until', '2026-11-22T21:00:00Z', '--every', '30']);
    expect(code).toBe(0);
    const total = /simulated \(seed 42\) (\d+) documents/.exec(stdout)![1];
    expect(stdout).toContain(`simulate [`);
    expect(stdout).toMatch(new RegExp(`\\] 1/${total} documents \\| [1-9]\\d* games \\| at 2026-11-22T20:00:00.000Z`));
    expect(stdout).toMatch(new RegExp(`\\] ${total}/${total} documents \\| [1-9]\\d* games \\| at 2026-11-22T21:00:00.000Z`));
  });
});
