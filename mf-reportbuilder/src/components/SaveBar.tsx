import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { SaveMessage } from '../report/useReport';
import { TEXT } from '../texts';

/** The page's save button, its unsaved state and what a save tells the user. */
export function SaveBar({
  dirty,
  disabled,
  onSave,
  message,
  children,
}: {
  dirty: boolean;
  disabled?: boolean;
  onSave: () => Promise<unknown>;
  message: SaveMessage | null;
  children?: React.ReactNode;
}) {
  const [saving, setSaving] = useState(false);
  return (
    <Stack spacing={1} sx={{ my: 2 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Button
          variant="contained"
          disabled={disabled || saving || !dirty}
          onClick={async () => {
            setSaving(true);
            try {
              await onSave();
            } finally {
              setSaving(false);
            }
          }}
        >
          {saving ? TEXT.saving : TEXT.save}
        </Button>
        {dirty && <Chip color="warning" label={TEXT.unsaved} />}
        {children}
      </Stack>
      {message && <MessageAlert message={message} />}
    </Stack>
  );
}

/** A save's message; a success goes after 2 s (spec 02 §9 "saved banner 2 s"). */
export function MessageAlert({ message }: { message: SaveMessage }) {
  const [shown, setShown] = useState(true);
  useEffect(() => {
    setShown(true);
    if (message.severity !== 'success') return undefined;
    const timer = setTimeout(() => setShown(false), 2000);
    return () => clearTimeout(timer);
  }, [message]);
  if (!shown) return null;
  const extra = (message.messages ?? []).filter((m) => m !== message.text);
  return (
    <Alert severity={message.severity} role={message.severity === 'success' ? 'status' : 'alert'}>
      {message.text}
      {extra.length > 0 && (
        <ul style={{ margin: 0 }}>
          {extra.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
    </Alert>
  );
}
