import type { DataSource } from 'typeorm';
import { WEBHOOK_TEST_EVENT, type WebhookPayload } from '@portal/contracts';
import { findRequest } from '../store';

/**
 * The delivery worker's SQL (schema webhooks; the migration 1764820000000-Webhooks says what each table
 * holds). Services-admin writes endpoints and reads deliveries (its store/webhooks.ts); the outbox rows are
 * written by libs/db's recordRequestEvents in the changes' transactions; everything else is written here.
 */

export interface EventRow {
  id: string;
  type: string;
  group_id: string;
  request_id: string | null;
  endpoint_id: string | null;
  payload: WebhookPayload | null;
  occurred_at: Date;
  dispatched_at: Date | null;
}

export interface DeliveryTarget {
  delivery_id: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  event_id: string;
  event_type: string;
  payload: WebhookPayload | null;
  occurred_at: Date;
  endpoint_id: string;
  group_id: string;
  url: string;
  secret: string;
  enabled: boolean;
  failing_since: Date | null;
}

export const readEvent = async (ds: DataSource, id: string): Promise<EventRow | null> =>
  ((await ds.query('SELECT * FROM webhooks.events WHERE id = $1', [id])) as EventRow[])[0] ?? null;

/**
 * The body sent for an event, made once and kept with it: every endpoint and every retry is sent the same
 * bytes. `data` is the request as GET …/any answers it at the fan-out (a moment after the change; a
 * request deleted meanwhile is sent as `{ _id }`).
 */
export async function eventPayload(ds: DataSource, event: EventRow): Promise<WebhookPayload> {
  if (event.payload) return event.payload;
  const data = event.request_id
    ? ((await findRequest(ds, { id: event.request_id })) ?? { _id: event.request_id })
    : {};
  const payload = {
    type: event.type as WebhookPayload['type'],
    timestamp: new Date(event.occurred_at).toISOString(),
    data,
  };
  // Two fan-outs of one event racing keep the first one's body.
  const [kept] = (await ds.query(
    // (In a WITH: TypeORM answers an UPDATE's rows with its count, a SELECT's as they are.)
    `WITH kept AS (UPDATE webhooks.events SET payload = coalesce(payload, $2::jsonb) WHERE id = $1 RETURNING payload)
     SELECT payload FROM kept`,
    [event.id, JSON.stringify(payload)],
  )) as { payload: WebhookPayload }[];
  return kept?.payload ?? payload;
}

/**
 * One delivery per endpoint the event goes to (the group's enabled endpoints subscribed to its type, or
 * the one endpoint of a test event), made idempotently (unique per event and endpoint), and the event
 * marked dispatched. Answers every pending delivery of the event (new or left by an earlier fan-out).
 */
export async function fanOut(ds: DataSource, event: EventRow): Promise<string[]> {
  return ds.transaction(async (em) => {
    if (event.endpoint_id)
      await em.query(
        `INSERT INTO webhooks.deliveries (event_id, endpoint_id) VALUES ($1, $2)
         ON CONFLICT (event_id, endpoint_id) DO NOTHING`,
        [event.id, event.endpoint_id],
      );
    else
      await em.query(
        `INSERT INTO webhooks.deliveries (event_id, endpoint_id)
         SELECT $1, e.id FROM webhooks.endpoints e WHERE e.group_id = $2 AND e.enabled AND $3 = ANY(e.events)
         ON CONFLICT (event_id, endpoint_id) DO NOTHING`,
        [event.id, event.group_id, event.type],
      );
    await em.query(
      'UPDATE webhooks.events SET dispatched_at = coalesce(dispatched_at, now()) WHERE id = $1',
      [event.id],
    );
    const rows = (await em.query(
      `SELECT id FROM webhooks.deliveries WHERE event_id = $1 AND status = 'pending' ORDER BY id`,
      [event.id],
    )) as { id: string }[];
    return rows.map((row) => row.id);
  });
}

export async function readDeliveryTarget(ds: DataSource, deliveryId: string): Promise<DeliveryTarget | null> {
  const [row] = (await ds.query(
    `SELECT d.id AS delivery_id, d.status, d.attempts, ev.id AS event_id, ev.type AS event_type, ev.payload,
            ev.occurred_at, e.id AS endpoint_id, e.group_id, e.url, e.secret, e.enabled, e.failing_since
       FROM webhooks.deliveries d
       JOIN webhooks.events ev ON ev.id = d.event_id
       JOIN webhooks.endpoints e ON e.id = d.endpoint_id
      WHERE d.id = $1`,
    [deliveryId],
  )) as DeliveryTarget[];
  return row ?? null;
}

export interface AttemptOutcome {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/**
 * A successful attempt: recorded, the delivery delivered, the endpoint's failures forgotten. Only a
 * pending delivery is moved (a second worker finding it delivered leaves it so).
 */
export async function recordSuccess(ds: DataSource, target: DeliveryTarget, outcome: AttemptOutcome) {
  await ds.transaction(async (em) => {
    await em.query(
      'INSERT INTO webhooks.attempts (delivery_id, status_code, duration_ms, error) VALUES ($1, $2, $3, NULL)',
      [target.delivery_id, outcome.statusCode, outcome.durationMs],
    );
    await em.query(
      `UPDATE webhooks.deliveries
          SET status = 'delivered', attempts = attempts + 1, last_status_code = $2, last_error = NULL,
              last_duration_ms = $3, delivered_at = now()
        WHERE id = $1`,
      [target.delivery_id, outcome.statusCode, outcome.durationMs],
    );
    await em.query('UPDATE webhooks.endpoints SET failing_since = NULL WHERE id = $1', [target.endpoint_id]);
  });
}

/**
 * A failed attempt: recorded; the delivery stays pending until `nextAttemptAt`, or fails when there is
 * none; the endpoint's failing_since starts (if it was not failing). Answers whether the endpoint has now
 * been failing for `disableAfterMs` — then it is disabled here, once (answers true only to the one call
 * that disabled it, so its admins are told once).
 */
export async function recordFailure(
  ds: DataSource,
  target: DeliveryTarget,
  outcome: AttemptOutcome,
  nextAttemptAt: Date | null,
  disableAfterMs: number,
): Promise<{ disabled: boolean }> {
  return ds.transaction(async (em) => {
    await em.query(
      'INSERT INTO webhooks.attempts (delivery_id, status_code, duration_ms, error) VALUES ($1, $2, $3, $4)',
      [target.delivery_id, outcome.statusCode, outcome.durationMs, outcome.error],
    );
    await em.query(
      `UPDATE webhooks.deliveries
          SET status = CASE WHEN $5::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
              attempts = attempts + 1, last_status_code = $2, last_error = $3, last_duration_ms = $4,
              next_attempt_at = coalesce($5::timestamptz, next_attempt_at)
        WHERE id = $1`,
      [target.delivery_id, outcome.statusCode, outcome.error, outcome.durationMs, nextAttemptAt],
    );
    if (target.event_type === WEBHOOK_TEST_EVENT) return { disabled: false };
    const [endpoint] = (await em.query(
      `WITH failing AS (
         UPDATE webhooks.endpoints SET failing_since = coalesce(failing_since, now()) WHERE id = $1
         RETURNING enabled, failing_since <= now() - make_interval(secs => $2::float8 / 1000) AS overdue)
       SELECT enabled, overdue FROM failing`,
      [target.endpoint_id, disableAfterMs],
    )) as { enabled: boolean; overdue: boolean }[];
    if (!endpoint?.enabled || !endpoint.overdue) return { disabled: false };
    await em.query(
      `UPDATE webhooks.endpoints
          SET enabled = false, disabled_at = now(), updated_at = now(),
              disabled_reason = 'Every delivery failed for ' || $2 || ' (last: ' || $3 || ').'
        WHERE id = $1 AND enabled`,
      [target.endpoint_id, describeDuration(disableAfterMs), outcome.error ?? `HTTP ${outcome.statusCode}`],
    );
    return { disabled: true };
  });
}

/** A pending delivery that will not be attempted (its endpoint was disabled or removed). */
export async function abandonDelivery(ds: DataSource, deliveryId: string, reason: string): Promise<void> {
  await ds.query(
    `UPDATE webhooks.deliveries SET status = 'failed', last_error = $2 WHERE id = $1 AND status = 'pending'`,
    [deliveryId, reason],
  );
}

export function describeDuration(ms: number): string {
  const hours = ms / 3_600_000;
  if (hours >= 1) return hours === 24 ? 'a day' : `${Math.round(hours * 10) / 10} hours`;
  return `${Math.round(ms / 1000)} seconds`;
}

/** Who is told that an endpoint was disabled: the group's admins and the portal's administrators. */
export async function endpointAdmins(
  ds: DataSource,
  groupId: string,
): Promise<{ name: string; email: string }[]> {
  // A group's admin is its admin_user_id (role 'groupAdmin', libs/domain rolesOf).
  return (await ds.query(
    `SELECT DISTINCT u.name, u.email FROM identity.users u
      WHERE u.active AND u.kind = 'person'
        AND (u.is_admin OR u.id = (SELECT g.admin_user_id FROM identity.groups g WHERE g.id = $1 AND g.active))
      ORDER BY u.email`,
    [groupId],
  )) as { name: string; email: string }[];
}

/** The undispatched events older than `olderThanMs` (a missed notification), oldest first. */
export async function undispatchedEvents(
  ds: DataSource,
  olderThanMs: number,
  limit = 500,
): Promise<string[]> {
  const rows = (await ds.query(
    `SELECT id FROM webhooks.events
      WHERE dispatched_at IS NULL AND occurred_at < now() - make_interval(secs => $1::float8 / 1000)
      ORDER BY occurred_at LIMIT $2`,
    [olderThanMs, limit],
  )) as { id: string }[];
  return rows.map((row) => row.id);
}

/** Pending deliveries whose attempt is overdue by `overdueMs` (their job was lost with Redis, or never queued). */
export async function overdueDeliveries(ds: DataSource, overdueMs: number, limit = 500): Promise<string[]> {
  const rows = (await ds.query(
    `SELECT id FROM webhooks.deliveries
      WHERE status = 'pending' AND next_attempt_at < now() - make_interval(secs => $1::float8 / 1000)
      ORDER BY next_attempt_at LIMIT $2`,
    [overdueMs, limit],
  )) as { id: string }[];
  return rows.map((row) => row.id);
}
