import { createBrowserRouter } from '@portal/web-kit';
import type { RemoteRoutes } from '../remotes/remoteRoutes';
import { portalRoutes } from './routes';

/** The portal's one data router. Remotes never start their own: their routes are patched in here. */
export function createPortalRouter(remoteRoutes: RemoteRoutes) {
  return createBrowserRouter(portalRoutes(remoteRoutes), {
    patchRoutesOnNavigation: remoteRoutes.patchRoutesOnNavigation,
  });
}
