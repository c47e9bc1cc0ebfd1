import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { Client, Pool } from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from './__generated__/prisma/client';
import { lockDataDir } from './data-dir-lock';
import { applyMigrations } from './migrate';
import { readMigrations } from './schema-engine';
import { redactUrl } from '../redact';

export { PrismaClient };
export type * from './__generated__/prisma/client';

/** A statement sent as it is, with its parameters; resolves to its rows. */
export type RawQuery = (text: string, params: readonly unknown[]) => Promise<Array<Record<string, unknown>>>;

/**
 * The pg driver's own path to a PostgreSQL database, for the ingest's one hot statement per capture:
 * Prisma's raw-query path costs 1-3 ms more per statement (measured on the capture statements), which
 * is a large part of an ingest's budget. The same driver and database, on a connection of its own;
 * Prisma stays the schema and every other query. Absent for the embedded store.
 */
const rawPaths = new WeakMap<PrismaClient, RawQuery>();

/** The direct path of `prisma`'s database (see rawPaths), or undefined: use Prisma. */
export function rawQueryOf(prisma: PrismaClient): RawQuery | undefined {
  return rawPaths.get(prisma);
}

/**
 * A path of `prisma`'s database on which statements run in the order they are sent, each its own
 * transaction, and are sent at once, without waiting for the answers to those before (pipelined);
 * or undefined (the embedded store: await each statement before sending the next). See pipelinedQuery.
 */
const pipelinedPaths = new WeakMap<PrismaClient, RawQuery>();

export function pipelinedQueryOf(prisma: PrismaClient): RawQuery | undefined {
  return pipelinedPaths.get(prisma);
}

/** Names given to raw statements so far (see preparedName). */
const preparedNames = new Map<string, string>();
/** More statement texts than the capture and signal builders make (a few dozen shapes): the rest run unnamed. */
const MAX_PREPARED = 256;

/**
 * The name under which a raw statement is prepared on each connection, or undefined (sent unnamed,
 * parsed and planned again). The capture statement is one of a few dozen texts (which parts a
 * capture needs), with its rows in parameters; preparing them once per connection saves parsing
 * and planning a ~6 kB statement on every capture, about a quarter of its time on the database.
 */
function preparedName(text: string): string | undefined {
  let name = preparedNames.get(text);
  if (name === undefined && preparedNames.size < MAX_PREPARED) {
    name = `raw_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    preparedNames.set(text, name);
  }
  return name;
}

/**
 * One connection in pg's pipeline mode, opened on first use and again after it is lost. Its
 * statements are written as they come; PostgreSQL runs them one after the other, in that order,
 * each its own transaction (a Sync ends each), and a failed one does not stop those behind it. The
 * ingest sends a capture's statement as soon as the capture is diffed: with one statement at a time,
 * PostgreSQL waited between two captures for the previous answer to be read and the next statement
 * to be sent by a busy event loop (docs/ingest.md). Statements here must not depend on an answer
 * before them (the capture statements check the ingest counter themselves).
 */
function pipelinedQuery(connectionString: string): { query: RawQuery; end: () => Promise<void> } {
  let open: Promise<Client> | null = null;
  const connect = (): Promise<Client> => {
    const client = new Client({ connectionString, pipeline: true, options: '-c plan_cache_mode=force_generic_plan' });
    const opening = client.connect().then(() => client);
    // A lost connection fails the statements it carried (their callers see why); the next opens another.
    const forget = () => {
      if (open === opening) open = null;
    };
    client.on('error', forget);
    client.on('end', forget);
    opening.catch(forget);
    return opening;
  };
  return {
    query: async (text, params) => {
      const client = await (open ??= connect());
      return (await client.query({ name: preparedName(text), text, values: params as unknown[] })).rows;
    },
    end: async () => {
      const client = await open?.catch(() => null);
      open = null;
      await client?.end();
    },
  };
}

/** dataDir value for a throwaway in-memory PGlite store (tests, benchmarks). */
export const MEMORY = 'memory://';

/** An open database: the Prisma client plus what is needed to migrate and close it. */
export interface Database {
  readonly prisma: PrismaClient;
  readonly kind: 'pglite' | 'postgres';
  /** Where the data lives, for logs: the data directory or the server URL without password. */
  readonly location: string;
  readonly adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL server; when absent, the embedded PGlite store under dataDir is used. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** Recorded in the data directory lock so that a second process can name the holder. */
  command?: string;
  /** Apply pending migrations before returning (default true): a fresh store needs no preparation. */
  migrate?: boolean;
}

/**
 * True when `_prisma_migrations` already records every migration on disk with the same checksum:
 * the common case at start-up, answered by one query instead of loading the schema engine.
 */
async function migrationsUpToDate(prisma: PrismaClient): Promise<boolean> {
  const onDisk = readMigrations();
  try {
    const applied = await prisma.$queryRawUnsafe<Array<{ migration_name: string; checksum: string }>>(
      'SELECT migration_name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const byName = new Map(applied.map((m) => [m.migration_name, m.checksum]));
    return onDisk.every((m) => byName.get(m.name) === createHash('sha256').update(m.sql).digest('hex'));
  } catch {
    return false; // no bookkeeping table yet: a fresh store
  }
}

/** Written in the data directory once its store has been created and migrated completely. */
const READY_MARKER = 'pglite.ready';

/**
 * Opens the embedded store under `dir`. A store whose first set-up never completed (no READY_MARKER:
 * the process was killed while PGlite created its files) and that no longer opens holds no data: it
 * is moved aside, with a message, and created afresh instead of failing every command for good.
 */
async function openEmbeddedStore(dir: string): Promise<PGlite> {
  const files = path.join(dir, 'pglite');
  try {
    return await PGlite.create(files);
  } catch (error) {
    if (fs.existsSync(path.join(dir, READY_MARKER)) || !fs.existsSync(files)) throw error;
    const aside = `${files}.incomplete-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    fs.renameSync(files, aside);
    process.stderr.write(`embedded store ${files}: its first set-up was interrupted and it does not open (${(error as Error).message}); moved to ${aside} and created afresh\n`);
    return PGlite.create(files);
  }
}

/** Opens PGlite (default) or PostgreSQL (databaseUrl) and applies pending migrations. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  let adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  let closeStore: () => Promise<void>;
  let kind: Database['kind'];
  let location: string;
  let raw: RawQuery | undefined;
  let pipelined: RawQuery | undefined;
  if (options.databaseUrl) {
    adapterFactory = new PrismaPg({ connectionString: options.databaseUrl });
    // Two connections at most, opened on first use: only the ingesting process sends such statements
    // (the signals' writes, a capture written again after its memory was dropped). Capture statements
    // have a pipelined connection of their own (pipelinedQuery). Generic plans: the statements are
    // prepared (below) and every plan of theirs is the same, so planning each execution again (custom
    // plans) is pure cost.
    const pool = new Pool({ connectionString: options.databaseUrl, max: 2, options: '-c plan_cache_mode=force_generic_plan' });
    // A connection lost while idle (a database restart) is dropped by the pool, which opens another
    // for the next statement; unhandled, its 'error' event would end the process.
    pool.on('error', () => {});
    raw = async (text, params) => (await pool.query({ name: preparedName(text), text, values: params as unknown[] })).rows;
    const ordered = pipelinedQuery(options.databaseUrl);
    pipelined = ordered.query;
    closeStore = async () => {
      await ordered.end();
      await pool.end();
    };
    kind = 'postgres';
    location = redactUrl(options.databaseUrl);
  } else if (options.dataDir === MEMORY) {
    const pglite = await PGlite.create();
    adapterFactory = new PrismaPGlite(pglite);
    closeStore = () => pglite.close();
    kind = 'pglite';
    location = MEMORY;
  } else {
    const dir = path.resolve(options.dataDir);
    const release = lockDataDir(dir, options.command ?? process.argv.slice(1).join(' '));
    let pglite: PGlite;
    try {
      pglite = await openEmbeddedStore(dir);
    } catch (error) {
      release();
      throw error;
    }
    adapterFactory = new PrismaPGlite(pglite);
    closeStore = async () => {
      await pglite.close();
      release();
    };
    kind = 'pglite';
    location = dir;
  }
  const prisma = new PrismaClient({ adapter: adapterFactory });
  if (raw) rawPaths.set(prisma, raw);
  if (pipelined) pipelinedPaths.set(prisma, pipelined);
  try {
    if (options.migrate !== false && !(await migrationsUpToDate(prisma))) await applyMigrations(adapterFactory);
    const marker = path.join(location, READY_MARKER);
    if (kind === 'pglite' && location !== MEMORY && !fs.existsSync(marker)) fs.writeFileSync(marker, new Date().toISOString());
  } catch (error) {
    await prisma.$disconnect();
    await closeStore();
    throw error;
  }
  return {
    prisma,
    kind,
    location,
    adapterFactory,
    async close() {
      await prisma.$disconnect();
      await closeStore();
    },
  };
}
