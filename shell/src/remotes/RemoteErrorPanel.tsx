import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';

export const REMOTE_LOAD_FAILED = 'This part of the portal could not be loaded.';

/** The contained failure of one remote: the header and the rest of the portal keep working. */
export function RemoteErrorPanel({ onRetry, retrying = false }: { onRetry: () => void; retrying?: boolean }) {
  return (
    <Container maxWidth="md" sx={{ py: 6 }}>
      <Alert
        severity="error"
        variant="outlined"
        action={
          <Button color="inherit" size="small" onClick={onRetry} disabled={retrying}>
            {retrying ? 'Retrying…' : 'Retry'}
          </Button>
        }
      >
        {REMOTE_LOAD_FAILED}
      </Alert>
    </Container>
  );
}
