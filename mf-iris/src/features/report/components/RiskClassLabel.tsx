import Box from '@mui/material/Box';
import type { RiskClass } from '@portal/contracts';
import { riskClassColour } from '@portal/domain';

/**
 * A risk class in words and in its colour (the same colours as the PDF). The colour is on the dot only:
 * as the text's colour, the lighter classes (grey, yellow) fall below WCAG's 4.5:1 on white, and the words
 * already say the class.
 */
export function RiskClassLabel({ value, text }: { value: RiskClass | null; text?: string }) {
  const colour = riskClassColour(value);
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, fontWeight: 600 }}>
      <Box
        component="span"
        aria-hidden
        sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: colour, display: 'inline-block' }}
      />
      {text ?? value ?? '—'}
    </Box>
  );
}
