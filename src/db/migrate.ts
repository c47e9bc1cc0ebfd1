import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { MIGRATIONS_DIR, migrationList, openSchemaEngine, readSchema } from './schema-engine';

/**
 * Applies the migrations of prisma/migrations that the database has not seen, recording them in
 * `_prisma_migrations` exactly as `prisma migrate deploy` does (so either tool can take over).
 * Returns the names applied now.
 */
export async function applyMigrations(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  dir = MIGRATIONS_DIR,
): Promise<string[]> {
  const engine = await openSchemaEngine(readSchema(), adapterFactory);
  try {
    const { appliedMigrationNames } = await engine.applyMigrations({
      migrationsList: migrationList(dir),
      filters: { externalTables: [], externalEnums: [] },
    });
    return appliedMigrationNames;
  } finally {
    engine.free();
  }
}
