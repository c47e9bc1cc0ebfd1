// V8 flags that `odds serve` runs with, for its memory budgets (docs/operations.md, "Memory").
// V8 reads them only when the process starts: `v8.setFlagsFromString` later leaves the young
// generation and the WebAssembly compiler as they were (measured), so bin/odds.js restarts itself
// with them once, before loading anything else. It uses process.execve: the same process (same pid,
// so a data directory lock, a supervisor and `kill` still name it), its open stdio and environment.
// This file imports nothing, so that the first start loads nothing it would throw away.

/**
 * The young generation's semi-space, in MB. V8's default grows it to 16 MB (three of them: ~48 MB
 * of RSS once the first requests have run); 1 MB keeps an idle API process ~60 MB smaller, with more
 * frequent (and shorter) minor collections. memory.mjs: idle 208 -> 148 MB on the real day.
 */
export const SEMI_SPACE_MB = 1;

export interface FlagContext {
  /** The command line after the script: ['serve', '--simulate'], ['ingest', ...]. */
  readonly args: readonly string[];
  /** Flags node was started with (process.execArgv). */
  readonly execArgv: readonly string[];
  /** NODE_OPTIONS, whose flags also count as given. */
  readonly nodeOptions: string | undefined;
  /** DATABASE_URL: set, the store is PostgreSQL; empty or unset, the embedded PGlite store. */
  readonly databaseUrl: string | undefined;
}

/** `--max_semi_space_size=4` -> `max-semi-space-size`: V8 takes `-` and `_` alike. */
function flagName(flag: string): string {
  return flag.replace(/^--?/, '').split('=')[0]!.replace(/_/g, '-').replace(/^no-/, '');
}

/**
 * The V8 flags to add for this command, none of which the user already gave (on the command line or
 * in NODE_OPTIONS: theirs win). Only `serve` gets them: the other commands are short-lived, and
 * `odds ingest`'s speed is measured as it is (bench/).
 * - `--max-semi-space-size` (SEMI_SPACE_MB), whichever the store.
 * - `--liftoff-only` on the embedded store: PGlite's 8.8 MB WebAssembly module optimised by V8's
 *   second compiler (TurboFan) costs ~260 MB of RSS at start; its baseline code (Liftoff) does not
 *   (memory.mjs's demo 546 -> see docs). PostgreSQL deployments keep both compilers for Prisma's
 *   small query compiler.
 * - `--optimize-for-size` on the embedded store too: the demo's start (six hours of captures written
 *   at once) grew V8's heap to ~2x its live data before collecting it, the demo's peak (413-448 MB
 *   RSS, then ~365 once the memory reducer ran); with the flag the heap grows by smaller steps
 *   (peak 367-378 MB) for a start-up ingest that is not measurably slower (3.7-4.8 s either way).
 *   Not on PostgreSQL: it trades speed for size, and the API's speed is measured (rest-vs-bare.mjs).
 */
export function v8FlagsFor(context: FlagContext): string[] {
  if (context.args[0] !== 'serve') return [];
  const given = new Set([...context.execArgv, ...(context.nodeOptions ?? '').split(/\s+/)].filter((f) => f.startsWith('-')).map(flagName));
  const wanted = [`--max-semi-space-size=${SEMI_SPACE_MB}`];
  if (!context.databaseUrl) wanted.push('--liftoff-only', '--optimize-for-size');
  return wanted.filter((flag) => !given.has(flagName(flag)));
}

/**
 * glibc's malloc arenas of the restarted process: 2 instead of up to 8 per core. Every thread that
 * allocates (V8's collector helpers, libuv's pool) otherwise gets an arena of its own whose freed
 * pages stay in RSS; memory.mjs's idle API process: 148-152 -> 146-147 MB. A value the user set wins;
 * other C libraries ignore the variable.
 */
export const MALLOC_ARENAS = 2;

/** The environment `odds serve` restarts with: `env` plus MALLOC_ARENA_MAX (MALLOC_ARENAS) when unset. */
export function relaunchEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return env.MALLOC_ARENA_MAX ? env : { ...env, MALLOC_ARENA_MAX: String(MALLOC_ARENAS) };
}

/**
 * Replaces this process with node started with v8FlagsFor's flags, when there are any and this Node
 * can (process.execve: Node >= 22.15 on POSIX systems). Returns only when it did not: then the
 * command runs as it is, with V8's defaults. Not done in a child with an IPC channel (a fork()),
 * whose channel is its parent's business.
 */
export function relaunchWithV8Flags(): void {
  if (typeof process.execve !== 'function' || process.send) return;
  const flags = v8FlagsFor({ args: process.argv.slice(2), execArgv: process.execArgv, nodeOptions: process.env.NODE_OPTIONS, databaseUrl: process.env.DATABASE_URL });
  if (!flags.length) return;
  try {
    process.execve(process.execPath, [process.execPath, ...process.execArgv, ...flags, ...process.argv.slice(1)], relaunchEnv(process.env));
  } catch {
    // execve refused (a sandbox, a missing binary): the command still runs, with V8's defaults.
  }
}
