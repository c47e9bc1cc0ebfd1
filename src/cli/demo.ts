import fs from 'node:fs';
import path from 'node:path';
import { REST_PREFIX } from '../app';
import { verifyApiKey } from '../auth/viewer';
import type { Config } from '../config';
import { MEMORY, type Database } from '../db/client';
import { createKey } from '../db/account-store';
import { createKeyLookup } from '../db/key-store';

/** Where the demo key is kept in the data directory (only its hash is in the store, like every key). */
const DEMO_KEY_FILE = 'demo-key';

/**
 * The key `odds serve --simulate` offers: an elite key created on a fresh data directory and kept in
 * it, so later starts show the same key; created again when the kept one no longer works (revoked,
 * its account downgraded or ended, the store replaced).
 */
export async function demoKey(db: Database, config: Config): Promise<{ key: string; file: string | undefined }> {
  const file = config.dataDir === MEMORY ? undefined : path.join(config.dataDir, DEMO_KEY_FILE);
  const kept = file && fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : undefined;
  if (kept) {
    try {
      const viewer = await verifyApiKey(createKeyLookup(db.prisma), kept);
      if (viewer.plan === 'elite') return { key: kept, file };
    } catch {
      // no longer a working key: a new one replaces it
    }
  }
  const created = await createKey(db.prisma, { plan: 'elite', name: 'demo' });
  if (file) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${created.key}\n`, { mode: 0o600 });
  }
  return { key: created.key, file };
}

/** The lines `odds serve --simulate` prints once it listens: the demo key and where to use it. */
export function demoBanner(port: number, host: string, demo: { key: string; file: string | undefined }): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const base = `http://${shown}:${port}`;
  return [
    'odds demo: simulated games and odds (not real prices)',
    `  demo key  ${demo.key}  (elite plan${demo.file ? `; kept in ${demo.file} and reused on later starts` : ''})`,
    `  API       ${base}${REST_PREFIX}/games  (header Authorization: Bearer <key>)`,
    `  docs      ${base}/docs`,
    `  board     ${base}/`,
    `  GraphQL   ${base}/graphql`,
    '',
  ].join('\n');
}
