import 'reflect-metadata';

export * from './entities';
export {
  MIGRATIONS,
  Initial1763700000000,
  ServicesAdmin1763800000000,
  Geo1763900000000,
  Requests1764000000000,
  UserPages1764100000000,
  GroupListRevision1764200000000,
} from './migrations';
export {
  createDataSource,
  openServiceDatabase,
  SHORT_STATEMENT_SETTINGS,
  type DataSourceOptions,
} from './data-source';
export {
  DEFAULT_DATABASE_URL,
  databaseName,
  dropDatabase,
  ensureDatabase,
  redactUrl,
  withDatabase,
} from './database';
export { hashPassword, verifyPassword, passwordNeedsRehash, PASSWORD_HASH_OPTIONS } from './passwords';
export { seed, DEMO_ACCOUNTS, DEMO_PASSWORD, type SeedCounts, type SeedSummary } from './seed';
export { runMigrations } from './migrate';
export { createTestDatabase, DEFAULT_TEST_DATABASE_ADMIN_URL, type TestDatabase } from './testing';
