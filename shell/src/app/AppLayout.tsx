import { Outlet, ScrollRestoration, useNavigation } from '@portal/web-kit';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import { Header } from '../header/Header';

/** The frame around every page: header on top, a progress line while a page (or remote) loads. */
export function AppLayout() {
  const navigation = useNavigation();
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
        <Outlet />
      </Box>
      <ScrollRestoration />
    </Box>
  );
}
