#!/usr/bin/env node
// After `npm install` / `npm ci`: generate the Prisma client and compile src/ to dist/. Both tools are
// devDependencies, so a production install (`npm ci --omit=dev`) cannot run them: there, a tree
// that was built before (dist/ present, as in a Docker image's build stage) is used as it is.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
// npm leaves devDependencies out when told (`--omit=dev`, which it passes on as npm_config_omit) and,
// unless told to include them (`--include=dev`), when NODE_ENV=production, which it does not pass on.
// The tools may still be present as peers of @prisma/client, but not the types the build needs.
const listed = (name) => (process.env[name] ?? '').split(/[\s,]+/).includes('dev');
const omittedByNodeEnv = process.env.NODE_ENV === 'production' && !listed('npm_config_omit');
const production = !listed('npm_config_include') && (listed('npm_config_omit') || omittedByNodeEnv);

if (!production) {
  const npm = process.env.npm_execpath;
  const run = (script) =>
    npm ? execFileSync(process.execPath, [npm, 'run', '--silent', script], { cwd: root, stdio: 'inherit' }) : execFileSync('npm', ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
  run('generate:prisma');
  run('build');
} else if (fs.existsSync(path.join(root, 'dist', 'cli', 'index.js'))) {
  process.stdout.write('odds: production install: using the compiled dist/ (build tools are devDependencies)\n');
} else if (omittedByNodeEnv) {
  process.stderr.write('odds: NODE_ENV=production makes npm leave out the build tools (devDependencies), and this checkout is not built yet: run `npm install --include=dev` (then `npm start`)\n');
  process.exit(1);
} else {
  process.stderr.write('odds: production install without a build: run `npm ci && npm run build` first (prisma and typescript are devDependencies), then `npm ci --omit=dev`\n');
  process.exit(1);
}
