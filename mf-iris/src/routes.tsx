import { RequireService, type RouteObject } from '@portal/web-kit';
import { IRIS_SERVICES } from './access';
import { PATHS } from './paths';

/**
 * What the shell patches into its router when /iris is first visited (spec 03 §2). The shell lets in
 * logged-in users only (the remote's roles in /remotes.json); the screen also needs the iris service active
 * (RequireService, the rule /savi uses for savi): everyone else goes home. The page loads on first use.
 */
export const routes: RouteObject[] = [
  {
    path: PATHS.iris,
    lazy: async () => {
      const { IrisPage } = await import('./pages/IrisPage');
      return {
        element: (
          <RequireService identifiers={IRIS_SERVICES}>
            <IrisPage />
          </RequireService>
        ),
      };
    },
  },
];

export default routes;
