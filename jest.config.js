/** Jest: @swc/jest transforms TypeScript (and ESM-only deps such as jose) to CommonJS. */

/**
 * Unit tests are the files named `*.unit.test.ts`: no Postgres, Redis or child process (in-process code only), so
 * `npm run test:unit` runs in seconds. Every other `*.test.ts` under a `test/` folder is an integration test.
 */
const UNIT = '**/*.unit.test.ts';

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
    { ...shared, displayName: 'unit', testMatch: [UNIT] },
    { ...shared, displayName: 'integration', testMatch: ['**/test/**/*.test.ts', `!${UNIT}`] },
  ],
  maxWorkers: 2,
  // A worker told to end exits once its process is torn down: measured, 50 ms after a short run on a quiet
  // machine, 330 ms after a full run with one of the two cores kept busy by another process. Jest's default budget of 500 ms
  // before "A worker process has failed to exit gracefully" left no margin on a loaded CI machine. Nothing is
  // left open at the end (each file's start was probed: no extra thread, handle or timer); what made the exit
  // slow before was a leak, fixed (ProcessMetrics, packages/queue).
  workerGracefulExitTimeout: 2000,
  // A global option: a project's own testTimeout is not applied.
  testTimeout: 60000,
};
