const preset = require('../../tools/jest.preset.cjs');

module.exports = {
  ...preset,
  testEnvironment: 'node',
  displayName: '@portal/gateway',
  // The API reference (@scalar/fastify-api-reference, /api/docs) and the packages it imports ship ESM only:
  // SWC turns them into CommonJS for Jest too (Node itself requires them as they are).
  transformIgnorePatterns: [
    preset.transformIgnorePatterns[0].replace('(?!(?:', '(?!@scalar/|github-slugger/|(?:'),
  ],
};
