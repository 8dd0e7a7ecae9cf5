import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useCurrentUser } from '@portal/web-kit';

/** Set at build time, so a test can rebuild this remote alone and see the new stamp. */
const BUILD_STAMP = process.env.TEST_REMOTE_STAMP;

/**
 * Reads the current user from the shell's store through web-kit's hook: if web-kit (with react-redux
 * inside it) or React were not shared singletons, this would fail (no store) or show no user.
 */
export function TestRemotePage() {
  const { user, isLoading } = useCurrentUser();
  return (
    <Container maxWidth="md" sx={{ py: 4 }}>
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography variant="h1" gutterBottom>
          Test remote
        </Typography>
        <Typography data-testid="test-remote-stamp">Test remote build {BUILD_STAMP}</Typography>
        <Typography data-testid="test-remote-user">
          {isLoading ? 'Checking the session…' : user ? `Signed in as ${user.name}` : 'Not signed in'}
        </Typography>
      </Paper>
    </Container>
  );
}
