import {
  NOTIFICATION_ROUTES,
  type NotificationPage,
  type NotificationPreferences,
  type UnreadCount,
  type UpdateNotificationPreferencesBody,
} from '@portal/contracts';
import { baseApi } from '@portal/web-kit';

/**
 * The person's notifications (issue 24; services/requests serves them): the header bell's list and unread
 * count, marking read, and the notification settings page's preferences. New ones arrive on the realtime
 * socket (useNotificationSocket), which refetches these.
 */
export const notificationsApi = baseApi
  .enhanceEndpoints({ addTagTypes: ['Notifications', 'NotificationPreferences'] })
  .injectEndpoints({
    endpoints: (build) => ({
      notifications: build.query<NotificationPage, { page?: number; limit?: number }>({
        query: ({ page = 1, limit = 10 }) => `${NOTIFICATION_ROUTES.list}?page=${page}&limit=${limit}`,
        providesTags: ['Notifications'],
      }),
      unreadNotifications: build.query<UnreadCount, void>({
        query: () => NOTIFICATION_ROUTES.unreadCount,
        providesTags: ['Notifications'],
      }),
      markNotificationsRead: build.mutation<UnreadCount, string[]>({
        query: (ids) => ({ url: NOTIFICATION_ROUTES.markRead, method: 'POST', body: { ids } }),
        invalidatesTags: ['Notifications'],
      }),
      markAllNotificationsRead: build.mutation<UnreadCount, void>({
        query: () => ({ url: NOTIFICATION_ROUTES.markAllRead, method: 'POST' }),
        invalidatesTags: ['Notifications'],
      }),
      notificationPreferences: build.query<NotificationPreferences, void>({
        query: () => NOTIFICATION_ROUTES.preferences,
        providesTags: ['NotificationPreferences'],
      }),
      updateNotificationPreferences: build.mutation<
        NotificationPreferences,
        UpdateNotificationPreferencesBody['preferences']
      >({
        query: (preferences) => ({
          url: NOTIFICATION_ROUTES.preferences,
          method: 'PUT',
          body: { preferences },
        }),
        invalidatesTags: ['NotificationPreferences'],
      }),
    }),
  });

export const {
  useNotificationsQuery,
  useUnreadNotificationsQuery,
  useMarkNotificationsReadMutation,
  useMarkAllNotificationsReadMutation,
  useNotificationPreferencesQuery,
  useUpdateNotificationPreferencesMutation,
} = notificationsApi;
