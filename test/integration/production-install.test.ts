import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// `npm ci --omit=dev` runs the postinstall script without the build tools (prisma, typescript are
// devDependencies): on a built tree it keeps dist/ and succeeds; without a build it says what to do.

const ROOT = path.resolve(__dirname, '..', '..');

function postinstallIn(entries: string[]) {
  const dir = mkdtempSync(path.join(tmpdir(), 'odds-prod-'));
  try {
    for (const entry of entries) cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
    // As npm runs it for `npm ci --omit=dev`.
    return spawnSync(process.execPath, ['scripts/postinstall.js'], { cwd: dir, encoding: 'utf8', env: { ...process.env, npm_config_omit: 'dev' } });
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
