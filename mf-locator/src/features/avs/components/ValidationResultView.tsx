import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AddressPartsAnswer, ValidationResult, ValidationVerdict } from '@portal/contracts';
import { AVS_TEXT } from '../../../texts';

const VERDICT_COLOUR: Record<ValidationVerdict, 'success' | 'warning' | 'error'> = {
  valid: 'success',
  probable: 'warning',
  'not found': 'error',
};

export const percent = (confidence: number) => `${Math.round(confidence * 100)} %`;

/** The verdict as a coloured chip. */
export function VerdictChip({ verdict }: { verdict: ValidationVerdict }) {
  return (
    <Chip
      size="small"
      color={VERDICT_COLOUR[verdict]}
      label={AVS_TEXT.verdict[verdict]}
      data-verdict={verdict}
    />
  );
}

const PART_ORDER: (keyof AddressPartsAnswer)[] = [
  'unit',
  'estate',
  'number',
  'street',
  'suburb',
  'town',
  'postalCode',
];

/** A validated address: verdict and confidence, the standardised address, its parts and its parcel. */
export function ValidationResultView({ result }: { result: ValidationResult }) {
  if (result.verdict === 'not found' || !result.parts) {
    return (
      <Stack spacing={1} data-testid="validation-result">
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <VerdictChip verdict="not found" />
        </Stack>
        <Alert severity="warning">{AVS_TEXT.notFound}</Alert>
      </Stack>
    );
  }
  const parts = result.parts;
  return (
    <Stack spacing={1.5} data-testid="validation-result">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <VerdictChip verdict={result.verdict} />
        <Typography variant="body2">
          {AVS_TEXT.confidence}: <strong>{percent(result.confidence)}</strong>
        </Typography>
      </Stack>
      <Box>
        <Typography variant="overline" component="p">
          {AVS_TEXT.standardised}
        </Typography>
        <Typography variant="h6" component="p" data-testid="standardised-address">
          {result.formatted_address}
        </Typography>
        {result.matchType === 'street' && (
          <Typography variant="body2" color="text.secondary">
            {AVS_TEXT.matchedStreet}
          </Typography>
        )}
      </Box>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}
      >
        {PART_ORDER.filter((key) => parts[key]).map((key) => (
          <Box key={key} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {AVS_TEXT.parts[key]}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0 }}>
              {parts[key]}
            </Typography>
          </Box>
        ))}
        <Typography component="dt" variant="body2" color="text.secondary">
          {AVS_TEXT.parcel}
        </Typography>
        <Typography component="dd" variant="body2" sx={{ m: 0 }} data-testid="validated-parcel">
          {result.parcel ? result.parcel.title : AVS_TEXT.noParcel}
        </Typography>
        {result.location && (
          <>
            <Typography component="dt" variant="body2" color="text.secondary">
              GPS
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0 }}>
              {result.location.lat.toFixed(6)}, {result.location.lng.toFixed(6)}
            </Typography>
          </>
        )}
      </Box>
    </Stack>
  );
}
