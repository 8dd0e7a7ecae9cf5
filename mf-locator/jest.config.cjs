module.exports = {
  ...require('../tools/jest.preset.cjs'),
  // jsdom with Node's fetch API (see the file).
  testEnvironment: require.resolve('../libs/web-kit/jest.environment.cjs'),
  setupFilesAfterEnv: [require.resolve('./jest.setup.cjs')],
  testTimeout: 30_000,
  displayName: '@portal/mf-locator',
  moduleNameMapper: {
    ...require('../tools/jest.preset.cjs').moduleNameMapper,
    // The browser build of csv-parse is ESM; its CommonJS build has the same parser for Jest.
    '^csv-parse/browser/esm/sync$': require.resolve('csv-parse/sync'),
  },
};
