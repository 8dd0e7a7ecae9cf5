import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { MAX_QUERY_LENGTH, type ValidationResult } from '@portal/contracts';
import { errorMessages } from '@portal/web-kit';
import { useValidateAddressMutation } from '../../../api/locatorApi';
import { AVS_TEXT } from '../../../texts';
import { ValidationMap } from './ValidationMap';
import { ValidationResultView } from './ValidationResultView';

/** One typed address validated: the standardised address, its parcel and confidence, and the point on the map. */
export function SingleValidation({ onCantLocate }: { onCantLocate: (address: string) => void }) {
  const [address, setAddress] = useState('');
  const [validate, { isLoading, error }] = useValidateAddressMutation();
  const [result, setResult] = useState<ValidationResult | null>(null);
  const [version, setVersion] = useState(0);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!address.trim()) return;
    const answer = await validate({ address })
      .unwrap()
      .catch(() => null);
    setResult(answer?.result ?? null);
    setVersion((v) => v + 1);
  };

  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '5fr 7fr' } }}>
      <Box>
        <Stack spacing={2} component="form" onSubmit={onSubmit} noValidate>
          <TextField
            label={AVS_TEXT.addressLabel}
            placeholder={AVS_TEXT.addressPlaceholder}
            value={address}
            onChange={(event) => setAddress(event.target.value)}
            slotProps={{ htmlInput: { maxLength: MAX_QUERY_LENGTH } }}
            fullWidth
            autoFocus
          />
          <Button type="submit" variant="contained" disabled={isLoading || !address.trim()}>
            {isLoading ? AVS_TEXT.validating : AVS_TEXT.validate}
          </Button>
          {error && !isLoading && <Alert severity="error">{errorMessages(error).join(' ')}</Alert>}
          {result && !isLoading && !error && (
            <Paper variant="outlined" sx={{ p: 2 }}>
              <ValidationResultView result={result} />
              {result.verdict === 'not found' && (
                <Button sx={{ mt: 1 }} onClick={() => onCantLocate(result.query)}>
                  {AVS_TEXT.logCantLocate}
                </Button>
              )}
            </Paper>
          )}
        </Stack>
      </Box>
      <ValidationMap result={error ? null : result} version={version} />
    </Box>
  );
}
