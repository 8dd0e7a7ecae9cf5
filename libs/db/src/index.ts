import 'reflect-metadata';

export * from './entities';
export { MIGRATIONS } from './migrations';
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
export {
  containsPattern,
  escapeLike,
  footprintOnSql,
  joinedUuidSlice,
  KeptLists,
  PG_ERROR,
  pgErrorCode,
  SqlParameters,
  standingOnSql,
  API_KEY_ACCOUNT_PASSWORD,
  apiKeyAccountEmail,
  insertApiKeyRows,
  type ApiKeyRowsInput,
  type ApiKeySqlRunner,
  announceWebhookDelivery,
  announceWebhookEvent,
  recordRequestEvents,
  NOTIFICATIONS_CHANNEL,
  recordNotifications,
  type NotificationRecord,
  WEBHOOK_DELIVERIES_CHANNEL,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENTS_CHANNEL,
  type WebhookEventType,
  type KeptList,
  type KeptListsOptions,
  readReportState,
  type ReportStateReader,
} from './sql';
