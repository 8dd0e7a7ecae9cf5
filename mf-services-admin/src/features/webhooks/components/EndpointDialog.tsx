import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { WEBHOOK_EVENTS, type WebhookEndpoint, type WebhookEvent } from '@portal/contracts';
import { WEBHOOKS_TEXT } from '../../../texts';

const T = WEBHOOKS_TEXT.form;

export interface EndpointForm {
  url: string;
  description: string;
  events: WebhookEvent[];
}

/**
 * Adding or editing an endpoint: its URL, a description and the events it receives (checkboxes, at least
 * one). The service checks the URL (a private address is refused with its reason, shown here).
 */
export function EndpointDialog({
  editing,
  failure,
  saving,
  onSave,
  onClose,
}: {
  /** The endpoint being edited; null to add one. */
  editing: WebhookEndpoint | null;
  failure: string | null;
  saving: boolean;
  onSave: (form: EndpointForm) => void;
  onClose: () => void;
}) {
  const [url, setUrl] = useState(editing?.url ?? 'https://');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [events, setEvents] = useState<WebhookEvent[]>(
    (editing?.events as WebhookEvent[] | undefined) ?? [...WEBHOOK_EVENTS],
  );
  const noEvents = events.length === 0;
  const toggle = (event: WebhookEvent, on: boolean) =>
    setEvents((current) => WEBHOOK_EVENTS.filter((e) => (e === event ? on : current.includes(e))));
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="endpoint-dialog-title">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!noEvents) onSave({ url: url.trim(), description: description.trim(), events });
        }}
      >
        <DialogTitle id="endpoint-dialog-title">{editing ? T.editTitle : T.createTitle}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {failure && <Alert severity="error">{failure}</Alert>}
            <TextField
              label={T.url}
              value={url}
              onChange={(event) => setUrl(event.target.value)}
              helperText={T.urlHelp}
              required
              autoFocus
              type="url"
              fullWidth
            />
            <TextField
              label={T.description}
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              slotProps={{ htmlInput: { maxLength: 500 } }}
              fullWidth
            />
            <FormControl component="fieldset" error={noEvents}>
              <FormLabel component="legend">{T.events}</FormLabel>
              <FormGroup>
                {WEBHOOK_EVENTS.map((event) => (
                  <FormControlLabel
                    key={event}
                    control={
                      <Checkbox checked={events.includes(event)} onChange={(_e, on) => toggle(event, on)} />
                    }
                    label={`${WEBHOOKS_TEXT.events[event]} (${event})`}
                  />
                ))}
              </FormGroup>
              {noEvents && <FormHelperText>{T.eventsHelp}</FormHelperText>}
            </FormControl>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{T.cancel}</Button>
          <Button type="submit" variant="contained" disabled={saving || noEvents}>
            {editing ? T.save : T.create}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
