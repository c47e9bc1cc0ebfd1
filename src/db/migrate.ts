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
  const connections = trackConnections(adapterFactory);
  const engine = await openSchemaEngine(readSchema(), connections.factory);
  try {
    const { appliedMigrationNames } = await engine.applyMigrations({
      migrationsList: migrationList(dir),
      filters: { externalTables: [], externalEnums: [] },
    });
    return appliedMigrationNames;
  } finally {
    engine.free();
    await connections.dispose();
  }
}

/**
 * The factory as the schema engine sees it, remembering every connection it opens. Freeing the
 * engine does not dispose them: with PostgreSQL each is a pg Pool whose idle socket kept the process
 * (a test worker, a CLI command) alive for another 10 s after the database was closed.
 */
function trackConnections(factory: SqlMigrationAwareDriverAdapterFactory) {
  const opened: Array<{ dispose(): Promise<void> }> = [];
  const track = <T extends { dispose(): Promise<void> }>(adapter: T): T => {
    opened.push(adapter);
    return adapter;
  };
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => track(await factory.connect()),
    connectToShadowDb: async () => track(await factory.connectToShadowDb()),
  };
  return {
    factory: tracked,
    dispose: async () => {
      await Promise.allSettled(opened.splice(0).map((adapter) => adapter.dispose()));
    },
  };
}
