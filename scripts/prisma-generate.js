#!/usr/bin/env node
// `prisma generate` offline: the CLI insists on a schema-engine binary path it never runs when only
// generating, and would otherwise try to download one. Any existing file satisfies the check.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const root = path.join(__dirname, '..');
execFileSync(process.execPath, [require.resolve('prisma/build/index.js'), 'generate', '--schema', 'prisma/schema.prisma'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? path.join(root, 'package.json'),
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  },
});
