module.exports = {
  ...require('../../tools/jest.preset.cjs'),
  testEnvironment: 'node',
  // Its tests stop and restart a Redis of their own and wait for the reconnection: seconds on a busy machine.
  testTimeout: 30_000,
  displayName: '@portal/server-kit',
};
