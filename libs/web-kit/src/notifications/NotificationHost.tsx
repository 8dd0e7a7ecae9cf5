import { lazy, Suspense, useCallback } from 'react';
import { useAppDispatch, useAppSelector } from '../store/store';
import { notify, selectCurrentNotification, type NotifyRequest } from './notificationsSlice';

// Loaded with the first notification, not with every page.
const NotificationSnackbar = lazy(() =>
  import('./NotificationSnackbar').then((module) => ({ default: module.NotificationSnackbar })),
);

/** Shows queued notifications one at a time. Mounted once, by PortalProviders. */
export function NotificationHost() {
  const current = useAppSelector(selectCurrentNotification);
  if (!current) return null;
  return (
    <Suspense fallback={null}>
      <NotificationSnackbar key={current.id} notification={current} />
    </Suspense>
  );
}

/** `notify({ message, severity?, durationMs? })` from any component, shell or remote. */
export function useNotify(): (request: NotifyRequest) => void {
  const dispatch = useAppDispatch();
  return useCallback((request) => void dispatch(notify(request)), [dispatch]);
}
