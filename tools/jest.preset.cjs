// Shared Jest preset: SWC transpiles TypeScript (with TypeORM decorators), workspace libs resolve to
// their TypeScript sources through the "source" export condition, so tests never need a prior build.
const path = require('node:path');

const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', tsx: true, decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
};

module.exports = {
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', swcOptions] },
  // ol, world-atlas-style packages ship ESM only; let SWC turn them into CommonJS for Jest (Node itself
  // requires them as they are). content-disposition 3 sits inside @fastify/static (the queue dashboard's).
  transformIgnorePatterns: [
    '/node_modules/(?!(?:@fastify/static/node_modules/)?(content-disposition|cookie|ol|color-space|color-rgba|color-parse|color-name|rbush|quickselect|earcut|pbf|osm-pbf-parser-node|topojson-client|geotiff)/)',
  ],
  testEnvironmentOptions: { customExportConditions: ['source', 'node', 'require', 'default'] },
  moduleNameMapper: {
    '^@portal/(contracts|domain|db|server-kit|web-kit)$': path.join(__dirname, '..', 'libs/$1/src/index.ts'),
    '\\.(css)$': path.join(__dirname, 'jest-style-stub.cjs'),
    // webpack emits such a file as an asset and the import is its URL (tools/webpack.common.cjs).
    '\\.geojson$': path.join(__dirname, 'jest-asset-url-stub.cjs'),
  },
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // A test that fails half-way (a timeout while Redis is stopped, say) can leave a connection retrying
  // behind it; without forceExit Jest then never exits, and `nx run-many` waits for it forever — a CI run
  // was lost that way. Jest still prints that it forced the exit, and --detectOpenHandles finds the culprit.
  forceExit: true,
};
