const preset = require('../tools/jest.preset.cjs');

module.exports = {
  ...preset,
  // The gateway (its own routes are audited) loads the API reference's plugin, an ES module only: SWC turns
  // it into CommonJS for Jest as the preset does for the others (Node itself requires it as it is).
  transformIgnorePatterns: preset.transformIgnorePatterns.map((pattern) =>
    pattern.replace(
      '(content-disposition|',
      '(@scalar/[^/]+|github-slugger|nanoid|pathe|yaml|zod|content-disposition|',
    ),
  ),
  testEnvironment: 'node',
  displayName: '@portal/api-audit',
};
