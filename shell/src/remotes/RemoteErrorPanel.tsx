import Button from '@mui/material/Button';
import { FailurePanel } from '../app/FailurePanel';

export const REMOTE_LOAD_FAILED = 'This part of the portal could not be loaded.';

/** The contained failure of one remote: the header and the rest of the portal keep working. */
export function RemoteErrorPanel({ onRetry, retrying = false }: { onRetry: () => void; retrying?: boolean }) {
  return (
    <FailurePanel
      message={REMOTE_LOAD_FAILED}
      action={
        <Button color="inherit" size="small" onClick={onRetry} disabled={retrying}>
          {retrying ? 'Retrying…' : 'Retry'}
        </Button>
      }
    />
  );
}
