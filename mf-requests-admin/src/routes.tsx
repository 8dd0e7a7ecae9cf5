import { Outlet, RequireRole, type RouteObject } from '@portal/web-kit';
import { CONSOLE_ROLES, INSIGHT_ROLES, SIGNED_IN } from './access';
import { PATHS } from './paths';

/**
 * What the shell patches into its router when a path under /requests is first visited (spec 02 §2.2,
 * spec 03 §2). The shell lets in any signed-in user (the remote's roles in /remotes.json); the console
 * and the QC screens are for admins and SAVi operators. Each page loads on first use.
 */
export const routes: RouteObject[] = [
  {
    element: (
      <RequireRole roles={SIGNED_IN}>
        <Outlet />
      </RequireRole>
    ),
    children: [
      {
        path: PATHS.requests,
        lazy: async () => ({
          Component: (await import('./features/my-requests/routes/MyRequestsPage')).MyRequestsPage,
        }),
      },
      {
        path: PATHS.qsChecklist,
        lazy: async () => ({
          Component: (await import('./features/checklists/routes/QsChecklistPage')).QsChecklistPage,
        }),
      },
      {
        path: PATHS.duplicateCheck,
        lazy: async () => ({
          Component: (await import('./features/duplicates/routes/DuplicateCheckPage')).DuplicateCheckPage,
        }),
      },
    ],
  },
  {
    element: (
      <RequireRole roles={INSIGHT_ROLES}>
        <Outlet />
      </RequireRole>
    ),
    children: [
      {
        path: PATHS.insight,
        lazy: async () => ({
          Component: (await import('./features/insight/routes/InsightPage')).InsightPage,
        }),
      },
    ],
  },
  {
    element: (
      <RequireRole roles={CONSOLE_ROLES}>
        <Outlet />
      </RequireRole>
    ),
    children: [
      {
        path: PATHS.admin,
        lazy: async () => ({
          Component: (await import('./features/console/routes/ConsolePage')).ConsolePage,
        }),
      },
      {
        path: PATHS.qcChecklist,
        lazy: async () => ({
          Component: (await import('./features/checklists/routes/QcChecklistPage')).QcChecklistPage,
        }),
      },
      {
        path: PATHS.qcLauncher,
        lazy: async () => ({
          Component: (await import('./features/checklists/routes/QcLauncherPage')).QcLauncherPage,
        }),
      },
      {
        path: PATHS.satelliteMap,
        lazy: async () => ({
          Component: (await import('./features/duplicates/routes/SatelliteMapPage')).SatelliteMapPage,
        }),
      },
    ],
  },
];

export default routes;
