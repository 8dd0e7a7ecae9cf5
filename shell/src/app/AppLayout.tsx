import {
  Outlet,
  ScrollRestoration,
  useCurrentUser,
  useNavigation,
  useRouterInitialized,
  useServicesQuery,
} from '@portal/web-kit';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import { Header } from '../header/Header';
import { PageLoading } from './PageLoading';

/**
 * The frame around every page: header on top, a progress line while a page (or remote) loads.
 *
 * It is also the router's fallback while the first page's code loads (routes.tsx, HydrateFallback), with a
 * progress bar for the page: the header paints as soon as the shell runs instead of after the page's
 * remote has come in, and, being the same component in the same place, React keeps it (the header and its
 * notification socket are not mounted twice) when the page arrives. Until then the outlet is not shown:
 * the router would give it the routes known so far, the not-found page for any remote's path.
 */
export function AppLayout() {
  const navigation = useNavigation();
  const started = useRouterInitialized();
  // Every signed-in page waits for the user's services (RequireService, the home page's tiles): asked for
  // as soon as the session is known, beside the page's code, instead of once that code has run.
  const { user } = useCurrentUser();
  useServicesQuery(undefined, { skip: !user });
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <Header />
      {navigation.state !== 'idle' && (
        <LinearProgress
          aria-label="Loading page"
          sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: 'tooltip' }}
        />
      )}
      <Box component="main" sx={{ flexGrow: 1 }}>
        {started ? <Outlet /> : <PageLoading />}
      </Box>
      {started && <ScrollRestoration />}
    </Box>
  );
}
