import type { ReactNode } from 'react';
import { Link as RouterLink } from '@portal/web-kit';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { PATHS } from '../paths';

interface AdminPageProps {
  title: string;
  subtitle?: ReactNode;
  /** Buttons on the right of the title. */
  actions?: ReactNode;
  /** Whether to show the way back to the services-administration screen. */
  backToAdmin?: boolean;
  children: ReactNode;
}

/** The frame of every services-administration page: breadcrumbs, title, actions, content. */
export function AdminPage({ title, subtitle, actions, backToAdmin = false, children }: AdminPageProps) {
  return (
    <Container maxWidth={false} sx={{ py: 3, maxWidth: 1680 }}>
      {backToAdmin && (
        <Breadcrumbs aria-label="Breadcrumbs" sx={{ mb: 1 }}>
          <Link component={RouterLink} to={PATHS.admin} underline="hover" color="inherit">
            Services administration
          </Link>
          <Typography color="text.primary">{title}</Typography>
        </Breadcrumbs>
      )}
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ mb: 2.5, alignItems: { md: 'flex-end' }, justifyContent: 'space-between' }}
      >
        <Box>
          <Typography variant="h1">{title}</Typography>
          {subtitle && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {subtitle}
            </Typography>
          )}
        </Box>
        {actions && (
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
            {actions}
          </Stack>
        )}
      </Stack>
      {children}
    </Container>
  );
}
