/** Jest: @swc/jest transforms TypeScript (and ESM-only deps such as jose) to CommonJS. */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/test'],
  testMatch: ['**/test/**/*.test.ts'],
  // Outage tests restart shared services (Postgres): jest.outage.config.js runs them alone, after this run.
  testPathIgnorePatterns: ['/node_modules/', '\\.outage\\.test\\.ts$'],
  transform: {
    '^.+\\.(t|j|mj)s$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(jose)/)'],
  maxWorkers: 2,
  testTimeout: 60000,
};
