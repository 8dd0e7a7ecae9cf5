import { Type, type Static } from '@sinclair/typebox';
import { nullable } from './common';

/**
 * Notifications for people (issue 24): a requester is told when their request's report is ready, when it
 * is queried or disputed back to them and when their can't-locate request is located; staff when a
 * request is assigned to them (its first QS) and when it is late. Told in the portal (the header's bell,
 * pushed on the realtime socket) and by mail (the requests worker). Each person turns each kind on or off
 * (default on). services/requests serves these routes; libs/db writes the rows with the changes.
 */

export const NOTIFICATION_KINDS = [
  'report.ready',
  'request.queried',
  'request.located',
  'request.assigned',
  'request.late',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The account page's words for each kind (and who it is for). */
export const NOTIFICATION_KIND_LABELS: Readonly<Record<NotificationKind, string>> = {
  'report.ready': "My request's report is ready",
  'request.queried': 'My request is queried or disputed back to me',
  'request.located': "My can't-locate request was located",
  'request.assigned': 'A request is assigned to me (first QS)',
  'request.late': 'A request I look after is late',
};

/** Kinds told to the request's requester (the others go to staff): their link is the requester's list. */
export const REQUESTER_NOTIFICATION_KINDS: readonly NotificationKind[] = [
  'report.ready',
  'request.queried',
  'request.located',
];

export const NOTIFICATION_ROUTES = {
  /** GET: the caller's notifications, newest first, paged; with the unread count. */
  list: '/api/v1.0/request/notifications',
  /** GET: the caller's unread count. */
  unreadCount: '/api/v1.0/request/notifications/unread_count',
  /** POST { ids }: these are read. */
  markRead: '/api/v1.0/request/notifications/read',
  /** POST: every one of the caller's is read. */
  markAllRead: '/api/v1.0/request/notifications/read_all',
  /** GET the caller's preferences; PUT changes some or all. */
  preferences: '/api/v1.0/request/notifications/preferences',
} as const;

/** socket.io event carrying a new Notification to its person's sockets only. */
export const NOTIFICATION_SOCKET_EVENT = 'notification';
/** Redis channel on which the worker announces a new notification (the socket layer relays it). */
export const notificationChannel = (redisPrefix: string) => `${redisPrefix}:notification`;

export const NOTIFICATION_PAGE_SIZES = { default: 20, max: 100 } as const;

const Kind = Type.Union([
  Type.Literal('report.ready'),
  Type.Literal('request.queried'),
  Type.Literal('request.located'),
  Type.Literal('request.assigned'),
  Type.Literal('request.late'),
]);

export const Notification = Type.Object({
  id: Type.String({ format: 'uuid' }),
  kind: Kind,
  requestId: nullable(Type.String({ format: 'uuid' })),
  gripReference: nullable(Type.String()),
  /** What happened, in a sentence ("Your report for GRP-2611-000123 is ready."). */
  title: Type.String(),
  /** The portal page to open (a path on the portal's own origin). */
  link: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  readAt: nullable(Type.String({ format: 'date-time' })),
});
export type Notification = Static<typeof Notification>;

/** Relayed on the realtime channel: the person it is for and the notification. */
export interface NotificationPushedEvent {
  userId: string;
  notification: Notification;
}

export const NotificationListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: NOTIFICATION_PAGE_SIZES.max,
      default: NOTIFICATION_PAGE_SIZES.default,
    }),
  ),
  /** true: only the unread ones. */
  unread: Type.Optional(Type.Boolean()),
});
export type NotificationListQuery = Static<typeof NotificationListQuery>;

export const UnreadCount = Type.Object({ unread: Type.Integer({ minimum: 0 }) });
export type UnreadCount = Static<typeof UnreadCount>;

export const NotificationPage = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  unread: Type.Integer({ minimum: 0 }),
  docs: Type.Array(Notification),
});
export type NotificationPage = Static<typeof NotificationPage>;

export const MarkNotificationsReadBody = Type.Object(
  { ids: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 100, uniqueItems: true }) },
  { additionalProperties: false },
);
export type MarkNotificationsReadBody = Static<typeof MarkNotificationsReadBody>;

export const NotificationPreference = Type.Object({
  kind: Kind,
  label: Type.String(),
  enabled: Type.Boolean(),
});
export type NotificationPreference = Static<typeof NotificationPreference>;

export const NotificationPreferences = Type.Object({ preferences: Type.Array(NotificationPreference) });
export type NotificationPreferences = Static<typeof NotificationPreferences>;

/** PUT preferences: the kinds to change, each on (true) or off (false); kinds not named stay as they are. */
export const UpdateNotificationPreferencesBody = Type.Object(
  {
    preferences: Type.Object(
      Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, Type.Optional(Type.Boolean())])),
      { additionalProperties: false, minProperties: 1 },
    ),
  },
  { additionalProperties: false },
);
export type UpdateNotificationPreferencesBody = {
  preferences: Partial<Record<NotificationKind, boolean>>;
};

/** What a notification row carries beyond its kind and request. */
export interface NotificationData {
  /** request.queried: the query's (or dispute's) comment, and whether the requester's report was disputed. */
  comment?: string | null;
  disputed?: boolean;
  /** request.late: the status it is late in and the target (hours) it passed. */
  status?: string;
  targetHours?: number;
}

/** The sentence of a notification: the bell's line and the mail's subject. */
export function notificationTitle(
  kind: NotificationKind,
  gripReference: string | null,
  data: NotificationData = {},
): string {
  const ref = gripReference ?? 'your request';
  switch (kind) {
    case 'report.ready':
      return `The report for ${ref} is ready.`;
    case 'request.queried':
      return data.disputed ? `${ref} was disputed and is back in Query.` : `${ref} was queried.`;
    case 'request.located':
      return `Your can't-locate request ${ref} was located.`;
    case 'request.assigned':
      return `${ref} is assigned to you (first QS).`;
    case 'request.late':
      return data.status
        ? `${ref} is late: over ${data.targetHours} hours in queue at ${data.status}.`
        : `${ref} is late.`;
  }
}

/** The portal page a notification opens: the requester's list, or the request console for staff. */
export function notificationLink(kind: NotificationKind, gripReference: string | null): string {
  const page = REQUESTER_NOTIFICATION_KINDS.includes(kind) ? '/requests' : '/requests/admin';
  // grip_reference: both pages open on that one request (mf-requests-admin's list and console).
  return gripReference ? `${page}?grip_reference=${encodeURIComponent(gripReference)}` : page;
}

/**
 * The notification a status change makes for the requester, or none (pure; services/requests' changes,
 * the address editor's can't-locate and IRiS's PDF use it):
 * - into Query: queried (or disputed, when the change was the dispute);
 * - a can't-locate request into Finalised: located;
 * - into Delivered, or into Finalised not from Delivered, with a report PDF: its report is ready.
 */
export function statusNotificationKind(change: {
  from: string;
  to: string;
  cantLocate: boolean;
  hasReport: boolean;
}): NotificationKind | null {
  if (change.from === change.to) return null;
  if (change.to === 'Query') return 'request.queried';
  if (change.cantLocate && change.to === 'Finalised') return 'request.located';
  const ready = change.to === 'Delivered' || (change.to === 'Finalised' && change.from !== 'Delivered');
  return ready && change.hasReport ? 'report.ready' : null;
}
