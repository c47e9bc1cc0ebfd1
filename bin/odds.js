#!/usr/bin/env node
// The `odds` command. Runs the compiled CLI (npm install builds it; `npm run build` rebuilds it).
require('../dist/cli/index.js').main(process.argv);
