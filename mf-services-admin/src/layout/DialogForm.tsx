import type { FormEvent, ReactNode } from 'react';
import Box from '@mui/material/Box';

/** A dialog's title, content and actions as one form: Enter submits, and the content still scrolls. */
export function DialogForm({
  onSubmit,
  children,
}: {
  onSubmit: (event?: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  return (
    <Box
      component="form"
      noValidate
      onSubmit={onSubmit}
      sx={{ display: 'flex', flexDirection: 'column', flex: '1 1 auto', minHeight: 0 }}
    >
      {children}
    </Box>
  );
}
