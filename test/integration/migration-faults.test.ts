import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaPg } from '@prisma/adapter-pg';
import { applyMigrations } from '../../src/db/migrate';
import { MIGRATIONS_DIR, readMigrations } from '../../src/db/schema-engine';
import { describeWithPostgres, TEST_DATABASE_URL } from '../support/database';

// A kill -9 at any point of a migration leaves a store the next start repairs, and the schema ends
// complete (every index and foreign key): a half first migration is undone, a later one (which ran in
// one transaction, so nothing of it stayed) is marked rolled back; either is applied again. Simulated
// at every statement boundary of the first and as a killed later one (deterministic), and with real
// kills of `odds migrate`.

const BIN = path.resolve('bin/odds.js');
const first = readMigrations()[0]!;
const statements = first.sql.split(/;\s*\n/).map((s) => s.trim()).filter((s) => s && !/^--[^\n]*$/.test(s));
const BOOKKEEPING = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" ("id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ, "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`;
const SHAPE = `SELECT (SELECT count(*) FROM pg_indexes WHERE schemaname = 'public')::int AS indexes,
  (SELECT count(*) FROM pg_constraint WHERE contype = 'f')::int AS foreign_keys,
  (SELECT count(*) FROM _prisma_migrations WHERE finished_at IS NOT NULL)::int AS finished`;

/** What a process killed after `done` statements of the first migration leaves behind. */
function interruptedAt(done: number): string[] {
  return [BOOKKEEPING, `INSERT INTO "_prisma_migrations" (id, checksum, migration_name) VALUES ('${randomBytes(8).toString('hex')}', 'x', '${first.name}')`, ...statements.slice(0, done)];
}

test('when the first migration was interrupted at any statement (embedded store), then the next run undoes the half and completes it', async () => {
  const shapes = new Set<string>();
  const points = [0, 1, Math.floor(statements.length / 2), statements.length - 1, statements.length];
  for (const done of points) {
    const pglite = await PGlite.create();
    try {
      for (const sql of interruptedAt(done)) await pglite.exec(sql);
      const messages: string[] = [];
      expect(await applyMigrations(new PrismaPGlite(pglite), undefined, (m) => messages.push(m))).toEqual([first.name, ...readMigrations().slice(1).map((m) => m.name)]);
      expect(messages).toEqual([expect.stringMatching(/interrupted.*applied again/)]);
      shapes.add(JSON.stringify((await pglite.query(SHAPE)).rows[0]));
    } finally {
      await pglite.close();
    }
  }
  expect(shapes.size).toBe(1); // the same complete schema whatever the point
}, 120_000);

/** A migrations folder holding all but the last migration (a store an older release migrated). */
function allButLast(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'odds-migrations-'));
  for (const m of readMigrations().slice(0, -1)) {
    mkdirSync(path.join(dir, m.name));
    writeFileSync(path.join(dir, m.name, 'migration.sql'), m.sql);
  }
  copyFileSync(path.join(MIGRATIONS_DIR, 'migration_lock.toml'), path.join(dir, 'migration_lock.toml'));
  return dir;
}
const last = readMigrations().at(-1)!;
/** The row Prisma writes before it runs a migration's script, left unfinished by a kill. */
const startedRow = `INSERT INTO "_prisma_migrations" (id, checksum, migration_name) VALUES ('${randomBytes(8).toString('hex')}', 'x', '${last.name}')`;

test('when a later migration was interrupted (embedded store), then the next run rolls it back and applies it again', async () => {
  const pglite = await PGlite.create();
  const older = allButLast();
  try {
    await applyMigrations(new PrismaPGlite(pglite), older);
    await pglite.exec(startedRow);
    const messages: string[] = [];
    expect(await applyMigrations(new PrismaPGlite(pglite), undefined, (m) => messages.push(m))).toEqual([last.name]);
    expect(messages).toEqual([expect.stringMatching(new RegExp(`${last.name} was interrupted.*rolled back as a whole and is applied again`))]);
    expect((await pglite.query(SHAPE)).rows[0]).toMatchObject({ finished: readMigrations().length });
  } finally {
    await pglite.close();
    rmSync(older, { recursive: true, force: true });
  }
}, 120_000);

test('when a later migration was killed after its script committed (embedded store), then the next run records it as finished', async () => {
  const pglite = await PGlite.create();
  try {
    await applyMigrations(new PrismaPGlite(pglite));
    // Killed between the script's commit and Prisma's record of it.
    await pglite.exec(`UPDATE "_prisma_migrations" SET finished_at = NULL, applied_steps_count = 0 WHERE migration_name = '${last.name}'`);
    const messages: string[] = [];
    expect(await applyMigrations(new PrismaPGlite(pglite), undefined, (m) => messages.push(m))).toEqual([]);
    expect(messages).toEqual([expect.stringMatching(new RegExp(`${last.name} was interrupted after its script was applied.*recorded as finished`))]);
    expect((await pglite.query(SHAPE)).rows[0]).toMatchObject({ finished: readMigrations().length });
  } finally {
    await pglite.close();
  }
}, 120_000);

describeWithPostgres('on PostgreSQL', () => {
  async function withScratchDatabase(use: (url: string, admin: Client) => Promise<void>): Promise<void> {
    const name = `odds_fault_${randomBytes(6).toString('hex')}`;
    const admin = new Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    try {
      await use(url.toString(), admin);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
  const shapeOf = async (url: string) => {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(SHAPE)).rows[0];
    } finally {
      await client.end();
    }
  };
  const migrate = (url: string) => spawnSync(process.execPath, [BIN, 'migrate'], { env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent' }, encoding: 'utf8' });

  test('when the first migration was interrupted at any statement, then `odds migrate` repairs it, says so, and the schema is complete', async () => {
    let complete: unknown;
    await withScratchDatabase(async (url) => {
      expect(migrate(url).status).toBe(0);
      complete = await shapeOf(url);
    });
    for (const done of [0, Math.floor(statements.length / 2)]) {
      await withScratchDatabase(async (url) => {
        const client = new Client({ connectionString: url });
        await client.connect();
        for (const sql of interruptedAt(done)) await client.query(sql);
        await client.end();
        const run = migrate(url);
        expect({ done, status: run.status }).toEqual({ done, status: 0 });
        expect(run.stderr).toMatch(/interrupted before it finished/);
        expect(await shapeOf(url)).toEqual(complete);
      });
    }
  }, 180_000);

  test('when a later migration was interrupted, then `odds migrate` rolls it back, says so, and the schema is complete', async () => {
    let complete: unknown;
    await withScratchDatabase(async (url) => {
      expect(migrate(url).status).toBe(0);
      complete = await shapeOf(url);
    });
    await withScratchDatabase(async (url) => {
      const older = allButLast();
      try {
        const adapter = new PrismaPg({ connectionString: url });
        await applyMigrations(adapter, older);
      } finally {
        rmSync(older, { recursive: true, force: true });
      }
      const client = new Client({ connectionString: url });
      await client.connect();
      await client.query(startedRow);
      await client.end();
      const run = migrate(url);
      expect(run.status).toBe(0);
      expect(run.stderr).toMatch(/rolled back as a whole and is applied again/);
      expect(await shapeOf(url)).toEqual(complete);
    });
    // Killed between the script's commit and Prisma's record of it.
    await withScratchDatabase(async (url) => {
      expect(migrate(url).status).toBe(0);
      const client = new Client({ connectionString: url });
      await client.connect();
      await client.query(`UPDATE "_prisma_migrations" SET finished_at = NULL, applied_steps_count = 0 WHERE migration_name = '${last.name}'`);
      await client.end();
      const run = migrate(url);
      expect(run.status).toBe(0);
      expect(run.stderr).toMatch(/interrupted after its script was applied.*recorded as finished/);
      expect(await shapeOf(url)).toEqual(complete);
    });
  }, 120_000);

  test('when a migration fails half-way, then nothing of it stays (each script runs in one transaction), and the next run refuses it again', async () => {
    await withScratchDatabase(async (url) => {
      const dir = allButLast();
      const repairs: string[] = [];
      try {
        mkdirSync(path.join(dir, last.name));
        writeFileSync(path.join(dir, last.name, 'migration.sql'), 'CREATE TABLE "HalfDone" ("id" INTEGER NOT NULL);\n\nSELECT 1 / 0;\n');
        await expect(applyMigrations(new PrismaPg({ connectionString: url }), dir)).rejects.toThrow(/division by zero/);
        // A failure is not a kill: the next run does not take the script for applied, nor retry it silently.
        await expect(applyMigrations(new PrismaPg({ connectionString: url }), dir, (m) => repairs.push(m))).rejects.toThrow(/failed migrations/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      expect(repairs).toEqual([]);
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        expect((await client.query(`SELECT to_regclass('"HalfDone"') IS NULL AS gone`)).rows[0]).toEqual({ gone: true });
        expect((await client.query(`SELECT finished_at FROM _prisma_migrations WHERE migration_name = $1`, [last.name])).rows).toEqual([{ finished_at: null }]);
      } finally {
        await client.end();
      }
    });
  }, 120_000);

  test('when `odds migrate` is killed -9 while it migrates, then the next run ends with the complete schema', async () => {
    let complete: unknown;
    await withScratchDatabase(async (url) => {
      expect(migrate(url).status).toBe(0);
      complete = await shapeOf(url);
    });
    // Killed during the first migration, or a later one (the first is the largest: 60 ms in, sometimes later).
    for (const afterStartMs of [0, 60, 150, 300]) {
      await withScratchDatabase(async (url, admin) => {
        const child = spawn(process.execPath, [BIN, 'migrate'], { env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent' }, stdio: 'ignore' });
        const exited = new Promise((resolve) => child.once('exit', resolve));
        // Kill once the migration has begun (its bookkeeping table exists), or when it ends first.
        const db = new URL(url).pathname.slice(1);
        for (let i = 0; i < 600 && child.exitCode === null; i++) {
          const { rows } = await admin.query(`SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND query ILIKE '%_prisma_migrations%'`, [db]);
          if (rows.length) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        await new Promise((resolve) => setTimeout(resolve, afterStartMs));
        child.kill('SIGKILL');
        await exited;
        const next = migrate(url);
        if (next.status !== 0) throw new Error(`killed ${afterStartMs} ms after the migration began, the next odds migrate exited ${next.status}: ${next.stderr}`);
        expect(await shapeOf(url)).toEqual(complete);
      });
    }
  }, 240_000);
});

test('when `odds migrate` is killed -9 while it creates a fresh embedded store, then the next run opens or recreates it', async () => {
  for (const killAfterMs of [300, 1200]) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'odds-kill-'));
    try {
      const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };
      const child = spawn(process.execPath, [BIN, 'migrate'], { env, stdio: 'ignore' });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await new Promise((resolve) => setTimeout(resolve, killAfterMs));
      child.kill('SIGKILL');
      await exited;
      const again = spawnSync(process.execPath, [BIN, 'migrate'], { env, encoding: 'utf8' });
      expect({ killAfterMs, status: again.status, stderr: again.status ? again.stderr : '' }).toEqual({ killAfterMs, status: 0, stderr: '' });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}, 240_000);
