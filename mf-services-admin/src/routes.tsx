import { Navigate, Outlet, RequireRole, type RouteObject } from '@portal/web-kit';
import { PATHS } from './paths';
import { ADMIN_ROLES, INTEGRATION_ROLES, RATES_ROLES, USAGE_ROLES } from './access';
// Not lazy: the tabs' layout and its texts come with this module, so the texts every page uses are in this
// chunk once. Lazy, the layout's chunk and each tab's page chunk are siblings and both carried the texts,
// which a "my group" page then loaded twice (bench/screens.mjs counts modules shipped twice).
import { MyGroupLayout } from './features/my-group/routes/MyGroupLayout';

/**
 * What the shell patches into its router when a path under /services/admin is first visited. The shell
 * already lets in only admins, rates editors and groups' admins (the remote's roles in /remotes.json); the
 * screens themselves are for admins, the rates editor for both, a group's API keys, webhooks and usage for
 * admins and the group's admin (the pages keep a group's admin to their own group; /services/admin/my-group
 * shows the three as tabs). Each page loads on first use; the tabs' layout is small and comes with this module.
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
    element: (
      <RequireRole roles={INTEGRATION_ROLES}>
        <Outlet />
      </RequireRole>
    ),
    children: [
      {
        path: PATHS.groupApiKeys,
        lazy: async () => ({
          Component: (await import('./features/api-keys/routes/ApiKeysPage')).ApiKeysPage,
        }),
      },
      {
        path: PATHS.groupWebhooks,
        lazy: async () => ({
          Component: (await import('./features/webhooks/routes/WebhooksPage')).WebhooksPage,
        }),
      },
      // The header's Integration entry: the group admin's own group, the three pages as tabs.
      {
        path: PATHS.myGroup,
        Component: MyGroupLayout,
        children: [
          { index: true, element: <Navigate to={PATHS.myGroupApiKeys} replace /> },
          {
            path: PATHS.myGroupApiKeys,
            lazy: async () => ({
              Component: (await import('./features/api-keys/routes/ApiKeysPage')).ApiKeysPage,
            }),
          },
          {
            path: PATHS.myGroupWebhooks,
            lazy: async () => ({
              Component: (await import('./features/webhooks/routes/WebhooksPage')).WebhooksPage,
            }),
          },
          {
            path: PATHS.myGroupUsage,
            lazy: async () => ({ Component: (await import('./features/usage/routes/UsagePage')).UsagePage }),
          },
        ],
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
