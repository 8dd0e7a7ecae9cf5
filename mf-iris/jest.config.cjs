const path = require('node:path');
const preset = require('../tools/jest.preset.cjs');

module.exports = {
  ...preset,
  // jsdom with Node's fetch API (see the file).
  testEnvironment: require.resolve('../libs/web-kit/jest.environment.cjs'),
  setupFilesAfterEnv: [require.resolve('./jest.setup.cjs')],
  testTimeout: 30_000,
  displayName: '@portal/mf-iris',
  moduleNameMapper: {
    ...preset.moduleNameMapper,
    // A library newer than the preset's list: its source, like the others.
    '^@portal/charts$': path.join(__dirname, '..', 'libs/charts/src/index.ts'),
  },
};
