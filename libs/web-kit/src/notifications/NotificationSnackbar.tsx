import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { useAppDispatch } from '../store/store';
import { dismissed, type PortalNotification } from './notificationsSlice';

/** One notification, for its own duration. */
export function NotificationSnackbar({ notification }: { notification: PortalNotification }) {
  const dispatch = useAppDispatch();
  const close = () => dispatch(dismissed(notification.id));
  return (
    <Snackbar
      open
      autoHideDuration={notification.durationMs}
      onClose={(_event, reason) => reason !== 'clickaway' && close()}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert severity={notification.severity} variant="filled" onClose={close} sx={{ width: '100%' }}>
        {notification.message}
      </Alert>
    </Snackbar>
  );
}
