import type { ReactNode } from 'react';
import { RequireService, type RouteObject } from '@portal/web-kit';
import { PATHS, SERVICES_FOR } from './paths';

const guarded = (identifiers: readonly string[], page: ReactNode) => (
  <RequireService identifiers={identifiers}>{page}</RequireService>
);

/**
 * What the shell patches into its router when /savi, /avs, /locate or /spatialkey is first visited. The
 * shell lets in logged-in users only (the remote's roles in /remotes.json); each screen also needs its
 * service active (RequireService). Each page loads on first use.
 */
export const routes: RouteObject[] = [
  {
    path: PATHS.savi,
    lazy: async () => {
      const { SaviPage } = await import('./savi/SaviPage');
      return { element: guarded(SERVICES_FOR.savi, <SaviPage />) };
    },
  },
  {
    path: PATHS.avs,
    lazy: async () => {
      const { AvsPage } = await import('./avs/AvsPage');
      return { element: guarded(SERVICES_FOR.avs, <AvsPage />) };
    },
  },
  {
    path: PATHS.locate,
    lazy: async () => {
      const { LocatePage } = await import('./locate/LocatePage');
      return { element: guarded(SERVICES_FOR.locate, <LocatePage />) };
    },
  },
  {
    path: PATHS.spatialKey,
    lazy: async () => {
      const { SpatialKeyPage } = await import('./spatialkey/SpatialKeyPage');
      return { element: guarded(SERVICES_FOR.spatialKey, <SpatialKeyPage />) };
    },
  },
];

export default routes;
