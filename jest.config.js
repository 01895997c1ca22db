/** Jest: @swc/jest transforms TypeScript (and ESM-only deps such as jose) to CommonJS. */

/**
 * Unit tests: no Postgres, Redis or child process (in-process code only), so `npm run test:unit` runs in
 * seconds. Every other test file is an integration test. A new pure test file joins this list.
 */
const UNIT = [
  '**/packages/contracts/test/**/*.test.ts',
  '**/packages/engine/test/**/*.test.ts',
  '**/packages/db/test/compressed.test.ts',
  '**/services/worker/test/{slice-writer,roster-elements,schedule-completion}.test.ts',
  '**/packages/roster-generator/test/**/*.test.ts',
  '**/packages/suppliers/test/pacing.test.ts',
  '**/services/api/test/known-airline.test.ts',
  '**/services/supplier-sandbox/test/{faults,flights,inventory,reservations}.test.ts',
  '**/test/{lockfile,manifests}.test.ts',
];

/** What every project shares. */
const shared = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/test'],
  // Outage tests restart shared services (Postgres): jest.outage.config.js runs them alone, after this run.
  testPathIgnorePatterns: ['/node_modules/', '\\.outage\\.test\\.ts$'],
  transform: {
    '^.+\\.(t|j|mj)s$': [
      '@swc/jest',
      { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(jose)/)'],
};

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    { ...shared, displayName: 'unit', testMatch: UNIT },
    { ...shared, displayName: 'integration', testMatch: ['**/test/**/*.test.ts', ...UNIT.map((glob) => `!${glob}`)] },
  ],
  maxWorkers: 2,
  // A global option: a project's own testTimeout is not applied.
  testTimeout: 60000,
};
