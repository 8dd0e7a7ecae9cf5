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
      <Alert
        severity={notification.severity}
        variant="filled"
        onClose={close}
        // Read out by screen readers as it appears (issue 24): a save or other news politely (status), a
        // failure or warning at once (alert, MUI's default for every Alert).
        role={notification.severity === 'success' || notification.severity === 'info' ? 'status' : 'alert'}
        sx={{ width: '100%' }}
      >
        {notification.message}
      </Alert>
    </Snackbar>
  );
}
