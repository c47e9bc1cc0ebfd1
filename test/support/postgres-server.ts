import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Debian's PostgreSQL binaries (initdb, pg_ctl), or undefined where they are not installed. */
export const POSTGRES_BIN = (() => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root).sort().pop();
  return version && existsSync(path.join(root, version, 'bin', 'pg_ctl')) ? path.join(root, version, 'bin') : undefined;
})();

/**
 * A private PostgreSQL server on `port` (its own data directory, trust auth) that a test may stop
 * and start again. initdb refuses root, so as root it runs as the `postgres` user.
 */
export function createPostgresServer(port: number) {
  if (!POSTGRES_BIN) throw new Error('PostgreSQL binaries not found');
  const dir = mkdtempSync(path.join(tmpdir(), 'odds-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()));
  const run = (tool: string, args: string[]) =>
    asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(POSTGRES_BIN!, tool), ...args], { stdio: 'ignore' }) : execFileSync(path.join(POSTGRES_BIN!, tool), args, { stdio: 'ignore' });
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres']);
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    start: () => run('pg_ctl', ['-D', data, '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, '-l', path.join(dir, 'log'), '-w', 'start']),
    /** An immediate stop: connections are cut as in a crash or a failover. */
    stop: () => run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    remove() {
      try {
        this.stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
