import { createHash } from 'node:crypto';
import { applyMigrations } from '../../src/db/migrate';
import { readMigrations } from '../../src/db/schema-engine';
import { openTestDatabase, describeWithPostgres } from '../support/database';

async function checkBookkeeping(kind: 'pglite' | 'postgres') {
  const db = await openTestDatabase(kind);
  try {
    const rows = await db.prisma.$queryRawUnsafe<Array<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>>(
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name',
    );
    const onDisk = readMigrations();
    expect(onDisk.length).toBeGreaterThan(0);
    // The same bookkeeping `prisma migrate deploy` keeps: one finished row per folder, checksum = sha256 of the SQL.
    expect(rows.map((r) => r.migration_name)).toEqual(onDisk.map((m) => m.name));
    for (const [i, m] of onDisk.entries()) {
      expect(rows[i]!.checksum).toBe(createHash('sha256').update(m.sql).digest('hex'));
      expect(rows[i]!.finished_at).not.toBeNull();
    }
    expect(await applyMigrations(db.adapterFactory)).toEqual([]);
    // Every model's table exists.
    for (const table of ['League', 'Team', 'Game', 'Boxscore', 'Sportsbook', 'Quote', 'OddsHistory', 'PublicBetting', 'Account', 'ApiKey']) {
      const [row] = await db.prisma.$queryRawUnsafe<Array<{ exists: boolean }>>(`SELECT to_regclass('public."${table}"') IS NOT NULL AS exists`);
      expect([table, row?.exists]).toEqual([table, true]);
    }
  } finally {
    await db.close();
  }
}

test('when a fresh PGlite store opens, then every migration is applied and recorded as prisma migrate deploy records it, and a second run applies nothing', async () => {
  await checkBookkeeping('pglite');
}, 60_000);

describeWithPostgres('on PostgreSQL', () => {
  test('when a fresh PostgreSQL database opens, then every migration is applied and recorded, and a second run applies nothing', async () => {
    await checkBookkeeping('postgres');
  });
});

// On PostgreSQL a migration's script is split on `;` to run in one transaction (src/db/migrate.ts): a
// `;` inside a comment cuts a statement in two and the migration fails with a syntax error.
test('when the migrations are read, then no comment of theirs holds a `;`', () => {
  const commentsWithSemicolon = readMigrations().flatMap((m) =>
    m.sql
      .split('\n')
      .filter((line) => /--[^\n]*;/.test(line))
      .map((line) => `${m.name}: ${line.trim()}`),
  );
  expect(commentsWithSemicolon).toEqual([]);
});
