import type { SqlRunner } from './webhook-events';

/**
 * Notifications for people (issue 24), written by every service that makes the change they tell of:
 * call `recordNotifications` with the transaction's manager, after the request's row was updated, in the
 * same transaction, so a person is told if and only if the change was committed.
 *
 * One row per event and person (the migration 1764830000000-Notifications says what each column holds):
 * only an active person (never an API key's account), never the person who made the change, and only when
 * their preference for the kind is on (a missing preference row is on). The event's key is the request's
 * row version after the change, so one change is one event, however often its writer runs.
 *
 * The statement raises a PostgreSQL notification on NOTIFICATIONS_CHANNEL (sent only at commit): the
 * requests worker hears it, pushes the notification to the person's sockets and queues its mail.
 */

/** PostgreSQL notification channel: a new notification (payload: its id). */
export const NOTIFICATIONS_CHANNEL = 'portal_notifications';

export interface NotificationRecord {
  /** One of contracts' NOTIFICATION_KINDS (the table's CHECK holds the same list). */
  kind: string;
  requestIds: readonly string[];
  /** Who is told: the request's requester, or its first QS (the one it is assigned to). */
  to: 'requester' | 'firstQs';
  /** Who made the change (not told of it); null for the system (a PDF made, the late sweep). */
  actorId: string | null;
  /** What the message says beyond the request (a query's comment, whether it was a dispute). */
  data?: Record<string, unknown>;
  /**
   * The event's key after the kind and request (default: the row's version, one per change). The late
   * sweep's 'once' and an assignment's first QS make theirs.
   */
  once?: boolean;
}

/** Records the notifications of one event for each of `requestIds`; answers the new rows' ids. */
export async function recordNotifications(em: SqlRunner, record: NotificationRecord): Promise<string[]> {
  if (record.requestIds.length === 0) return [];
  const person = record.to === 'requester' ? 'r.user_id' : 'r.first_user_id';
  // 'once': per request and person (an assignment told once to its first QS); otherwise per row version.
  const key = record.once ? `$1 || ':' || r.id || ':' || ${person}` : `$1 || ':' || r.id || ':' || r.version`;
  const rows = (await em.query(
    `WITH inserted AS (
       INSERT INTO notifications.notifications (user_id, kind, event_key, request_id, grip_reference, data)
       SELECT u.id, $1, ${key}, r.id, r.grip_reference, $4::jsonb
         FROM requests.requests r JOIN identity.users u ON u.id = ${person}
        WHERE r.id = ANY($2::uuid[]) AND u.active AND u.kind = 'person'
          AND u.id IS DISTINCT FROM $3::uuid
          AND NOT EXISTS (SELECT 1 FROM notifications.preferences p
                           WHERE p.user_id = u.id AND p.kind = $1 AND NOT p.enabled)
       ON CONFLICT (event_key, user_id) DO NOTHING
       RETURNING id)
     SELECT id, pg_notify($5, id::text) FROM inserted`,
    [
      record.kind,
      record.requestIds,
      record.actorId,
      JSON.stringify(record.data ?? {}),
      NOTIFICATIONS_CHANNEL,
    ],
  )) as { id: string }[];
  return rows.map((row) => row.id);
}
