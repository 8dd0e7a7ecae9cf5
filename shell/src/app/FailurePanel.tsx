import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Container from '@mui/material/Container';

/** A failure shown in the page's place, inside the frame (the header stays), with its one way out. */
export function FailurePanel({ message, action }: { message: string; action: ReactNode }) {
  return (
    <Container maxWidth="md" sx={{ py: 6 }}>
      <Alert severity="error" variant="outlined" action={action}>
        {message}
      </Alert>
    </Container>
  );
}
