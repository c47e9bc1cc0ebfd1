// Tests are TypeScript compiled by ts-jest without type checking (`npm run typecheck` does that once,
// faster than per file). Dynamic import() stays native (module node16) and jest runs with
// --experimental-vm-modules (see package.json), because PGlite and Prisma's schema engine load
// parts of themselves as ES modules.
/** @type {import('jest').Config} */
module.exports = {
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
  maxWorkers: 2,
};
