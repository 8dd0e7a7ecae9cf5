import { Outlet, RequireRole, type RouteObject } from '@portal/web-kit';
import { REPORT_BUILDER_ROLES } from './access';
import { imageRoutes } from './features/images/imageRoutes';
import { improvementAndReportRoutes } from './improvementAndReportRoutes';
import { PATHS } from './paths';

/**
 * What the shell patches into its router when a path under /reportbuilder is first visited (spec 02 §2.1).
 * The shell lets in admins, SAVi operators and QC (the remote's roles in /remotes.json); the guard here says
 * the same for a page opened directly. Each page loads on first use.
 */
export const routes: RouteObject[] = [
  {
    element: (
      <RequireRole roles={REPORT_BUILDER_ROLES}>
        <Outlet />
      </RequireRole>
    ),
    children: [
      {
        path: PATHS.propertyOverview,
        lazy: async () => ({
          Component: (await import('./features/property/routes/PropertyOverviewPage')).PropertyOverviewPage,
        }),
      },
      {
        path: PATHS.sectionOverview,
        lazy: async () => ({
          Component: (await import('./features/section/routes/SectionOverviewPage')).SectionOverviewPage,
        }),
      },
      {
        path: PATHS.buildingOverview,
        lazy: async () => ({
          Component: (await import('./features/building/routes/BuildingOverviewPage')).BuildingOverviewPage,
        }),
      },
      ...improvementAndReportRoutes,
      ...imageRoutes,
    ],
  },
];

export default routes;
