import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { REQUEST_ADMIN_API, type RequestRow } from '@portal/contracts';
import { formatSaDateTime } from '@portal/domain';
import { errorMessages, useNotify } from '@portal/web-kit';
import {
  useChangeRequestMutation,
  useClientReferencesQuery,
  useRequestHistoryQuery,
} from '../../../api/requestsApi';

/** A row's detail: its history (who, when, from → to) and its client references, editable. */
export function RequestDetail({ row, onClose }: { row: RequestRow | null; onClose: () => void }) {
  return (
    <Drawer
      anchor="right"
      open={row !== null}
      onClose={onClose}
      // A modal panel: named as a dialog so a screen reader says what opened (MUI traps the focus in it and
      // gives it back to the Details button on close).
      slotProps={{
        paper: {
          role: 'dialog',
          'aria-modal': true,
          'aria-label': row ? `Request ${row.gripReference}` : undefined,
        },
      }}
    >
      {row && (
        <Box sx={{ width: 460, p: 3 }}>
          <Typography variant="h2" sx={{ fontSize: 20, mb: 0.5 }}>
            {row.gripReference}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {row.address}
          </Typography>
          <References row={row} />
          <Divider sx={{ my: 2 }} />
          <History id={row.requestID} />
        </Box>
      )}
    </Drawer>
  );
}

function History({ id }: { id: string }) {
  const history = useRequestHistoryQuery(id);
  return (
    <Box>
      <Typography variant="h3" sx={{ fontSize: 17, mb: 1 }}>
        History
      </Typography>
      {history.data?.history.length === 0 && <Typography color="text.secondary">No changes yet.</Typography>}
      <List dense aria-label="History">
        {(history.data?.history ?? []).map((line, index) => (
          <ListItem key={`${line.at}-${index}`} disableGutters>
            <ListItemText
              primary={`${line.field}: ${line.from ?? '—'} → ${line.to ?? '—'}`}
              secondary={`${formatSaDateTime(line.at)} · ${line.user}${line.comment ? ` · ${line.comment}` : ''}`}
            />
          </ListItem>
        ))}
      </List>
    </Box>
  );
}

function References({ row }: { row: RequestRow }) {
  const references = useClientReferencesQuery(row.requestID);
  const [change, { isLoading }] = useChangeRequestMutation();
  const notify = useNotify();
  const [values, setValues] = useState<Record<string, string>>({});
  useEffect(() => {
    if (references.data) setValues(references.data.clientReferences);
  }, [references.data]);
  const keys = [
    ...(references.data?.fields ?? []),
    ...Object.keys(values)
      .filter((key) => !(references.data?.fields ?? []).some((field) => field.key === key))
      .map((key) => ({ key, label: key })),
  ];
  return (
    <Box>
      <Typography variant="h3" sx={{ fontSize: 17, mb: 1 }}>
        Client references
      </Typography>
      <Stack spacing={1.5}>
        {keys.map((field) => (
          <TextField
            key={field.key}
            size="small"
            label={field.label}
            value={values[field.key] ?? ''}
            onChange={(event) => setValues({ ...values, [field.key]: event.target.value })}
          />
        ))}
        <Button
          variant="outlined"
          disabled={isLoading}
          onClick={async () => {
            const result = await change({
              url: REQUEST_ADMIN_API.references,
              id: row.requestID,
              body: { _id: row.requestID, clientReferences: values },
            });
            if ('error' in result)
              notify({ message: errorMessages(result.error).join(' '), severity: 'error' });
            else notify({ message: 'Client references saved.', severity: 'success' });
          }}
        >
          Save references
        </Button>
      </Stack>
    </Box>
  );
}
