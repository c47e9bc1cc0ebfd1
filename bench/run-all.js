#!/usr/bin/env node
// Runs every benchmark in bench/ one after another (they compete for the same cores otherwise).
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
for (const file of fs.readdirSync(__dirname).filter((f) => f.endsWith('.js') && f !== 'run-all.js').sort()) {
  console.log(`\n# ${file}`);
  execFileSync(process.execPath, [path.join(__dirname, file)], { stdio: 'inherit' });
}
