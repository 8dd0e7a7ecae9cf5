module.exports = {
  ...require('../../tools/jest.preset.cjs'),
  testEnvironment: 'node',
  displayName: '@portal/geo',
  // Each suite makes a migrated throwaway database first; on 2 busy cores that alone can take over 5 s.
  testTimeout: 30_000,
};
