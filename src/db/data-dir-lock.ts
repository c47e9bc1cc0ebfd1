import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Who holds an embedded data directory. */
export interface LockHolder {
  pid: number;
  host: string;
  command: string;
  since: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `data directory ${dataDir} is in use by process ${holder.pid} on ${holder.host} (${holder.command}, since ${holder.since}); ` +
        'PGlite allows one process at a time: stop that process, or use the running server (its admin API) instead',
    );
  }
}

const LOCK_FILE = 'odds.lock';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the single-process lock of an embedded data directory (PGlite would corrupt a directory
 * opened by two processes). A lock left by a dead process on this host is taken over.
 * Returns the release function.
 */
export function lockDataDir(dataDir: string, command: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  const me: LockHolder = { pid: process.pid, host: os.hostname(), command, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(me), { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        fs.rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder: LockHolder | undefined;
      try {
        holder = JSON.parse(fs.readFileSync(file, 'utf8')) as LockHolder;
      } catch {
        holder = undefined; // unreadable or half-written: treat as stale
      }
      if (holder && holder.host === me.host && holder.pid !== me.pid && alive(holder.pid)) {
        throw new DataDirLockedError(dataDir, holder);
      }
      if (holder && holder.host !== me.host) throw new DataDirLockedError(dataDir, holder);
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock data directory ${dataDir}`);
}
