/**
 * Tests that take a shared service away (restart the machine's Postgres): run alone and serially after the
 * main run (`npm test`), never next to other test files.
 */
const { projects, ...shared } = require('./jest.config');

const integration = projects.find((p) => p.displayName === 'integration');

/** @type {import('jest').Config} */
module.exports = {
  ...shared,
  ...integration,
  displayName: 'outage',
  testMatch: ['**/test/**/*.outage.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
};
