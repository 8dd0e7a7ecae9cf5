import type { DataSource } from 'typeorm';
import {
  NOTIFICATION_KIND_LABELS,
  NOTIFICATION_KINDS,
  notificationLink,
  notificationTitle,
  type Notification,
  type NotificationData,
  type NotificationKind,
  type NotificationPreference,
} from '@portal/contracts';
import { NOTIFICATIONS_CHANNEL } from '@portal/db';

/**
 * The SQL of notifications (schema notifications; the migration 1764830000000-Notifications says what each
 * table holds): the person's list and preferences (the routes), the mail job's claim (the worker) and the
 * late sweep. The rows of changes are written by libs/db's recordNotifications, in the changes' transactions.
 */

export interface NotificationRow {
  id: string;
  user_id: string;
  kind: NotificationKind;
  request_id: string | null;
  grip_reference: string | null;
  data: NotificationData;
  created_at: Date;
  read_at: Date | null;
}

const COLUMNS = 'n.id, n.user_id, n.kind, n.request_id, n.grip_reference, n.data, n.created_at, n.read_at';

export const toNotification = (row: NotificationRow): Notification => ({
  id: row.id,
  kind: row.kind,
  requestId: row.request_id,
  gripReference: row.grip_reference,
  title: notificationTitle(row.kind, row.grip_reference, row.data),
  link: notificationLink(row.kind, row.grip_reference),
  createdAt: new Date(row.created_at).toISOString(),
  readAt: row.read_at ? new Date(row.read_at).toISOString() : null,
});

export async function unreadCount(ds: DataSource, userId: string): Promise<number> {
  const [row] = (await ds.query(
    'SELECT count(*)::int AS unread FROM notifications.notifications WHERE user_id = $1 AND read_at IS NULL',
    [userId],
  )) as { unread: number }[];
  return row.unread;
}

/** A page of the person's notifications, newest first (the user index walked in order). */
export async function listNotifications(
  ds: DataSource,
  userId: string,
  page: { page: number; limit: number; unreadOnly: boolean },
): Promise<{ total: number; unread: number; docs: Notification[] }> {
  const unreadOnly = page.unreadOnly ? 'AND n.read_at IS NULL' : '';
  const rows = (await ds.query(
    `SELECT ${COLUMNS} FROM notifications.notifications n
      WHERE n.user_id = $1 ${unreadOnly}
      ORDER BY n.created_at DESC, n.id DESC LIMIT $2 OFFSET $3`,
    [userId, page.limit, (page.page - 1) * page.limit],
  )) as NotificationRow[];
  const [counts] = (await ds.query(
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE read_at IS NULL)::int AS unread
       FROM notifications.notifications WHERE user_id = $1`,
    [userId],
  )) as { total: number; unread: number }[];
  return {
    total: page.unreadOnly ? counts.unread : counts.total,
    unread: counts.unread,
    docs: rows.map(toNotification),
  };
}

/** Marks the person's own notifications among `ids` read (another person's ids are left alone). */
export async function markRead(ds: DataSource, userId: string, ids: string[] | 'all'): Promise<void> {
  if (ids === 'all')
    await ds.query(
      'UPDATE notifications.notifications SET read_at = now() WHERE user_id = $1 AND read_at IS NULL',
      [userId],
    );
  else
    await ds.query(
      `UPDATE notifications.notifications SET read_at = now()
        WHERE user_id = $1 AND id = ANY($2::uuid[]) AND read_at IS NULL`,
      [userId, ids],
    );
}

/** Every kind with its label and whether it is on for the person (on unless they turned it off). */
export async function readPreferences(ds: DataSource, userId: string): Promise<NotificationPreference[]> {
  const rows = (await ds.query('SELECT kind, enabled FROM notifications.preferences WHERE user_id = $1', [
    userId,
  ])) as { kind: NotificationKind; enabled: boolean }[];
  const stored = new Map(rows.map((row) => [row.kind, row.enabled]));
  return NOTIFICATION_KINDS.map((kind) => ({
    kind,
    label: NOTIFICATION_KIND_LABELS[kind],
    enabled: stored.get(kind) ?? true,
  }));
}

/** Sets the named kinds on or off, in one statement. */
export async function writePreferences(
  ds: DataSource,
  userId: string,
  changes: Partial<Record<NotificationKind, boolean>>,
): Promise<void> {
  const entries = Object.entries(changes).filter(([, enabled]) => typeof enabled === 'boolean');
  if (entries.length === 0) return;
  await ds.query(
    `INSERT INTO notifications.preferences (user_id, kind, enabled)
     SELECT $1, kind, enabled FROM unnest($2::text[], $3::boolean[]) AS c(kind, enabled)
     ON CONFLICT (user_id, kind) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = now()`,
    [userId, entries.map(([kind]) => kind), entries.map(([, enabled]) => enabled)],
  );
}

/** What the mail job needs: the notification and its person (null when the row is gone). */
export interface MailTarget extends NotificationRow {
  mail_status: 'pending' | 'sending' | 'sent' | 'failed';
  email: string;
  name: string;
  person: boolean;
}

export async function readMailTarget(ds: DataSource, id: string): Promise<MailTarget | null> {
  const [row] = (await ds.query(
    `SELECT ${COLUMNS}, n.mail_status, u.email, u.name, (u.active AND u.kind = 'person') AS person
       FROM notifications.notifications n JOIN identity.users u ON u.id = n.user_id
      WHERE n.id = $1`,
    [id],
  )) as MailTarget[];
  return row ?? null;
}

/**
 * Claims the notification's mail: only a 'pending' one moves to 'sending', and only one caller gets it
 * (the UPDATE's row lock decides between two jobs racing). Answers whether this caller may send.
 */
export async function claimMail(ds: DataSource, id: string): Promise<boolean> {
  const rows = (await ds.query(
    `WITH claimed AS (UPDATE notifications.notifications SET mail_status = 'sending'
                       WHERE id = $1 AND mail_status = 'pending' RETURNING id)
     SELECT id FROM claimed`,
    [id],
  )) as unknown[];
  return rows.length === 1;
}

/** The claimed mail's outcome: sent; given back to 'pending' for the next try; or failed for good. */
export async function settleMail(
  ds: DataSource,
  id: string,
  outcome: { status: 'sent' | 'pending' | 'failed'; error?: string },
): Promise<void> {
  await ds.query(
    `UPDATE notifications.notifications
        SET mail_status = $2, mail_error = $3, mailed_at = CASE WHEN $2 = 'sent' THEN now() ELSE mailed_at END
      WHERE id = $1 AND mail_status = 'sending'`,
    [id, outcome.status, outcome.error ?? null],
  );
}

/** Pending mails older than `olderThanMs` (their job was lost with Redis, or never queued), oldest first. */
export async function pendingMails(ds: DataSource, olderThanMs: number, limit = 500): Promise<string[]> {
  const rows = (await ds.query(
    `SELECT id FROM notifications.notifications
      WHERE mail_status = 'pending' AND created_at < now() - make_interval(secs => $1::float8 / 1000)
      ORDER BY created_at LIMIT $2`,
    [olderThanMs, limit],
  )) as { id: string }[];
  return rows.map((row) => row.id);
}

/**
 * The late sweep: open requests whose time in queue (from creation, spec 02 §9) passed their status's
 * ageing target within the last `lookbackHours` and that were never announced late are noted (once per
 * request: late_requests' key) and told — to their first QS, or, while none is assigned, to the console's
 * people (administrators and SAVi operators) — in one transaction. A request that went late before the
 * look-back (older data, a worker stopped for days) is not announced: the console shows it as over.
 * Each status's range is one walk of the (status, created_at) index. Answers the new notifications' ids.
 */
export async function sweepLateRequests(
  ds: DataSource,
  targets: Record<string, number>,
  lookbackHours: number,
  limit = 500,
): Promise<{ requests: number; notifications: string[] }> {
  const statuses = Object.keys(targets);
  if (statuses.length === 0) return { requests: 0, notifications: [] };
  return ds.transaction(async (em) => {
    const late = (await em.query(
      `WITH targets AS (SELECT * FROM unnest($1::text[], $2::float8[]) AS t(status, hours)),
       found AS (
         SELECT r.id, r.status, t.hours FROM targets t
           JOIN LATERAL (
             SELECT r.id, r.status FROM requests.requests r
              WHERE r.status = t.status
                AND r.created_at <= now() - make_interval(secs => t.hours * 3600)
                AND r.created_at > now() - make_interval(secs => (t.hours + $3::float8) * 3600)
                AND NOT EXISTS (SELECT 1 FROM notifications.late_requests l WHERE l.request_id = r.id)
              LIMIT $4) r ON true
          LIMIT $4),
       noted AS (
         INSERT INTO notifications.late_requests (request_id, status)
         SELECT id, status FROM found ON CONFLICT (request_id) DO NOTHING RETURNING request_id)
       SELECT f.id, f.status, f.hours FROM found f JOIN noted n ON n.request_id = f.id`,
      [statuses, statuses.map((status) => targets[status]), lookbackHours, limit],
    )) as { id: string; status: string; hours: number }[];
    const notifications: string[] = [];
    for (const request of late) {
      const rows = (await em.query(
        `WITH inserted AS (
           INSERT INTO notifications.notifications (user_id, kind, event_key, request_id, grip_reference, data)
           SELECT u.id, 'request.late', 'request.late:' || r.id, r.id, r.grip_reference, $2::jsonb
             FROM requests.requests r
             JOIN identity.users u
               ON (r.first_user_id IS NOT NULL AND u.id = r.first_user_id)
               OR (r.first_user_id IS NULL AND (u.is_admin OR u.savi_operator))
            WHERE r.id = $1 AND u.active AND u.kind = 'person'
              AND NOT EXISTS (SELECT 1 FROM notifications.preferences p
                               WHERE p.user_id = u.id AND p.kind = 'request.late' AND NOT p.enabled)
           ON CONFLICT (event_key, user_id) DO NOTHING
           RETURNING id)
         SELECT id, pg_notify($3, id::text) FROM inserted`,
        [
          request.id,
          JSON.stringify({ status: request.status, targetHours: request.hours } satisfies NotificationData),
          NOTIFICATIONS_CHANNEL,
        ],
      )) as { id: string }[];
      notifications.push(...rows.map((row) => row.id));
    }
    return { requests: late.length, notifications };
  });
}
