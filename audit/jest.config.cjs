module.exports = {
  ...require('../tools/jest.preset.cjs'),
  testEnvironment: 'node',
  displayName: '@portal/api-audit',
};
