module.exports = {
  ...require('../../tools/jest.preset.cjs'),
  testEnvironment: require.resolve('./jest.environment.cjs'),
  displayName: '@portal/web-kit',
};
