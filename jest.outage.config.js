/**
 * Tests that take a shared service away (restart the machine's Postgres): run alone and serially after the
 * main run (`npm test`), never next to other test files.
 */
const base = require('./jest.config');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  testMatch: ['**/test/**/*.outage.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
};
