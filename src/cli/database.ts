import { loadConfig, type Config } from '../config';
import { openDatabase, type Database } from '../db/client';
import { seedReferenceData } from '../ingest/seed';

/**
 * Opens the configured store for a command: created, migrated and seeded on first use, so a fresh
 * data directory needs no preparation step.
 */
export async function withDatabase<T>(command: string, run: (db: Database, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, command });
  try {
    await seedReferenceData(db.prisma);
    return await run(db, config);
  } finally {
    await db.close();
  }
}
