import type { ComponentType } from 'react';
import { RequireService, type RouteObject } from '@portal/web-kit';
import { AVS_SERVICES, LOCATE_SERVICES, SAVI_SERVICES, SPATIALKEY_SERVICES } from './access';
import { PATHS } from './paths';

/** A screen at `path`, loaded on first use, for users with one of `services` active. */
const guardedPage = (
  path: string,
  services: readonly string[],
  load: () => Promise<ComponentType>,
): RouteObject => ({
  path,
  lazy: async () => {
    const Page = await load();
    return {
      element: (
        <RequireService identifiers={services}>
          <Page />
        </RequireService>
      ),
    };
  },
});

/**
 * What the shell patches into its router when /savi, /avs, /locate or /spatialkey is first visited. The
 * shell lets in logged-in users only (the remote's roles in /remotes.json); each screen also needs its
 * service active (RequireService). Each page loads on first use.
 */
export const routes: RouteObject[] = [
  guardedPage(PATHS.savi, SAVI_SERVICES, () =>
    import('./features/savi/routes/SaviPage').then((page) => page.SaviPage),
  ),
  guardedPage(PATHS.avs, AVS_SERVICES, () =>
    import('./features/avs/routes/AvsPage').then((page) => page.AvsPage),
  ),
  guardedPage(PATHS.locate, LOCATE_SERVICES, () =>
    import('./features/locate/routes/LocatePage').then((page) => page.LocatePage),
  ),
  guardedPage(PATHS.spatialKey, SPATIALKEY_SERVICES, () =>
    import('./features/spatialkey/routes/SpatialKeyPage').then((page) => page.SpatialKeyPage),
  ),
];

export default routes;
