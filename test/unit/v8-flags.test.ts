import { MALLOC_ARENAS, relaunchEnv, SEMI_SPACE_MB, v8FlagsFor } from '../../src/cli/v8-flags';

// Which V8 flags `odds` restarts itself with (docs/operations.md, "Memory"); the restart itself is
// checked on the real command in test/integration/cli.test.ts.
const base = { execArgv: [], nodeOptions: undefined, databaseUrl: undefined };
const semiSpace = `--max-semi-space-size=${SEMI_SPACE_MB}`;
const embedded = ['--liftoff-only', '--optimize-for-size'];

test.each([
  ['serve on the embedded store', [semiSpace, ...embedded], { ...base, args: ['serve'] }],
  ['the demo (serve --simulate)', [semiSpace, ...embedded], { ...base, args: ['serve', '--simulate'] }],
  ['an empty DATABASE_URL (the embedded store, as config reads it)', [semiSpace, ...embedded], { ...base, args: ['serve'], databaseUrl: '' }],
  ['serve on PostgreSQL', [semiSpace], { ...base, args: ['serve'], databaseUrl: 'postgresql://db/odds' }],
  ['ingest', [], { ...base, args: ['ingest', 'feed.jsonl'] }],
  ['keys', [], { ...base, args: ['keys', 'list'] }],
  ['no command (help)', [], { ...base, args: [] }],
  ['a semi-space given on the command line', embedded, { ...base, args: ['serve'], execArgv: ['--max-semi-space-size=8'] }],
  ['a semi-space given in NODE_OPTIONS, spelled with underscores', embedded, { ...base, args: ['serve'], nodeOptions: '--experimental-vm-modules --max_semi_space_size=4' }],
  ['--no-liftoff-only given', [semiSpace, '--optimize-for-size'], { ...base, args: ['serve'], execArgv: ['--no-liftoff-only'] }],
  ['--no-optimize-for-size given', [semiSpace, '--liftoff-only'], { ...base, args: ['serve'], execArgv: ['--no-optimize-for-size'] }],
  ['all already given (the restarted process)', [], { ...base, args: ['serve'], execArgv: [semiSpace, ...embedded] }],
])('when the command is %s, then the flags added are %j', (_name, flags, context) => {
  expect(v8FlagsFor(context)).toEqual(flags);
});

test('when serve restarts, then glibc gets MALLOC_ARENAS malloc arenas unless MALLOC_ARENA_MAX is set', () => {
  expect(relaunchEnv({ PATH: '/bin' })).toEqual({ PATH: '/bin', MALLOC_ARENA_MAX: String(MALLOC_ARENAS) });
  expect(relaunchEnv({ PATH: '/bin', MALLOC_ARENA_MAX: '8' })).toEqual({ PATH: '/bin', MALLOC_ARENA_MAX: '8' });
});
