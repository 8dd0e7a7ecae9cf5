import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { API_KEYS_TEXT as T } from '../../../texts';

/**
 * The group's limit of calls per minute per key: administrators change it (empty: the portal's default),
 * a group's admin sees it.
 */
export function RateLimitForm({
  limit,
  isDefault,
  editable,
  saving,
  onSave,
}: {
  limit: number;
  isDefault: boolean;
  editable: boolean;
  saving: boolean;
  onSave: (limit: number | null) => void;
}) {
  const [value, setValue] = useState(isDefault ? '' : String(limit));
  const number = value.trim() === '' ? null : Number(value);
  const invalid = number !== null && (!Number.isInteger(number) || number < 1);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!invalid) onSave(number);
  };
  if (!editable)
    return (
      <Typography>
        {T.rateLimit}: {isDefault ? T.rateLimitDefault(limit) : limit}
      </Typography>
    );
  return (
    <Box component="form" noValidate onSubmit={submit}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <TextField
          size="small"
          type="number"
          label={T.rateLimit}
          value={value}
          placeholder={String(limit)}
          onChange={(event) => setValue(event.target.value)}
          error={invalid}
          helperText={isDefault ? T.rateLimitDefault(limit) : T.rateLimitHelp}
          slotProps={{ htmlInput: { min: 1, step: 1 } }}
        />
        <Button type="submit" variant="outlined" disabled={saving || invalid}>
          {T.saveLimit}
        </Button>
      </Stack>
    </Box>
  );
}
