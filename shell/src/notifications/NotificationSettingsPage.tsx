import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { NotificationKind } from '@portal/contracts';
import {
  useNotificationPreferencesQuery,
  useUpdateNotificationPreferencesMutation,
} from './notificationsApi';

/**
 * "My account → Notifications" (issue 24, /account/notifications): which notifications the person gets,
 * by mail and in the header's bell alike. Each box saves at once (the server keeps the preferences; all
 * on until turned off); "Turn all off" turns every kind off in one call. The outcome is announced.
 */
export function NotificationSettingsPage() {
  const { data, isLoading, isError } = useNotificationPreferencesQuery();
  const [update, { isLoading: saving }] = useUpdateNotificationPreferencesMutation();
  const [message, setMessage] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);

  const save = async (changes: Partial<Record<NotificationKind, boolean>>, text: string) => {
    try {
      await update(changes).unwrap();
      setMessage({ severity: 'success', text });
    } catch {
      setMessage({
        severity: 'error',
        text: 'Your notification settings could not be saved. Please try again.',
      });
    }
  };

  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', py: 4, px: 2 }}>
      <Typography component="h1" variant="h5" gutterBottom>
        Notifications
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        Choose what you are told about, by e-mail and in the bell at the top of the page.
      </Typography>
      {isLoading && <LinearProgress aria-label="Loading your notification settings" />}
      {isError && <Alert severity="error">Your notification settings could not be loaded.</Alert>}
      {data && (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <FormGroup>
            {data.preferences.map((preference) => (
              <FormControlLabel
                key={preference.kind}
                control={
                  <Checkbox
                    checked={preference.enabled}
                    disabled={saving}
                    onChange={(event) =>
                      void save(
                        { [preference.kind]: event.target.checked },
                        `${preference.label}: ${event.target.checked ? 'on' : 'off'}.`,
                      )
                    }
                  />
                }
                label={preference.label}
              />
            ))}
          </FormGroup>
          <Button
            sx={{ mt: 2 }}
            variant="outlined"
            disabled={saving || data.preferences.every((preference) => !preference.enabled)}
            onClick={() =>
              void save(
                Object.fromEntries(data.preferences.map((preference) => [preference.kind, false])),
                'Every notification is off.',
              )
            }
          >
            Turn all off
          </Button>
        </Paper>
      )}
      <Box role="status" aria-live="polite" sx={{ mt: 2 }}>
        {message && <Alert severity={message.severity}>{message.text}</Alert>}
      </Box>
    </Box>
  );
}
