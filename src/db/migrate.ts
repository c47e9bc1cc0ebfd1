import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory, SqlQueryable, Transaction } from '@prisma/driver-adapter-utils';
import { MIGRATIONS_DIR, migrationList, openSchemaEngine, readMigrations, readSchema, type MigrationFolder } from './schema-engine';

/** The advisory lock Prisma's schema engine holds while it applies migrations. */
const PRISMA_MIGRATE_LOCK = 72707369;

/**
 * Applies the migrations of prisma/migrations that the database has not seen, recording them in
 * `_prisma_migrations` exactly as `prisma migrate deploy` does (so either tool can take over).
 * Each migration's script runs in one transaction (atomicScripts), and a migration that a killed
 * process left unfinished is repaired first (repairInterruptedMigrations). Returns the names applied now.
 */
export async function applyMigrations(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  dir = MIGRATIONS_DIR,
  onRepair: (message: string) => void = (message) => process.stderr.write(`${message}\n`),
): Promise<string[]> {
  for (const message of await repairInterruptedMigrations(adapterFactory, readMigrations(dir))) onRepair(message);
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
 * A kill -9 during a migration leaves it recorded as started but unfinished: Prisma then refuses
 * every later run ("found failed migrations") and the store is unusable for good. Repaired here, in
 * one transaction under Prisma's migrate lock (so never a migration another process is applying
 * right now):
 * - the first migration, when nothing else was ever applied: what it creates is dropped and its row
 *   forgotten (a store an older version, whose scripts were not atomic, was killed while creating);
 * - any other: its script ran in one transaction (atomicScripts; PGlite runs a script as one
 *   statement string, which PostgreSQL runs as one transaction), so it is all there or not at all. Not
 *   there (its script still applies: `applies`), it is marked rolled back, as `prisma migrate resolve
 *   --rolled-back` would, and applied again; there (the kill came between the script's commit and
 *   Prisma's record of it), it is recorded as finished.
 * @returns a message per repaired migration (none when there was nothing to repair).
 */
async function repairInterruptedMigrations(adapterFactory: SqlMigrationAwareDriverAdapterFactory, migrations: readonly MigrationFolder[]): Promise<string[]> {
  const first = migrations[0];
  if (!first) return [];
  const adapter = await adapterFactory.connect();
  try {
    const [[exists]] = (await query(adapter, "SELECT to_regclass('_prisma_migrations') IS NOT NULL")) as [[unknown]];
    if (!truthy(exists)) return [];
    const tx = await adapter.startTransaction();
    try {
      const [[locked]] = (await query(tx, `SELECT pg_try_advisory_xact_lock(${PRISMA_MIGRATE_LOCK})`)) as [[unknown]];
      const rows = locked ? await query(tx, 'SELECT id, migration_name, finished_at IS NOT NULL, rolled_back_at IS NOT NULL, logs IS NOT NULL FROM _prisma_migrations') : [];
      const live = rows.filter((r) => !truthy(r[3]));
      // A migration whose script failed (Prisma recorded the error in `logs`) was not interrupted: it
      // is left for Prisma to refuse with that error. Taken for a kill, a script that cannot apply
      // (a unique index over duplicate rows, say) would be recorded as finished without its change.
      const unfinished = live.filter((r) => !truthy(r[2]) && !truthy(r[4]));
      const messages: string[] = [];
      if (unfinished.length && live.every((r) => r[1] === first.name)) {
        const created = (kind: 'TABLE' | 'TYPE') => [...first.sql.matchAll(new RegExp(`CREATE ${kind} "([^"]+)"`, 'g'))].map((m) => `"${m[1]}"`);
        for (const table of created('TABLE')) await execute(tx, `DROP TABLE IF EXISTS ${table} CASCADE`);
        for (const type of created('TYPE')) await execute(tx, `DROP TYPE IF EXISTS ${type} CASCADE`);
        await execute(tx, `DELETE FROM _prisma_migrations WHERE migration_name = ${literal(first.name)}`);
        messages.push(`migration ${first.name} was interrupted before it finished (process killed?): its partial tables were dropped and it is applied again`);
      } else {
        for (const [id, name] of unfinished) {
          const sql = migrations.find((m) => m.name === name)?.sql;
          if (sql !== undefined && !(await applies(tx, sql))) {
            // The kill came after the script's commit, before Prisma recorded it: it is done.
            await execute(tx, `UPDATE _prisma_migrations SET finished_at = now(), applied_steps_count = 1 WHERE id = ${literal(String(id))}`);
            messages.push(`migration ${String(name)} was interrupted after its script was applied (process killed?): it is recorded as finished`);
            continue;
          }
          await execute(tx, `UPDATE _prisma_migrations SET rolled_back_at = now() WHERE id = ${literal(String(id))}`);
          messages.push(`migration ${String(name)} was interrupted before it finished (process killed?): it was rolled back as a whole and is applied again`);
        }
      }
      await finish(tx, messages.length ? 'COMMIT' : 'ROLLBACK');
      return messages;
    } catch (error) {
      await finish(tx, 'ROLLBACK').catch(() => {});
      throw error;
    }
  } finally {
    await adapter.dispose();
  }
}

const execute = (db: SqlQueryable, sql: string) => db.executeRaw({ sql, args: [], argTypes: [] });

/** A migration's statements, split on `;` as the pg adapter splits a script (prisma/migrations hold no `;` inside a statement). */
const statementsOf = (script: string) => script.split(';').map((s) => s.trim()).filter(Boolean);

/**
 * Whether `script` applies to the database as it is, tried inside `tx` and undone (a savepoint): a
 * killed migration's script ran in one transaction, so it is either all there (it no longer applies:
 * its tables, columns or indexes exist) or not there at all.
 */
async function applies(tx: Transaction, script: string): Promise<boolean> {
  await execute(tx, 'SAVEPOINT probe');
  try {
    for (const statement of statementsOf(script)) await execute(tx, statement);
    return true;
  } catch {
    return false;
  } finally {
    await execute(tx, 'ROLLBACK TO SAVEPOINT probe');
  }
}
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * `adapter` with each script (a migration's SQL) run in one transaction on one connection. The pg
 * adapter runs a script's statements one by one on its pool, each committed alone: a kill between
 * two left half a migration in the database, which no later run could apply again. Split on `;` as
 * that adapter splits it (prisma/migrations hold no `;` inside a statement). The PGlite adapter runs a
 * script as one statement string, which PostgreSQL already runs as one transaction.
 */
function atomicScripts<T extends SqlDriverAdapter>(adapter: T): T {
  if (adapter.adapterName !== '@prisma/adapter-pg') return adapter;
  adapter.executeScript = async (script: string) => {
    const tx = await adapter.startTransaction();
    try {
      for (const statement of statementsOf(script)) await execute(tx, statement);
      await finish(tx, 'COMMIT');
    } catch (error) {
      await finish(tx, 'ROLLBACK').catch(() => {});
      throw error;
    }
  };
  return adapter;
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
    connect: async () => track(atomicScripts(await factory.connect())),
    connectToShadowDb: async () => track(atomicScripts(await factory.connectToShadowDb())),
  };
  return {
    factory: tracked,
    dispose: async () => {
      await Promise.allSettled(opened.splice(0).map((adapter) => adapter.dispose()));
    },
  };
}
