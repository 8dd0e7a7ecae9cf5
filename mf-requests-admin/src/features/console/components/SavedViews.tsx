import { useState } from 'react';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { SavedView } from '@portal/contracts';
import { useNotify } from '@portal/web-kit';
import { useDeleteViewMutation, useSaveViewMutation, useSavedViewsQuery } from '../../../api/requestsApi';

/** Beyond the spec: a user's named filter views of the console (saved on the server, per user). */
export function SavedViews({
  state,
  onApply,
}: {
  state: Record<string, unknown>;
  onApply: (view: SavedView) => void;
}) {
  const views = useSavedViewsQuery();
  const [save] = useSaveViewMutation();
  const [remove] = useDeleteViewMutation();
  const notify = useNotify();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState('');
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <TextField
        select
        size="small"
        label="Saved view"
        value={chosen}
        sx={{ minWidth: 180 }}
        onChange={(event) => {
          setChosen(event.target.value);
          const view = views.data?.find((item) => item.id === event.target.value);
          if (view) onApply(view);
        }}
      >
        <MenuItem value="">None</MenuItem>
        {(views.data ?? []).map((view) => (
          <MenuItem key={view.id} value={view.id}>
            {view.name}
          </MenuItem>
        ))}
      </TextField>
      <Button
        disabled={!chosen}
        onClick={async () => {
          await remove(chosen);
          setChosen('');
        }}
      >
        Delete view
      </Button>
      <TextField
        size="small"
        label="View name"
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <Button
        variant="outlined"
        disabled={name.trim() === ''}
        onClick={async () => {
          const result = await save({ name: name.trim(), state });
          if ('error' in result) notify({ message: 'The view was not saved.', severity: 'error' });
          else {
            notify({ message: `View '${name.trim()}' saved.`, severity: 'success' });
            setName('');
          }
        }}
      >
        Save view
      </Button>
    </Stack>
  );
}
