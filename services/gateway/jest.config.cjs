const preset = require('../../tools/jest.preset.cjs');

// @fastify/static's content-disposition ships ESM only. Node 20.19+ loads it through require(esm), Jest's
// module system does not, so SWC turns it into CommonJS here (it sits under @fastify/static/node_modules,
// hence the nested path in the allow-list).
const transformIgnorePatterns = preset.transformIgnorePatterns.map((pattern) =>
  pattern.replace(
    '/node_modules/(?!(',
    '/node_modules/(?!(@fastify/static/node_modules/content-disposition|content-disposition|',
  ),
);

module.exports = {
  ...preset,
  transformIgnorePatterns,
  testEnvironment: 'node',
  displayName: '@portal/gateway',
};
