/**
 * The webhooks outbox (issue 22), written by every service and worker that changes a request: call
 * `recordRequestEvents` with the transaction's manager, in the same transaction as the change, so the event
 * exists if and only if the change was committed.
 *
 * Only groups that have an enabled endpoint subscribed to the event's type get a row (the check is one
 * indexed EXISTS in the INSERT … SELECT): most groups have no webhooks, and the outbox stays small. The
 * cost of that choice: an endpoint created or re-enabled later does not receive what happened before it.
 *
 * The same statement raises a PostgreSQL notification on `WEBHOOK_EVENTS_CHANNEL`, which PostgreSQL sends
 * only when the transaction commits (never for a rolled-back change): the requests worker listens and
 * queues the event's dispatch at once. An event whose notification was missed (no worker was listening,
 * or one crashed before queueing) is dispatched by the worker's sweeper, so none is lost.
 */

/** Something with `query` (a DataSource or a transaction's EntityManager; both answer the rows). */
export interface SqlRunner {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** The events a group may subscribe to. `webhook.test` is only ever sent by "Send a test event". */
export const WEBHOOK_EVENT_TYPES = ['request.created', 'request.status_changed', 'report.ready'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** PostgreSQL notification channels: a new event (payload: its id) and a delivery to (re)send (its id). */
export const WEBHOOK_EVENTS_CHANNEL = 'webhook_events';
export const WEBHOOK_DELIVERIES_CHANNEL = 'webhook_deliveries';

/**
 * Records `type` for each request of `requestIds` whose group has an enabled endpoint subscribed to it,
 * and announces each to the worker at commit. Answers the new events' ids (the `webhook-id`s).
 */
export async function recordRequestEvents(
  em: SqlRunner,
  type: WebhookEventType,
  requestIds: readonly string[],
): Promise<string[]> {
  if (requestIds.length === 0) return [];
  const rows = (await em.query(
    `WITH inserted AS (
       INSERT INTO webhooks.events (type, group_id, request_id)
       SELECT $1, r.group_id, r.id FROM requests.requests r
        WHERE r.id = ANY($2::uuid[]) AND r.group_id IS NOT NULL
          AND EXISTS (SELECT 1 FROM webhooks.endpoints e
                       WHERE e.group_id = r.group_id AND e.enabled AND $1 = ANY(e.events))
       RETURNING id)
     SELECT id, pg_notify($3, id) FROM inserted`,
    [type, requestIds, WEBHOOK_EVENTS_CHANNEL],
  )) as { id: string }[];
  return rows.map((row) => row.id);
}

/** Announces a delivery to send now (a redelivery): the worker queues it at commit. */
export async function announceWebhookDelivery(em: SqlRunner, deliveryId: string): Promise<void> {
  await em.query('SELECT pg_notify($1, $2)', [WEBHOOK_DELIVERIES_CHANNEL, deliveryId]);
}

/** Announces an event written by hand (a test event): as recordRequestEvents does for its own. */
export async function announceWebhookEvent(em: SqlRunner, eventId: string): Promise<void> {
  await em.query('SELECT pg_notify($1, $2)', [WEBHOOK_EVENTS_CHANNEL, eventId]);
}
