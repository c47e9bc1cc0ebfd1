import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { readmeExample, writeOfflineInstall } from '../support/client-package';

// The TypeScript client as a user gets it (issue 38): packed with `npm pack`, installed in an empty
// folder (offline, from the npm cache: test/support/client-package.ts), and the quick start of its
// README type-checked against the installed package and run against `odds serve --simulate`.

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..');
const CLIENT = path.join(ROOT, 'clients', 'typescript');
const TSC = require.resolve('typescript/bin/tsc');
const BIN = path.join(ROOT, 'bin', 'odds.js');

describe('the packed TypeScript client', () => {
  let dir: string;
  let server: ChildProcess | undefined;
  /** What the demo printed (shown when an example fails). */
  let serverOutput = '';

  beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-client-'))));
  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.on('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the demo on a free port; resolves with its API base URL and demo key. */
  const startDemo = () =>
    new Promise<{ baseUrl: string; key: string }>((resolve, reject) => {
      server = spawn(process.execPath, [BIN, 'serve', '--simulate'], {
        env: { ...process.env, DATA_DIR: path.join(dir, 'data'), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '' },
      });
      server.stdout!.on('data', (d) => {
        serverOutput += d;
        const key = /demo key {2}(sk_\S+)/.exec(serverOutput)?.[1];
        const api = /API {7}(http:\/\/[^/\s]+)\//.exec(serverOutput)?.[1];
        if (key && api) resolve({ baseUrl: api, key });
      });
      server.stderr!.on('data', (d) => (serverOutput += d));
      server.on('exit', (code, signal) => {
        serverOutput += `\n(odds serve exited: ${code ?? signal})`;
        reject(new Error(`odds serve exited ${code ?? signal}: ${serverOutput}`));
      });
    });

  test('when it is packed and installed in an empty folder, then the README examples type-check against it and run against the demo service', async () => {
    // Build dist/ (with .d.ts) and pack it as `npm pack` does (prepack is that same build).
    await run(process.execPath, [TSC, '-p', path.join(CLIENT, 'tsconfig.json')]);
    const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: CLIENT });
    const { filename, files } = (JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>)[0]!;
    const contents = files.map((f) => f.path);
    expect(contents).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/live/connect.d.ts']));
    expect(contents.filter((p) => p.startsWith('src/'))).toEqual([]);

    const app = path.join(dir, 'app');
    fs.mkdirSync(app);
    writeOfflineInstall(path.join(dir, filename), app);
    await run('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: app });
    const installed = JSON.parse(fs.readFileSync(path.join(app, 'node_modules', '@odds-data-service', 'client', 'package.json'), 'utf8'));
    expect(installed.dependencies).toEqual({ eventsource: '5.1.5', 'openapi-fetch': '0.17.0', 'socket.io-client': '4.8.1' });

    // The README's examples, as a user's ES modules, compiled against the installed package's types.
    const readme = fs.readFileSync(path.join(CLIENT, 'README.md'), 'utf8');
    fs.writeFileSync(path.join(app, 'quick-start.mts'), readmeExample(readme, 'quick-start'));
    fs.writeFileSync(path.join(app, 'live-helper.mts'), readmeExample(readme, 'live-helper'));
    const types = path.join(ROOT, 'node_modules', '@types');
    await run(process.execPath, [TSC, '--strict', '--target', 'ES2022', '--module', 'node16', '--moduleResolution', 'node16', '--skipLibCheck', '--typeRoots', types, '--types', 'node', '--outDir', 'out', 'quick-start.mts', 'live-helper.mts'], { cwd: app }).catch(
      (error: { stdout?: string }) => {
        throw new Error(`the README example does not type-check:\n${error.stdout}`);
      },
    );

    const { baseUrl, key } = await startDemo();
    // The demo's first simulated scoreboard (games in play) may land just after its banner.
    for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 200))) {
      const live = (await (await fetch(`${baseUrl}/api/v1/nba/odds/live`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: unknown[] };
      if (live.data.length > 0) break;
      if (Date.now() - started > 60_000) throw new Error('the demo has no game in play after 60 s');
    }
    const env = { ...process.env, ODDS_URL: baseUrl, ODDS_API_KEY: key };
    const runExample = (name: string) =>
      run(process.execPath, [path.join(app, 'out', `${name}.mjs`)], { cwd: app, env, timeout: 60_000 }).catch((error: Error) => {
        throw new Error(`${error.message}\nthe service said:\n${serverOutput}`);
      });
    const example = await runExample('quick-start');
    expect(example.stdout).toMatch(/^[1-9]\d* games being played$/m);
    expect(example.stdout).toMatch(/^requests left this minute: \d+ of 6000$/m);
    expect(example.stdout).toMatch(/^refused: 404 not_found: .*not found/m);
    expect(example.stdout).toMatch(/^snapshot seq \d+: [1-9]\d* quotes$/m);
    expect(example.stdout).toMatch(/^live \d+ \d+-\d+: /m);

    // The live helper's example: SSE, the first snapshot, then the next delta of the demo's feed.
    const live = await runExample('live-helper');
    expect(live.stdout).toMatch(/^status: live$/m);
    expect(live.stdout).toMatch(/^stream global at seq \d+: [1-9]\d* games$/m);
    expect(live.stdout).toMatch(/^seq \d+: \d+ games and \d+ quotes changed, \d+ games ended$/m);
    expect(live.stdout).toMatch(/^game \d+ \d+-\d+ \(.*\): home -?\d+(\.\d+)? at -?\d+$/m);
    expect(live.stdout).toMatch(/^status: closed$/m);
    expect(live.stderr).toBe('');
  }, 180_000);
});
