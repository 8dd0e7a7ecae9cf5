import { Link as RouterLink } from '@portal/web-kit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { TEXT } from '@portal/domain';
import { SessionPending, useCurrentUser, useServicesQuery } from '@portal/web-kit';
import { PageLoading } from '../../app/PageLoading';
import { ServiceTile } from './ServiceTile';

export const NO_SERVICES = 'No services are assigned to you yet. Please contact your administrator.';

/** '/': the user's service tiles (spec 03 "Home page"). */
export function HomePage() {
  const { user, isLoading } = useCurrentUser();
  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <Typography variant="h1" sx={{ mb: 3 }}>
        {user ? `Welcome, ${user.name}` : 'Property Portal'}
      </Typography>
      {isLoading ? <SessionPending /> : user ? <ServiceTiles /> : <PleaseLogIn />}
    </Container>
  );
}

function PleaseLogIn() {
  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Typography variant="body1">{TEXT.pleaseLogIn}</Typography>
      <Stack direction="row" spacing={1}>
        <Button component={RouterLink} to="/auth/login" variant="contained">
          Log in
        </Button>
        <Button component={RouterLink} to="/auth/register" variant="outlined">
          Register
        </Button>
      </Stack>
    </Stack>
  );
}

function ServiceTiles() {
  // Asked again on every visit (the tiles drawn from the store meanwhile): the layout asked for the services
  // when the session came, and an administrator may have switched one off since.
  const {
    data: services,
    isLoading,
    isError,
    isFetching,
    refetch,
  } = useServicesQuery(undefined, {
    refetchOnMountOrArgChange: true,
  });
  if (isLoading) return <PageLoading label="Loading services" />;
  if (isError || !services) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void refetch()} disabled={isFetching}>
            Try again
          </Button>
        }
      >
        {TEXT.failedToLoadServices}
      </Alert>
    );
  }
  if (services.length === 0) return <Typography variant="body1">{NO_SERVICES}</Typography>;
  return (
    <Box
      component="ul"
      aria-label="Services"
      sx={{
        listStyle: 'none',
        p: 0,
        m: 0,
        display: 'grid',
        gap: 3,
        gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
      }}
    >
      {services.map((service) => (
        <li key={service._id}>
          <ServiceTile service={service} />
        </li>
      ))}
    </Box>
  );
}
