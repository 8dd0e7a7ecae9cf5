import { useEffect } from 'react';
import { useRouteError } from '@portal/web-kit';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';

export const PAGE_FAILED = 'This page could not be shown.';

/**
 * Error element of the shell's pages, inside the frame (the header stays). A page whose code failed
 * to download is fetched again by reloading.
 */
export function PageError() {
  const error = useRouteError();
  useEffect(() => console.error('A page failed.', error), [error]);
  return (
    <Container maxWidth="md" sx={{ py: 6 }}>
      <Alert
        severity="error"
        variant="outlined"
        action={
          <Button color="inherit" size="small" onClick={() => window.location.reload()}>
            Reload
          </Button>
        }
      >
        {PAGE_FAILED}
      </Alert>
    </Container>
  );
}
