// Tests run against a real PostgreSQL (a throwaway database per file); CREATE DATABASE, the PostGIS
// extension and argon2 take seconds, hence the generous timeout.
module.exports = {
  ...require('../../tools/jest.preset.cjs'),
  testEnvironment: 'node',
  displayName: '@portal/db',
  testTimeout: 30_000,
};
