#!/usr/bin/env node
// After `npm install` / `npm ci`: generate the Prisma client and compile src/ to dist/. Both tools are
// devDependencies, so a production install (`npm ci --omit=dev`) cannot run them: there, a tree
// that was built before (dist/ present, as in a Docker image's build stage) is used as it is.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
// npm says what it leaves out (`--omit=dev`, or NODE_ENV=production); the tools may still be present
// as peers of @prisma/client, but the sources to build (tsconfig, src/) need not be.
const production = (process.env.npm_config_omit ?? '').split(/[\s,]+/).includes('dev');

if (!production) {
  const npm = process.env.npm_execpath;
  const run = (script) =>
    npm ? execFileSync(process.execPath, [npm, 'run', '--silent', script], { cwd: root, stdio: 'inherit' }) : execFileSync('npm', ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
  run('generate:prisma');
  run('build');
} else if (fs.existsSync(path.join(root, 'dist', 'cli', 'index.js'))) {
  process.stdout.write('odds: production install: using the compiled dist/ (build tools are devDependencies)\n');
} else {
  process.stderr.write('odds: production install without a build: run `npm ci && npm run build` first (prisma and typescript are devDependencies), then `npm ci --omit=dev`\n');
  process.exit(1);
}
