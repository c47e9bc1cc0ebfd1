// Tests are TypeScript compiled by ts-jest without type checking (`npm run typecheck` does that once,
// faster than per file). Dynamic import() stays native (module node16) and jest runs with
// --experimental-vm-modules (see package.json), because PGlite and Prisma's schema engine load
// parts of themselves as ES modules.
const project = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: { module: 'node16', moduleResolution: 'node16', isolatedModules: true } }],
  },
  // Prisma's generated client imports siblings as './x.js' (ESM style) from .ts files.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 30000,
};

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    { ...project, displayName: 'test' },
    // Production parity (issue 20): the GraphQL, docs and HTTP tests run a second time under
    // NODE_ENV=production, as the Dockerfile sets it, so no library default that depends on it
    // (Apollo turns introspection off, graphql-js and Prisma change their errors) goes unseen.
    {
      ...project,
      displayName: 'production',
      testMatch: ['**/integration/graphql-api.test.ts', '**/integration/graphql-limits.test.ts', '**/integration/web-docs.test.ts', '**/integration/http-details.test.ts'],
      setupFiles: ['<rootDir>/test/support/production-env.ts'],
    },
  ],
  testTimeout: 30000,
  maxWorkers: 2,
  // How long a worker told to stop may take to end by itself before jest kills it and reports "A worker
  // process has failed to exit gracefully". Measured: a worker that ran an app test has nothing left
  // open (test/integration/clean-exit.test.ts checks it) and emits 'exit' within 10 ms of being told,
  // but Node then frees its heap, WASM modules and native memory (~300 MB): 80-160 ms of CPU, which on
  // 2 shared cores under load took 0.6-4 s of wall time, past jest's default of 500 ms. A worker held
  // by a leaked timer or socket never ends by itself, so it is still reported (after this delay).
  workerGracefulExitTimeout: 10000,
};
