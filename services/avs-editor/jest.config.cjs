module.exports = {
  ...require('../../tools/jest.preset.cjs'),
  testEnvironment: 'node',
  displayName: '@portal/avs-editor',
};
