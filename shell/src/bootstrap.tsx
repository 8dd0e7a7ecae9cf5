import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from '@portal/web-kit';
import type { RemoteEntry } from '@portal/contracts';
import {
  adoptEarlySession,
  createPortalStore,
  LOGIN_PATH,
  PortalProviders,
  setLoginRedirect,
} from '@portal/web-kit';
import { createPortalRouter } from './app/router';
import { loadFederatedRoutes } from './remotes/federation';
import { RemoteRoutes } from './remotes/remoteRoutes';

/**
 * Starts the portal once the remotes list is in (the entry script has registered them with the federation
 * runtime), with the users/me call the entry script started.
 */
export async function start(remotesList: Promise<RemoteEntry[]>, session: Promise<Response>): Promise<void> {
  adoptEarlySession(session);
  const remotes = await remotesList;

  const store = createPortalStore();
  const router = createPortalRouter(new RemoteRoutes(remotes, loadFederatedRoutes));
  // A 401 goes to the login page inside the app, remembering where the user was.
  setLoginRedirect(() =>
    router.navigate(LOGIN_PATH, { replace: true, state: { from: router.state.location } }),
  );

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <PortalProviders store={store}>
        <RouterProvider router={router} />
      </PortalProviders>
    </StrictMode>,
  );
}
