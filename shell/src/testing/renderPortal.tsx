import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from '@portal/web-kit';
import type { RemoteEntry } from '@portal/contracts';
import { createPortalStore, PortalProviders } from '@portal/web-kit';
import { portalRoutes } from '../app/routes';
import { RemoteRoutes, type LoadRemoteRoutes } from '../remotes/remoteRoutes';

interface RenderPortalOptions {
  /** Where the browser starts, with an optional router state (e.g. `{ from }`). */
  at: string | { pathname: string; search?: string; state?: unknown };
  remotes?: RemoteEntry[];
  loadRemoteRoutes?: LoadRemoteRoutes;
}

const noRemoteRoutes: LoadRemoteRoutes = async () => {
  throw new Error('no remotes in this test');
};

/** The shell's real route table, guards and frame, in a memory router. */
export function renderPortal({ at, remotes = [], loadRemoteRoutes = noRemoteRoutes }: RenderPortalOptions) {
  const remoteRoutes = new RemoteRoutes(remotes, loadRemoteRoutes);
  const router = createMemoryRouter(portalRoutes(remoteRoutes), {
    initialEntries: [at],
    patchRoutesOnNavigation: remoteRoutes.patchRoutesOnNavigation,
  });
  const store = createPortalStore();
  const view = render(
    <PortalProviders store={store}>
      <RouterProvider router={router} />
    </PortalProviders>,
  );
  return { ...view, router, store };
}
