import type { SqlMigrationAwareDriverAdapterFactory, SqlQueryable, Transaction } from '@prisma/driver-adapter-utils';
import { MIGRATIONS_DIR, migrationList, openSchemaEngine, readMigrations, readSchema, type MigrationFolder } from './schema-engine';

/** The advisory lock Prisma's schema engine holds while it applies migrations. */
const PRISMA_MIGRATE_LOCK = 72707369;

/**
 * Applies the migrations of prisma/migrations that the database has not seen, recording them in
 * `_prisma_migrations` exactly as `prisma migrate deploy` does (so either tool can take over).
 * A first migration that a killed process left half-done is undone first (see
 * repairInterruptedFirstMigration). Returns the names applied now.
 */
export async function applyMigrations(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  dir = MIGRATIONS_DIR,
  onRepair: (message: string) => void = (message) => process.stderr.write(`${message}\n`),
): Promise<string[]> {
  const repaired = await repairInterruptedFirstMigration(adapterFactory, readMigrations(dir)[0]);
  if (repaired) onRepair(`migration ${repaired} was interrupted before it finished (process killed?): its partial tables were dropped and it is applied again`);
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

const query = async (db: SqlQueryable, sql: string) => (await db.queryRaw({ sql, args: [], argTypes: [] })).rows;
const truthy = (value: unknown) => value === true || value === 't' || value === 1;

/** Ends a driver-adapter transaction: adapters without "phantom" queries expect the SQL from us. */
async function finish(tx: Transaction, how: 'COMMIT' | 'ROLLBACK'): Promise<void> {
  if (!tx.options.usePhantomQuery) await tx.executeRaw({ sql: how, args: [], argTypes: [] });
  await (how === 'COMMIT' ? tx.commit() : tx.rollback());
}

/**
 * A kill during the first migration leaves it recorded as started but unfinished, with some of its
 * tables created: Prisma then refuses every later run ("found failed migrations") and the store is
 * unusable for good. When nothing else was ever applied, the store holds nothing but that half, so
 * undoing it is safe: drop what the first migration creates, forget its row, apply it again. Runs
 * in one transaction under Prisma's migrate lock, so it never touches a migration another process
 * is applying right now.
 * @returns the repaired migration's name, or undefined when there was nothing to repair.
 */
async function repairInterruptedFirstMigration(adapterFactory: SqlMigrationAwareDriverAdapterFactory, first: MigrationFolder | undefined): Promise<string | undefined> {
  if (!first) return undefined;
  const adapter = await adapterFactory.connect();
  try {
    const [[exists]] = (await query(adapter, "SELECT to_regclass('_prisma_migrations') IS NOT NULL")) as [[unknown]];
    if (!truthy(exists)) return undefined;
    const tx = await adapter.startTransaction();
    try {
      const [[locked]] = (await query(tx, `SELECT pg_try_advisory_xact_lock(${PRISMA_MIGRATE_LOCK})`)) as [[unknown]];
      const rows = locked ? await query(tx, 'SELECT migration_name, finished_at IS NOT NULL, rolled_back_at IS NOT NULL FROM _prisma_migrations') : [];
      const live = rows.filter((r) => !truthy(r[2]));
      const interrupted = live.length > 0 && live.every((r) => r[0] === first.name && !truthy(r[1]));
      if (!interrupted) {
        await finish(tx, 'ROLLBACK');
        return undefined;
      }
      const created = (kind: 'TABLE' | 'TYPE') => [...first.sql.matchAll(new RegExp(`CREATE ${kind} "([^"]+)"`, 'g'))].map((m) => `"${m[1]}"`);
      for (const table of created('TABLE')) await tx.executeRaw({ sql: `DROP TABLE IF EXISTS ${table} CASCADE`, args: [], argTypes: [] });
      for (const type of created('TYPE')) await tx.executeRaw({ sql: `DROP TYPE IF EXISTS ${type} CASCADE`, args: [], argTypes: [] });
      await tx.executeRaw({ sql: `DELETE FROM _prisma_migrations WHERE migration_name = '${first.name.replaceAll("'", "''")}'`, args: [], argTypes: [] });
      await finish(tx, 'COMMIT');
      return first.name;
    } catch (error) {
      await finish(tx, 'ROLLBACK').catch(() => {});
      throw error;
    }
  } finally {
    await adapter.dispose();
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
