export { PG_ERROR, pgErrorCode } from './errors';
export { containsPattern, escapeLike, SqlParameters } from './parameters';
export { joinedUuidSlice, KeptLists, type KeptList, type KeptListsOptions } from './kept-lists';
export { footprintOnSql, standingOnSql } from './building-life';
export { readReportState, type ReportStateReader } from './report-state';
export {
  API_KEY_ACCOUNT_PASSWORD,
  apiKeyAccountEmail,
  insertApiKeyRows,
  type ApiKeyRowsInput,
  type ApiKeySqlRunner,
} from './api-keys';
export {
  announceWebhookDelivery,
  announceWebhookEvent,
  recordRequestEvents,
  WEBHOOK_DELIVERIES_CHANNEL,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENTS_CHANNEL,
  type SqlRunner,
  type WebhookEventType,
} from './webhook-events';
export { NOTIFICATIONS_CHANNEL, recordNotifications, type NotificationRecord } from './notifications';
