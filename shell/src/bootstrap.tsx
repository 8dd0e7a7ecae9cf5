import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from '@portal/web-kit';
import type { RemoteEntry } from '@portal/contracts';
import { createPortalStore, LOGIN_PATH, PortalProviders, setLoginRedirect } from '@portal/web-kit';
import { createPortalRouter } from './app/router';
import { loadFederatedRoutes, registerPortalRemotes } from './remotes/federation';
import { RemoteRoutes } from './remotes/remoteRoutes';

/** Starts the portal once the remotes list is in. */
export async function start(remotesList: Promise<RemoteEntry[]>): Promise<void> {
  const remotes = await remotesList;
  registerPortalRemotes(remotes);

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
