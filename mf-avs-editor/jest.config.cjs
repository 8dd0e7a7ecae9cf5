module.exports = {
  ...require('../tools/jest.preset.cjs'),
  // jsdom with Node's fetch API (see the file).
  testEnvironment: require.resolve('../libs/web-kit/jest.environment.cjs'),
  setupFilesAfterEnv: [require.resolve('./jest.setup.cjs')],
  testTimeout: 30_000,
  displayName: '@portal/mf-avs-editor',
};
