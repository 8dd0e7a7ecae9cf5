import type { ReactNode } from 'react';
import Button from '@mui/material/Button';

/** The account forms' one submit button: full width, disabled while the form is being sent. */
export function SubmitButton({ submitting, children }: { submitting: boolean; children: ReactNode }) {
  return (
    <Button type="submit" variant="contained" fullWidth size="large" sx={{ mt: 2 }} disabled={submitting}>
      {children}
    </Button>
  );
}
