import {
  MarkNotificationsReadBody,
  NOTIFICATION_PAGE_SIZES,
  NOTIFICATION_ROUTES,
  NotificationListQuery,
  NotificationPage,
  NotificationPreferences,
  UnreadCount,
  UpdateNotificationPreferencesBody,
  NOTIFICATION_KINDS,
  errorAnswers,
} from '@portal/contracts';
import { badRequest, callerHooks, type TypedFastify } from '@portal/server-kit';
import type { RequestsContext } from '../context';
import { listNotifications, markRead, readPreferences, unreadCount, writePreferences } from './store';

const ERRORS = errorAnswers(400, 401, 403);

/** A PUT preferences body's problem in words: no kinds named, or a kind that does not exist. */
export function preferencesProblem(body: unknown): string | null {
  const preferences = (body as { preferences?: unknown } | null)?.preferences;
  if (!preferences || typeof preferences !== 'object' || Array.isArray(preferences)) return null;
  const kinds = Object.keys(preferences);
  if (kinds.length === 0) return 'Name at least one kind of notification to turn on or off.';
  const unknown = kinds.filter((kind) => !(NOTIFICATION_KINDS as readonly string[]).includes(kind));
  return unknown.length > 0
    ? `There is no notification kind ${unknown.map((kind) => `'${kind}'`).join(', ')}; the kinds are ${NOTIFICATION_KINDS.join(', ')}.`
    : null;
}
const TAGS = ['Notifications'];

/**
 * The caller's own notifications (issue 24): the header bell's list and unread count, marking read, and
 * the account page's preferences. Every signed-in person, their own rows only (the user id is the
 * session's, never a parameter); API keys are refused by the route table (they are told nothing).
 */
export async function notificationRoutes(app: TypedFastify, ctx: RequestsContext): Promise<void> {
  const onRequest = callerHooks(app, ctx.ds);

  app.get(
    NOTIFICATION_ROUTES.list,
    {
      onRequest,
      schema: {
        summary: 'List my notifications',
        description: 'Newest first, paged (limit at most 100); `unread=true` lists only the unread ones.',
        tags: TAGS,
        querystring: NotificationListQuery,
        response: { 200: NotificationPage, ...ERRORS },
      },
    },
    async (request) =>
      listNotifications(ctx.ds, request.caller.id, {
        page: request.query.page ?? 1,
        limit: request.query.limit ?? NOTIFICATION_PAGE_SIZES.default,
        unreadOnly: request.query.unread === true,
      }),
  );

  app.get(
    NOTIFICATION_ROUTES.unreadCount,
    {
      onRequest,
      schema: {
        summary: 'Count my unread notifications',
        description: "The caller's unread notifications, for the header bell's count.",
        tags: TAGS,
        response: { 200: UnreadCount, ...ERRORS },
      },
    },
    async (request) => ({ unread: await unreadCount(ctx.ds, request.caller.id) }),
  );

  app.post(
    NOTIFICATION_ROUTES.markRead,
    {
      onRequest,
      schema: {
        summary: 'Mark notifications read',
        description:
          'Marks the named notifications of the caller read (ids of others are ignored); answers the unread count.',
        tags: TAGS,
        body: MarkNotificationsReadBody,
        response: { 200: UnreadCount, ...ERRORS },
      },
    },
    async (request) => {
      await markRead(ctx.ds, request.caller.id, request.body.ids);
      return { unread: await unreadCount(ctx.ds, request.caller.id) };
    },
  );

  app.post(
    NOTIFICATION_ROUTES.markAllRead,
    {
      onRequest,
      schema: {
        summary: 'Mark all my notifications read',
        description: 'Marks every notification of the caller read; answers the unread count (0).',
        tags: TAGS,
        response: { 200: UnreadCount, ...ERRORS },
      },
    },
    async (request) => {
      await markRead(ctx.ds, request.caller.id, 'all');
      return { unread: 0 };
    },
  );

  app.get(
    NOTIFICATION_ROUTES.preferences,
    {
      onRequest,
      schema: {
        summary: 'Read my notification preferences',
        description: 'Every kind of notification, with whether it is on (the default) or turned off.',
        tags: TAGS,
        response: { 200: NotificationPreferences, ...ERRORS },
      },
    },
    async (request) => ({ preferences: await readPreferences(ctx.ds, request.caller.id) }),
  );

  app.put(
    NOTIFICATION_ROUTES.preferences,
    {
      onRequest,
      // Named here, before the schema (which would drop an unknown kind silently: removeAdditional).
      preValidation: async (request) => {
        const problem = preferencesProblem(request.body);
        if (problem) throw badRequest(problem);
      },
      schema: {
        summary: 'Change my notification preferences',
        description:
          'Turns the named kinds on (true) or off (false), mail and the bell alike; kinds not named stay as they are.',
        tags: TAGS,
        body: UpdateNotificationPreferencesBody,
        response: { 200: NotificationPreferences, ...ERRORS },
      },
    },
    async (request) => {
      const body = request.body as UpdateNotificationPreferencesBody;
      await writePreferences(ctx.ds, request.caller.id, body.preferences);
      return { preferences: await readPreferences(ctx.ds, request.caller.id) };
    },
  );
}
