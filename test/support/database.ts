import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { MEMORY, openDatabase, type Database } from '../../src/db/client';

/** PostgreSQL server for tests, when set (CI sets it); otherwise tests use in-memory PGlite. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

/**
 * A migrated throwaway database: a fresh database on the TEST_DATABASE_URL server (dropped on
 * close), or an in-memory PGlite store. `kind` forces one of them.
 */
export async function openTestDatabase(kind: 'auto' | 'pglite' | 'postgres' = 'auto'): Promise<Database & { url?: string }> {
  const usePostgres = kind === 'postgres' || (kind === 'auto' && TEST_DATABASE_URL);
  if (!usePostgres) return openDatabase({ dataDir: MEMORY });
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `odds_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const db = await openDatabase({ dataDir: MEMORY, databaseUrl: url.toString() });
  return {
    ...db,
    /** The database's own URL (for child processes such as the CLI). */
    url: url.toString(),
    async close() {
      await db.close();
      const cleanup = new Client({ connectionString: TEST_DATABASE_URL });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/** `describe` when a PostgreSQL server is configured, otherwise a skip that says why. */
export const describeWithPostgres = TEST_DATABASE_URL ? describe : describe.skip;
export const describeWithRedis = TEST_REDIS_URL ? describe : describe.skip;

