import { Outlet, RequireRole, type RouteObject } from '@portal/web-kit';
import { PATHS } from './paths';
import { ADMIN_ROLES, RATES_ROLES, USAGE_ROLES } from './access';

/**
 * What the shell patches into its router when a path under /services/admin is first visited. The shell
 * already lets in only admins and rates editors (the remote's roles in /remotes.json); the screens
 * themselves are for admins, the rates editor for both. Each page loads on first use.
 */
export const routes: RouteObject[] = [
  {
    element: (
      <RequireRole roles={ADMIN_ROLES}>
        <Outlet />
      </RequireRole>
    ),
    children: [
      {
        path: PATHS.admin,
        lazy: async () => ({
          Component: (await import('./features/overview/routes/ServicesAdminPage')).ServicesAdminPage,
        }),
      },
      {
        path: PATHS.users,
        lazy: async () => ({
          Component: (await import('./features/users/routes/UsersGridPage')).UsersGridPage,
        }),
      },
      {
        path: PATHS.groups,
        lazy: async () => ({
          Component: (await import('./features/groups/routes/GroupsGridPage')).GroupsGridPage,
        }),
      },
    ],
  },
  {
    path: PATHS.usage,
    element: (
      <RequireRole roles={USAGE_ROLES}>
        <Outlet />
      </RequireRole>
    ),
    children: [
      {
        index: true,
        lazy: async () => ({ Component: (await import('./features/usage/routes/UsagePage')).UsagePage }),
      },
    ],
  },
  {
    path: PATHS.rates,
    element: (
      <RequireRole roles={RATES_ROLES}>
        <Outlet />
      </RequireRole>
    ),
    children: [
      {
        index: true,
        lazy: async () => ({ Component: (await import('./features/rates/routes/RatesPage')).RatesPage }),
      },
    ],
  },
];

export default routes;
