import { useEffect } from 'react';
import { useRouteError } from '@portal/web-kit';
import Button from '@mui/material/Button';
import { FailurePanel } from './FailurePanel';

export const PAGE_FAILED = 'This page could not be shown.';

/**
 * Error element of the shell's pages, inside the frame (the header stays). A page whose code failed
 * to download is fetched again by reloading.
 */
export function PageError() {
  const error = useRouteError();
  useEffect(() => console.error('A page failed.', error), [error]);
  return (
    <FailurePanel
      message={PAGE_FAILED}
      action={
        <Button color="inherit" size="small" onClick={() => window.location.reload()}>
          Reload
        </Button>
      }
    />
  );
}
