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
 * How long the first render waits for a remote's page to have asked for its code. That render (the header,
 * the layout) is a long task; drawn first, it held back the remote's routes module, whose page then asked
 * for its chunks ~0.2 s later. Drawn after, it runs while those chunks come in. The header's frame is in
 * index.html meanwhile; a remote that is slow or down does not hold the header back longer than this.
 */
export const PAGE_CODE_WAIT_MS = 800;

/**
 * Starts the portal once the remotes list is in (the entry script has registered them with the federation
 * runtime), with the users/me call the entry script started, and once the page's code has been asked for
 * (`pageCodeAsked`, startRemoteFor) or PAGE_CODE_WAIT_MS have passed.
 */
export async function start(
  remotesList: Promise<RemoteEntry[]>,
  session: Promise<Response>,
  pageCodeAsked: Promise<void> = Promise.resolve(),
): Promise<void> {
  adoptEarlySession(session);
  const remotes = await remotesList;
  await Promise.race([pageCodeAsked, new Promise((resume) => setTimeout(resume, PAGE_CODE_WAIT_MS))]);

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
