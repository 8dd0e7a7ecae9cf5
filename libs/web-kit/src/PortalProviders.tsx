import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import type { PortalStore } from './store/store';
import { portalTheme } from './theme/theme';
import { NotificationHost } from './notifications/NotificationHost';

/** The store, the theme and the notification host: what every portal screen runs inside. */
export function PortalProviders({ store, children }: { store: PortalStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      <ThemeProvider theme={portalTheme}>
        <CssBaseline />
        {children}
        <NotificationHost />
      </ThemeProvider>
    </Provider>
  );
}
