import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { connect, createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { InvalidArgumentError, type Command } from 'commander';
import { Client } from 'pg';
import { localHaproxyConfig } from './haproxy-config';

// `odds cluster` (npm run cluster): the scale-out shape of compose.yaml on one machine, for trying it
// and for the test that kills a process under load (test/integration/cluster.test.ts). PostgreSQL
// (DATABASE_URL, or a fresh database on a local server), Redis (REDIS_URL, or a redis-server of its
// own), migrations, one ingester, N API processes on local ports and HAProxy configured by
// deploy/haproxy.cfg itself. Every process it starts is its own process group, stopped by the cluster
// in order (API processes drain first, then the balancer, then Redis), never by the terminal's Ctrl-C.

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'odds.js');
/** The balancer's configuration, as compose.yaml mounts it. */
export const HAPROXY_CFG = path.join(ROOT, 'deploy', 'haproxy.cfg');

/** The PostgreSQL server of a fresh database when DATABASE_URL is not set (Debian's local server). */
export const DEFAULT_POSTGRES_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
/** The drain of an API process on SIGTERM (SHUTDOWN_DRAIN_MS) unless set: over two failed checks of deploy/haproxy.cfg. */
const DRAIN_MS = '2500';
/** How long a process may take to be ready (migrations done, the API answering /readyz). */
const READY_WITHIN_MS = 90_000;

export interface ClusterOptions {
  /** API processes behind the balancer (default 3). */
  apiProcesses?: number;
  /** Start the ingester (`odds serve --simulate`, or polling FEED_URL); false: feed it yourself with `odds ingest`. */
  ingester?: boolean;
  /** The balancer's port; 0 picks a free one (default 8080). */
  port?: number;
  /** The balancer's and the processes' address (default 127.0.0.1). */
  host?: string;
  /** Use this database; otherwise a fresh one is created on `postgresUrl` and dropped on stop. */
  databaseUrl?: string;
  /** Where the fresh database is created (default DEFAULT_POSTGRES_URL). */
  postgresUrl?: string;
  /** Keep the fresh database on stop. */
  keepDatabase?: boolean;
  /** Use this Redis; otherwise a redis-server of the cluster's own on a free port. */
  redisUrl?: string;
  /** The ingester polls this feed instead of running the simulator. */
  feedUrl?: string;
  /** ADMIN_KEY of every process (default: a fresh random one). */
  adminKey?: string;
  /** The environment every process starts from (default process.env); the cluster sets its own variables over it. */
  env?: NodeJS.ProcessEnv;
  /** The haproxy program (default `haproxy`, found on PATH). */
  haproxy?: string;
  /** Each line a process writes, with the process's name (api1, ingester, lb, redis, migrate). */
  onOutput?: (name: string, line: string) => void;
}

/** An API process behind the balancer. */
export interface ClusterApi {
  /** Its name in HAProxy and its SERVERID cookie: api1, api2, ... */
  name: string;
  port: number;
  /** Its pid while it runs. */
  pid: number | undefined;
  running: boolean;
}

export interface Cluster {
  /** The balancer's URL: REST, GraphQL, graphql-ws, Socket.IO and SSE through HAProxy. */
  url: string;
  adminKey: string;
  databaseUrl: string;
  /** Whether the database was created by the cluster (dropped on stop unless kept). */
  databaseCreated: boolean;
  redisUrl: string;
  /** Whether Redis is the cluster's own redis-server. */
  redisOwned: boolean;
  apis: readonly ClusterApi[];
  /** The ingester's own URL (not behind the balancer), when it runs. */
  ingesterUrl: string | undefined;
  /** The environment of the odds processes (DATABASE_URL, REDIS_URL, ...), for running `odds` commands on the cluster. */
  env: NodeJS.ProcessEnv;
  /** Signals API process `index` (default SIGKILL) and waits until it has exited. */
  kill(index: number, signal?: NodeJS.Signals): Promise<void>;
  /** Starts API process `index` again on its port; resolves when the balancer sends it requests. */
  start(index: number): Promise<void>;
  /** Stops everything it started (API processes drain first), drops the fresh database; idempotent. */
  stop(): Promise<void>;
}

/** A child process of the cluster with its end. */
interface Proc {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
}

/** Every child still running in this process, killed at once if this process exits before stopping them. */
const running = new Set<ChildProcess>();
let exitHook = false;

function startProcess(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, onOutput: (name: string, line: string) => void): Proc {
  // Its own process group: the terminal's Ctrl-C reaches the cluster only, which stops each in order.
  const child = spawn(command, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  if (!exitHook) {
    exitHook = true;
    process.on('exit', () => {
      for (const c of running) c.kill('SIGKILL');
    });
  }
  for (const stream of [child.stdout!, child.stderr!]) readline.createInterface({ input: stream }).on('line', (line) => onOutput(name, line));
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', (error) => {
      onOutput(name, `could not start ${command}: ${error.message}`);
      resolve();
    });
  }).then(() => void running.delete(child));
  return { name, child, exited };
}

const alive = (proc: Proc) => proc.child.exitCode === null && proc.child.signalCode === null && proc.child.pid !== undefined;

/** Sends `signal`, then SIGKILL if the process is still there after `killAfterMs`; resolves once it has exited. */
async function stopProcess(proc: Proc | undefined, signal: NodeJS.Signals, killAfterMs: number): Promise<void> {
  if (!proc || !alive(proc)) return proc?.exited;
  proc.child.kill(signal);
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), killAfterMs);
  await proc.exited;
  clearTimeout(timer);
}

/** A free TCP port below the ephemeral range (so no outgoing connection is handed it meanwhile). */
export async function freeLocalPort(host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer().once('error', () => resolve(false));
      probe.listen(port, host, () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port found between 20000 and 32000');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, failing when `proc` exits first or after `withinMs`. */
async function until(what: string, check: () => Promise<boolean>, proc?: Proc, withinMs = READY_WITHIN_MS): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (proc && !alive(proc)) throw new Error(`${proc.name} exited before ${what}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const answers = async (url: string, status = 200) => (await fetch(url, { signal: AbortSignal.timeout(2000) })).status === status;
const listens = (port: number, host: string) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, host);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** The database name a URL points at. */
const databaseOf = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));

/**
 * Starts the cluster: database and Redis, migrations, the ingester (unless `ingester: false`), the
 * API processes, then HAProxy; resolves once the balancer sends requests to every API process. On
 * a failure it stops what it started before throwing.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const host = options.host ?? '127.0.0.1';
  const count = options.apiProcesses ?? 3;
  const onOutput = options.onOutput ?? (() => {});
  const baseEnv = options.env ?? process.env;
  const adminKey = options.adminKey ?? randomBytes(24).toString('hex');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odds-cluster-'));
  const procs: { redis?: Proc; ingester?: Proc; lb?: Proc; apis: Array<Proc | undefined> } = { apis: [] };
  let createdDatabase: string | undefined;
  let stopping: Promise<void> | undefined;

  const stop = () =>
    (stopping ??= (async () => {
      // The API processes drain (readiness 503 while the balancer notices), then close their sockets
      // with a reconnect hint; the balancer and Redis go after them.
      const drainMs = Number(env.SHUTDOWN_DRAIN_MS ?? DRAIN_MS);
      await Promise.all([...procs.apis, procs.ingester].map((proc) => stopProcess(proc, 'SIGTERM', drainMs + 20_000)));
      await stopProcess(procs.lb, 'SIGTERM', 5_000);
      await stopProcess(procs.redis, 'SIGTERM', 5_000);
      if (createdDatabase && !options.keepDatabase) {
        const admin = new Client({ connectionString: options.postgresUrl ?? DEFAULT_POSTGRES_URL });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS "${createdDatabase}" WITH (FORCE)`).finally(() => admin.end());
      }
      fs.rmSync(dir, { recursive: true, force: true });
    })());

  let env: NodeJS.ProcessEnv = {};
  try {
    // PostgreSQL: the given database, or a fresh one on the local server.
    let databaseUrl = options.databaseUrl;
    if (!databaseUrl) {
      const serverUrl = options.postgresUrl ?? DEFAULT_POSTGRES_URL;
      const name = `odds_cluster_${randomBytes(4).toString('hex')}`;
      const admin = new Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`).finally(() => admin.end());
      createdDatabase = name;
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
    }

    // Redis: the given one, or a redis-server of its own (nothing on disk).
    let redisUrl = options.redisUrl;
    if (!redisUrl) {
      const port = await freeLocalPort(host);
      procs.redis = startProcess('redis', 'redis-server', ['--port', String(port), '--bind', host, '--save', '', '--appendonly', 'no'], baseEnv, onOutput);
      await until('redis-server to listen', () => listens(port, host), procs.redis, 10_000);
      redisUrl = `redis://${host}:${port}`;
    }

    env = {
      ...baseEnv,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      ADMIN_KEY: adminKey,
      HOST: host,
      SHUTDOWN_DRAIN_MS: baseEnv.SHUTDOWN_DRAIN_MS || DRAIN_MS,
      // Only the ingester polls a source.
      FEED_URL: '',
      ODDS_API_KEY: '',
      ESPN_POLL: '',
    };

    const migrate = startProcess('migrate', process.execPath, [BIN, 'migrate'], env, onOutput);
    await migrate.exited;
    if (migrate.child.exitCode !== 0) throw new Error(`odds migrate failed (exit ${migrate.child.exitCode})`);

    let ingesterUrl: string | undefined;
    if (options.ingester !== false) {
      const port = await freeLocalPort(host);
      const feed = options.feedUrl ?? baseEnv.FEED_URL;
      const ingesterDir = path.join(dir, 'ingester');
      fs.mkdirSync(ingesterDir);
      procs.ingester = startProcess('ingester', process.execPath, [BIN, 'serve', ...(feed ? [] : ['--simulate'])], { ...env, PORT: String(port), DATA_DIR: ingesterDir, FEED_URL: feed ?? '' }, onOutput);
      ingesterUrl = `http://${host}:${port}`;
      await until('the ingester to be ready', () => answers(`${ingesterUrl}/readyz`), procs.ingester);
    }

    const apis: ClusterApi[] = [];
    for (let i = 0; i < count; i++) apis.push({ name: `api${i + 1}`, port: await freeLocalPort(host), pid: undefined, running: false });
    const startApi = async (index: number) => {
      const api = apis[index]!;
      const apiDir = path.join(dir, api.name);
      fs.mkdirSync(apiDir, { recursive: true });
      const proc = startProcess(api.name, process.execPath, [BIN, 'serve'], { ...env, PORT: String(api.port), DATA_DIR: apiDir }, onOutput);
      procs.apis[index] = proc;
      api.pid = proc.child.pid;
      api.running = true;
      void proc.exited.then(() => {
        if (procs.apis[index] === proc) Object.assign(api, { running: false, pid: undefined });
      });
      await until(`${api.name} to be ready`, () => answers(`http://${host}:${api.port}/readyz`), proc);
    };
    await Promise.all(apis.map((_api, i) => startApi(i)));

    // The balancer: deploy/haproxy.cfg with local addresses.
    const port = options.port === 0 ? await freeLocalPort(host) : (options.port ?? 8080);
    const cfg = path.join(dir, 'haproxy.cfg');
    fs.writeFileSync(cfg, localHaproxyConfig(fs.readFileSync(HAPROXY_CFG, 'utf8'), { host, port, servers: apis.map((a) => ({ name: a.name, host, port: a.port })) }));
    procs.lb = startProcess('lb', options.haproxy ?? 'haproxy', ['-f', cfg, '-db'], baseEnv, onOutput);
    const url = `http://${host}:${port}`;
    /** Resolves once the balancer has answered from the API process named (its SERVERID cookie). */
    const routedTo = (names: string[]) => {
      const seen = new Set<string>();
      return until(`the balancer to send requests to ${names.join(', ')}`, async () => {
        const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
        const server = /SERVERID=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
        if (res.status === 200 && server) seen.add(server);
        return names.every((name) => seen.has(name));
      }, procs.lb);
    };
    await routedTo(apis.map((a) => a.name));

    return {
      url,
      adminKey,
      databaseUrl,
      databaseCreated: createdDatabase !== undefined,
      redisUrl,
      redisOwned: procs.redis !== undefined,
      apis,
      ingesterUrl,
      env,
      async kill(index, signal = 'SIGKILL') {
        const proc = procs.apis[index];
        if (!proc || !alive(proc)) return;
        proc.child.kill(signal);
        await proc.exited;
      },
      async start(index) {
        if (procs.apis[index] && alive(procs.apis[index])) throw new Error(`${apis[index]!.name} is running`);
        await startApi(index);
        await routedTo([apis[index]!.name]);
      },
      stop,
    };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}

const positive = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 32) throw new InvalidArgumentError('a whole number from 1 to 32');
  return n;
};
const portNumber = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port number (0 picks a free one)');
  return n;
};

/** What the operator is told once the cluster is up. */
function banner(cluster: Cluster, simulated: boolean): string {
  const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]+@/, '//$1:***@');
  return [
    `odds cluster: ${cluster.apis.length} API processes behind HAProxy (deploy/haproxy.cfg), ${cluster.ingesterUrl ? `one ingester (${simulated ? 'simulated demo data' : 'FEED_URL'})` : 'no ingester (feed it with odds ingest)'}, PostgreSQL, Redis`,
    `  balancer   ${cluster.url}   (board /, docs /docs, REST /api/v1/nba/odds, GraphQL /graphql, Socket.IO /live-odds)`,
    `  processes  ${cluster.apis.map((a) => `${a.name} :${a.port}`).join(', ')}${cluster.ingesterUrl ? `; ingester ${cluster.ingesterUrl} (not balanced)` : ''}`,
    `  database   ${redact(cluster.databaseUrl)}${cluster.databaseCreated ? ' (created for this cluster, dropped on stop)' : ''}`,
    `  redis      ${redact(cluster.redisUrl)}${cluster.redisOwned ? ' (its own redis-server)' : ''}`,
    `  admin key  ${cluster.adminKey}`,
    `             a key: curl -s ${cluster.url}/graphql -H 'content-type: application/json' -H 'authorization: Bearer <admin key>' \\`,
    `                      -d '{"query":"mutation { createApiKey(plan: ELITE, name: \\"me\\") { key } }"}'`,
    `             or: DATABASE_URL=<database> npx odds keys create --plan elite`,
    `  Ctrl-C stops everything (API processes drain first).`,
    '',
  ].join('\n');
}

export function registerClusterCommand(program: Command): void {
  program
    .command('cluster')
    .description('run the scale-out shape on this machine: PostgreSQL, Redis, an ingester and N API processes behind HAProxy (deploy/haproxy.cfg)')
    .option('--api <n>', 'API processes behind the balancer', positive, 3)
    .option('--no-ingester', 'start no ingester (feed the cluster with odds ingest)')
    .option('--port <port>', 'the balancer\'s port (default PORT, else 8080; 0 picks a free one)', portNumber)
    .option('--postgres <url>', 'PostgreSQL server where a fresh database is created when DATABASE_URL is not set', DEFAULT_POSTGRES_URL)
    .option('--keep-database', 'keep the fresh database on stop')
    .action(async (opts: { api: number; ingester: boolean; port?: number; postgres: string; keepDatabase?: boolean }) => {
      const env = process.env;
      // Listened for from the start: a Ctrl-C during start-up stops the cluster once it is up (its
      // children are in their own process groups and would outlive this process otherwise).
      let asked = 0;
      const stopAsked = new Promise<void>((resolve) => {
        for (const signal of ['SIGINT', 'SIGTERM'] as const) {
          process.on(signal, () => {
            // A second Ctrl-C does not cut the stop short: each process has a bounded time to end.
            if (asked++) process.stdout.write('odds cluster: already stopping (each process gets its drain, then SIGKILL)\n');
            resolve();
          });
        }
      });
      // The API processes log warnings and errors unless LOG_LEVEL says otherwise; HAProxy logs each request.
      const childEnv = { ...env, LOG_LEVEL: env.LOG_LEVEL || 'warn' };
      const width = 8;
      const cluster = await startCluster({
        apiProcesses: opts.api,
        ingester: opts.ingester,
        port: opts.port ?? (env.PORT ? portNumber(env.PORT) : 8080),
        ...(env.DATABASE_URL && { databaseUrl: env.DATABASE_URL }),
        postgresUrl: opts.postgres,
        keepDatabase: opts.keepDatabase ?? false,
        ...(env.REDIS_URL && { redisUrl: env.REDIS_URL }),
        ...(env.FEED_URL && { feedUrl: env.FEED_URL }),
        ...(env.ADMIN_KEY && { adminKey: env.ADMIN_KEY }),
        env: childEnv,
        onOutput: (name, line) => process.stdout.write(`${name.padEnd(width)}| ${line}\n`),
      });
      process.stdout.write(banner(cluster, !env.FEED_URL));
      await stopAsked;
      process.stdout.write('odds cluster: stopping\n');
      await cluster.stop();
      process.stdout.write('odds cluster: stopped\n');
    });
}
