import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// `npm ci --omit=dev`, and `npm install` with NODE_ENV=production, run the postinstall script without
// the build tools (prisma, typescript and the type packages are devDependencies): on a built tree it
// keeps dist/ and succeeds; without a build it says what to do.

const ROOT = path.resolve(__dirname, '..', '..');

/** postinstall in a copy of `entries`, with the environment npm gives it (`--omit=dev` unless told otherwise). */
function postinstallIn(entries: string[], npmEnv: Record<string, string> = { npm_config_omit: 'dev' }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'odds-prod-'));
  try {
    for (const entry of entries) cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
    const env = { ...process.env };
    for (const name of ['npm_config_omit', 'npm_config_include', 'NODE_ENV']) delete env[name];
    return spawnSync(process.execPath, ['scripts/postinstall.js'], { cwd: dir, encoding: 'utf8', env: { ...env, ...npmEnv } });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('when a built tree is installed without dev dependencies, then postinstall keeps dist/ and succeeds', () => {
  const run = postinstallIn(['package.json', 'scripts', 'dist']);
  expect(run.status).toBe(0);
  expect(run.stdout).toContain('using the compiled dist/');
});

test('when an unbuilt tree is installed without dev dependencies, then postinstall fails saying how to build first', () => {
  const run = postinstallIn(['package.json', 'scripts']);
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(/npm ci && npm run build/);
});

// npm leaves devDependencies out under NODE_ENV=production without saying so to the script (no npm_config_omit).
test('when an unbuilt tree is installed with NODE_ENV=production, then postinstall fails saying to include the build tools', () => {
  const run = postinstallIn(['package.json', 'scripts'], { NODE_ENV: 'production' });
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(/NODE_ENV=production.*npm install --include=dev/);
});

test('when a built tree is installed with NODE_ENV=production, then postinstall keeps dist/ and succeeds', () => {
  const run = postinstallIn(['package.json', 'scripts', 'dist'], { NODE_ENV: 'production' });
  expect(run.status).toBe(0);
  expect(run.stdout).toContain('using the compiled dist/');
});
