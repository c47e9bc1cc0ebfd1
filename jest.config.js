// Tests are TypeScript compiled by ts-jest without type checking (`npm run typecheck` does that once,
// faster than per file). CommonJS output so that Prisma's generated `import()` calls become require().
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: { module: 'commonjs', moduleResolution: 'node10', allowJs: true } }],
    // Prisma's schema engine ships as an ES module; compile it to CommonJS for jest's module system.
    '/node_modules/@prisma/schema-engine-wasm/.+\\.js$': ['ts-jest', { isolatedModules: true, tsconfig: { module: 'commonjs', allowJs: true } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!@prisma/schema-engine-wasm/)'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 30000,
  maxWorkers: 2,
};
