// Jest stand-in for a file webpack emits as an asset (tools/webpack.common.cjs): the import is its URL.
module.exports = { __esModule: true, default: '/assets/stub.geojson' };
