import { randomBytes } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import {
  WEBHOOK_TEST_EVENT,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookPayload,
} from '@portal/contracts';
import { announceWebhookDelivery, announceWebhookEvent } from '@portal/db';

/**
 * A group's webhook endpoints and their deliveries (schema webhooks, migration 1764820000000-Webhooks).
 * services-admin writes the endpoints; the requests worker writes events, deliveries and attempts, except
 * for a test event and a redelivery, which are written here and announced to the worker (pg_notify at
 * commit, as the outbox does).
 */

type Sql = Pick<DataSource | EntityManager, 'query'>;

/** A Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

interface EndpointRow {
  id: string;
  group_id: string;
  url: string;
  description: string;
  events: string[];
  secret: string;
  enabled: boolean;
  disabled_at: Date | null;
  disabled_reason: string | null;
  failing_since: Date | null;
  created_by: string | null;
  created_by_name: string | null;
  created_at: Date;
}

const iso = (at: Date | null) => (at ? new Date(at).toISOString() : null);

const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  _id: row.id,
  groupId: row.group_id,
  url: row.url,
  description: row.description,
  events: row.events,
  enabled: row.enabled,
  disabledAt: iso(row.disabled_at),
  disabledReason: row.disabled_reason,
  failingSince: iso(row.failing_since),
  createdBy: row.created_by_name ?? row.created_by,
  createdAt: new Date(row.created_at).toISOString(),
});

const ENDPOINT_SELECT = `SELECT e.*, u.name AS created_by_name FROM webhooks.endpoints e
  LEFT JOIN identity.users u ON u.id = e.created_by`;

/** The group's id and name (null: no such group). */
export async function groupNamed(ds: Sql, groupId: string): Promise<{ _id: string; name: string } | null> {
  const [row] = (await ds.query('SELECT id AS "_id", name FROM identity.groups WHERE id = $1', [
    groupId,
  ])) as {
    _id: string;
    name: string;
  }[];
  return row ?? null;
}

export async function groupEndpoints(ds: Sql, groupId: string): Promise<WebhookEndpoint[]> {
  const rows = (await ds.query(`${ENDPOINT_SELECT} WHERE e.group_id = $1 ORDER BY e.created_at, e.id`, [
    groupId,
  ])) as EndpointRow[];
  return rows.map(toEndpoint);
}

/** The group's endpoint (null when there is none, or it is another group's). */
export async function groupEndpoint(
  ds: Sql,
  groupId: string,
  endpointId: string,
  lock = false,
): Promise<WebhookEndpoint | null> {
  const [row] = (await ds.query(
    `${ENDPOINT_SELECT} WHERE e.id = $1 AND e.group_id = $2${lock ? ' FOR UPDATE OF e' : ''}`,
    [endpointId, groupId],
  )) as EndpointRow[];
  return row ? toEndpoint(row) : null;
}

export async function insertEndpoint(
  em: Sql,
  input: {
    groupId: string;
    url: string;
    description: string;
    events: string[];
    secret: string;
    createdBy: string;
  },
): Promise<WebhookEndpoint> {
  const [{ id }] = (await em.query(
    `INSERT INTO webhooks.endpoints (group_id, url, description, events, secret, created_by)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [input.groupId, input.url, input.description, input.events, input.secret, input.createdBy],
  )) as { id: string }[];
  return (await groupEndpoint(em, input.groupId, id))!;
}

/**
 * Changes an endpoint. Enabling it again forgets its failures (failing_since, the reason); disabling it
 * by hand records who did.
 */
export async function updateEndpoint(
  em: Sql,
  current: WebhookEndpoint,
  change: { url?: string; description?: string; events?: string[]; enabled?: boolean },
  actorName: string,
): Promise<WebhookEndpoint> {
  const enabling = change.enabled === true && !current.enabled;
  const disabling = change.enabled === false && current.enabled;
  await em.query(
    `UPDATE webhooks.endpoints SET
       url = coalesce($2, url), description = coalesce($3, description), events = coalesce($4, events),
       enabled = coalesce($5, enabled),
       disabled_at = CASE WHEN $6 THEN NULL WHEN $7 THEN now() ELSE disabled_at END,
       disabled_reason = CASE WHEN $6 THEN NULL WHEN $7 THEN $8 ELSE disabled_reason END,
       failing_since = CASE WHEN $6 THEN NULL ELSE failing_since END,
       updated_at = now()
     WHERE id = $1`,
    [
      current._id,
      change.url ?? null,
      change.description ?? null,
      change.events ?? null,
      change.enabled ?? null,
      enabling,
      disabling,
      `Disabled by ${actorName}.`,
    ],
  );
  return (await groupEndpoint(em, current.groupId, current._id))!;
}

export async function rotateSecret(em: Sql, endpointId: string, secret: string): Promise<void> {
  await em.query('UPDATE webhooks.endpoints SET secret = $2, updated_at = now() WHERE id = $1', [
    endpointId,
    secret,
  ]);
}

export async function deleteEndpoint(em: Sql, endpointId: string): Promise<void> {
  await em.query('DELETE FROM webhooks.endpoints WHERE id = $1', [endpointId]);
}

/** A `webhook.test` event for one endpoint, with its body, announced to the worker at commit. */
export async function insertTestEvent(
  em: Sql,
  endpoint: WebhookEndpoint,
  sentBy: { id: string; name: string },
): Promise<string> {
  const timestamp = new Date().toISOString();
  const payload: WebhookPayload = {
    type: WEBHOOK_TEST_EVENT,
    timestamp,
    data: {
      message: 'A test event from the Property Portal: the endpoint receives and verifies webhooks.',
      groupId: endpoint.groupId,
      endpointId: endpoint._id,
      sentBy: sentBy.name,
    },
  };
  const [{ id }] = (await em.query(
    `INSERT INTO webhooks.events (type, group_id, endpoint_id, payload, occurred_at)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [WEBHOOK_TEST_EVENT, endpoint.groupId, endpoint._id, JSON.stringify(payload), timestamp],
  )) as { id: string }[];
  await announceWebhookEvent(em, id);
  return id;
}

interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  request_id: string | null;
  status: WebhookDelivery['status'];
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  next_attempt_at: Date | null;
  created_at: Date;
  delivered_at: Date | null;
  attempt_list: { at: string; status_code: number | null; duration_ms: number; error: string | null }[];
}

/** One page of an endpoint's deliveries, newest first, each with its attempts (oldest first). */
export async function endpointDeliveries(
  ds: Sql,
  endpointId: string,
  page: number,
  pageSize: number,
): Promise<{ deliveries: WebhookDelivery[]; total: number }> {
  const [{ total }] = (await ds.query(
    'SELECT count(*)::int AS total FROM webhooks.deliveries WHERE endpoint_id = $1',
    [endpointId],
  )) as { total: number }[];
  const rows = (await ds.query(
    `SELECT d.*, ev.type AS event_type, ev.request_id,
            coalesce((SELECT json_agg(json_build_object('at', a.at, 'status_code', a.status_code,
                                                        'duration_ms', a.duration_ms, 'error', a.error)
                                      ORDER BY a.at, a.id)
                        FROM webhooks.attempts a WHERE a.delivery_id = d.id), '[]') AS attempt_list
       FROM webhooks.deliveries d JOIN webhooks.events ev ON ev.id = d.event_id
      WHERE d.endpoint_id = $1
      ORDER BY d.created_at DESC, d.id DESC
      LIMIT $2 OFFSET $3`,
    [endpointId, pageSize, (page - 1) * pageSize],
  )) as DeliveryRow[];
  return {
    total,
    deliveries: rows.map((row) => ({
      _id: row.id,
      eventId: row.event_id,
      eventType: row.event_type,
      requestId: row.request_id,
      status: row.status,
      attempts: row.attempts,
      lastStatusCode: row.last_status_code,
      lastError: row.last_error,
      lastDurationMs: row.last_duration_ms,
      nextAttemptAt: row.status === 'pending' ? iso(row.next_attempt_at) : null,
      createdAt: new Date(row.created_at).toISOString(),
      deliveredAt: iso(row.delivered_at),
      attemptList: row.attempt_list.map((attempt): WebhookAttempt => ({
        at: new Date(attempt.at).toISOString(),
        statusCode: attempt.status_code,
        durationMs: attempt.duration_ms,
        error: attempt.error,
      })),
    })),
  };
}

/**
 * Sends a finished delivery again: pending from now, announced to the worker at commit. Answers its
 * status before (null: no such delivery of the endpoint; 'pending': left alone, it is being attempted).
 */
export async function redeliver(
  em: Sql,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDelivery['status'] | null> {
  const [row] = (await em.query(
    'SELECT status FROM webhooks.deliveries WHERE id = $1 AND endpoint_id = $2 FOR UPDATE',
    [deliveryId, endpointId],
  )) as { status: WebhookDelivery['status'] }[];
  if (!row) return null;
  if (row.status === 'pending') return row.status;
  await em.query(
    `UPDATE webhooks.deliveries SET status = 'pending', next_attempt_at = now(), delivered_at = NULL
      WHERE id = $1`,
    [deliveryId],
  );
  await announceWebhookDelivery(em, deliveryId);
  return row.status;
}
