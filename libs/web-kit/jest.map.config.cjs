// Runs only the map tests (src/map) until libs/web-kit gets its main jest.config.cjs.
module.exports = {
  ...require('../../tools/jest.preset.cjs'),
  displayName: '@portal/web-kit map',
  testEnvironment: 'jsdom',
  testMatch: ['<rootDir>/src/map/**/*.test.ts?(x)'],
};
