import { useEffect, useRef } from 'react';
import { io } from 'socket.io-client';
import { NOTIFICATION_SOCKET_EVENT, REALTIME_PATH, type Notification } from '@portal/contracts';
import { useAppDispatch } from '@portal/web-kit';
import { notificationsApi } from './notificationsApi';

/**
 * The realtime socket's notifications (services/requests relays each to its person's sockets only): a new
 * one refetches the bell's count and list and is handed to `onNotification` (the bell announces it). A
 * reconnect refetches too (one may have come meanwhile). socket.io reconnects by itself.
 */
export function useNotificationSocket(
  enabled: boolean,
  onNotification: (notification: Notification) => void,
) {
  const dispatch = useAppDispatch();
  const latest = useRef(onNotification);
  latest.current = onNotification;
  useEffect(() => {
    if (!enabled) return;
    const socket = io({
      path: REALTIME_PATH,
      transports: ['websocket'],
      withCredentials: true,
      timeout: 5_000,
    });
    let connectedBefore = false;
    const refetch = () => dispatch(notificationsApi.util.invalidateTags(['Notifications']));
    socket.on('connect', () => {
      if (connectedBefore) refetch();
      connectedBefore = true;
    });
    socket.on(NOTIFICATION_SOCKET_EVENT, (notification: Notification) => {
      refetch();
      latest.current(notification);
    });
    return () => {
      socket.close();
    };
  }, [enabled, dispatch]);
}
