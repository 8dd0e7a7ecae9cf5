import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

interface QueuePageProps {
  title: string;
  subtitle?: ReactNode;
  /** On the right of the title. */
  actions?: ReactNode;
  children: ReactNode;
}

/** The frame of the remote's pages: title, actions, content. */
export function QueuePage({ title, subtitle, actions, children }: QueuePageProps) {
  return (
    <Container maxWidth={false} sx={{ py: 3, maxWidth: 1800 }}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ mb: 2, alignItems: { md: 'flex-end' }, justifyContent: 'space-between' }}
      >
        <Box>
          <Typography variant="h1">{title}</Typography>
          {subtitle && (
            <Typography color="text.secondary" sx={{ mt: 0.5 }}>
              {subtitle}
            </Typography>
          )}
        </Box>
        {actions}
      </Stack>
      {children}
    </Container>
  );
}
