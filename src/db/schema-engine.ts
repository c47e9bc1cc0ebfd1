import fs from 'node:fs';
import path from 'node:path';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { compareCodePoints } from '../domain/compare';

// Prisma's schema engine as WebAssembly: migrations without the native binary the Prisma CLI would
// download. The package's entry imports the .wasm as an ES module, which jest cannot load, so the
// module is instantiated here from its JS glue and the bytes.
type Bg = typeof import('@prisma/schema-engine-wasm', { with: { 'resolution-mode': 'import' } });
// The WebAssembly global is typed by lib.dom, which a server does not include.
declare const WebAssembly: {
  instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: Record<string, unknown> } }>;
};
type Engine = Awaited<ReturnType<Bg['SchemaEngine']['new']>>;

let loaded: Promise<Bg> | undefined;

// The engine reports a Rust panic through this global before it throws; keep the text so the
// error a user sees says what went wrong.
const panics = { last: '' };
(globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown }).PRISMA_WASM_PANIC_REGISTRY = {
  set_message(message: string) {
    panics.last = message;
  },
};

/** Runs an engine call, turning a panic into an Error carrying the engine's message. */
async function guarded<T>(call: () => Promise<T>): Promise<T> {
  panics.last = '';
  try {
    return await call();
  } catch (error) {
    if (panics.last) throw new Error(`Prisma schema engine: ${panics.last}`);
    throw error;
  }
}

/**
 * The engine's imports with its timers unref'd. The engine sets timers (e.g. a 10 s timeout around
 * each migration step) and has no way to clear them (it imports no clearTimeout), so every migration
 * left one running after it finished: a CLI command or a test worker stayed alive 10 s longer (jest:
 * "a worker process has failed to exit gracefully"). Unref'd, a timer still fires while the process
 * has work, such as the migration's own database connection.
 */
function withUnrefTimers(bg: Record<string, unknown>): Record<string, unknown> {
  const imports: Record<string, unknown> = { ...bg };
  for (const [name, value] of Object.entries(bg)) {
    if (!name.startsWith('__wbg_setTimeout_') || typeof value !== 'function') continue;
    imports[name] = (...args: unknown[]) => {
      const timer = (value as (...a: unknown[]) => unknown)(...args);
      (timer as { unref?: () => void } | null)?.unref?.();
      return timer;
    };
  }
  return imports;
}

function loadEngineModule(): Promise<Bg> {
  loaded ??= (async () => {
    const dir = path.dirname(require.resolve('@prisma/schema-engine-wasm'));
    const bg = (await import('@prisma/schema-engine-wasm/schema_engine_bg')) as unknown as Bg & { __wbg_set_wasm(exports: unknown): void };
    const bytes = fs.readFileSync(path.join(dir, 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': withUnrefTimers(bg) });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
    return bg;
  })();
  return loaded;
}

export const SCHEMA_PATH = path.join(__dirname, '..', '..', 'prisma', 'schema.prisma');
export const MIGRATIONS_DIR = path.join(__dirname, '..', '..', 'prisma', 'migrations');

/** The Prisma schema text with the file name the engine reports errors against. */
export function readSchema(file = SCHEMA_PATH): [string, string] {
  return ['schema.prisma', fs.readFileSync(file, 'utf8')];
}

/** Opens a schema engine on a database reached through a driver adapter (or none, for diffs). */
export { guarded as guardEngineCall };

export async function openSchemaEngine(
  schema: [string, string],
  adapterFactory?: SqlMigrationAwareDriverAdapterFactory,
  log: (message: string) => void = () => {},
): Promise<Engine> {
  const bg = await loadEngineModule();
  const adapter = adapterFactory ? bindMigrationAwareSqlAdapterFactory(adapterFactory) : undefined;
  return guarded(() => bg.SchemaEngine.new({ datamodels: [schema] }, log, adapter as object));
}

export interface MigrationFolder {
  name: string;
  sql: string;
}

/** The migrations on disk, in the order Prisma applies them (folder name order). */
export function readMigrations(dir = MIGRATIONS_DIR): MigrationFolder[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, 'migration.sql')))
    .map((entry) => ({ name: entry.name, sql: fs.readFileSync(path.join(dir, entry.name, 'migration.sql'), 'utf8') }))
    .sort((a, b) => compareCodePoints(a.name, b.name));
}

/** The engine's view of a migrations folder (what `prisma migrate deploy` reads from disk). */
export function migrationList(dir = MIGRATIONS_DIR) {
  const lockfile = path.join(dir, 'migration_lock.toml');
  return {
    baseDir: dir,
    lockfile: { path: 'migration_lock.toml', content: fs.existsSync(lockfile) ? fs.readFileSync(lockfile, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: readMigrations(dir).map((m) => ({
      path: m.name,
      migrationFile: { path: 'migration.sql', content: { tag: 'ok' as const, value: m.sql } },
    })),
  };
}

/**
 * SQL that takes a database of schema `from` (null: an empty database) to schema `to`: the body of
 * the next migration. Needs no database: both sides are schema files.
 */
export async function diffSchemas(from: [string, string] | null, to: [string, string]): Promise<string> {
  // The engine wants a connection even for a file-to-file diff; a throwaway in-memory PGlite serves.
  const scratch = new PGlite();
  const engine = await openSchemaEngine(to, new PrismaPGlite(scratch));
  let captured = '';
  const original = process.stdout.write.bind(process.stdout);
  // The engine may print the script to stdout rather than return it; capture it either way.
  process.stdout.write = ((chunk: string | Uint8Array) => {
    captured += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stdout.write;
  try {
    const target = (schema: [string, string]) => ({
      tag: 'schemaDatamodel' as const,
      files: [{ path: schema[0], content: schema[1] }],
    });
    const result = await guarded(() => engine.diff({
      from: from ? target(from) : { tag: 'empty' },
      to: target(to),
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    }));
    return result.stdout ?? captured;
  } finally {
    process.stdout.write = original;
    engine.free();
    await scratch.close();
  }
}
