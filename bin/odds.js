#!/usr/bin/env node
// The `odds` command. Runs the compiled CLI (npm install builds it; `npm run build` rebuilds it).
// `odds serve` first restarts itself with the V8 flags of its memory budgets (src/cli/v8-flags.ts).
require('../dist/cli/v8-flags.js').relaunchWithV8Flags();
require('../dist/cli/index.js').main(process.argv);
