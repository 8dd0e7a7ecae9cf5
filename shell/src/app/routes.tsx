import { Navigate, Outlet, useLocation, type RouteObject } from '@portal/web-kit';
import { RequireAnonymous, RequireRole } from '@portal/web-kit';
import { NotFoundPage } from '../pages/NotFoundPage';
import { CONTENT_ROUTE_ID, type RemoteRoutes } from '../remotes/remoteRoutes';
import { AppLayout } from './AppLayout';
import { PageError } from './PageError';

/** Sends an old path to its new place, keeping the query string (the reset callback goes to /login). */
function MovedTo({ pathname }: { pathname: string }) {
  const { search } = useLocation();
  return <Navigate to={{ pathname, search }} replace />;
}

const anonymousOnly = (
  <RequireAnonymous>
    <Outlet />
  </RequireAnonymous>
);

/**
 * The route table (spec 01 §2). Pages load on first visit (route `lazy`), so the login page carries only
 * its own code. The remotes' routes are added under CONTENT_ROUTE_ID when first visited (RemoteRoutes).
 */
export function portalRoutes(remoteRoutes: RemoteRoutes): RouteObject[] {
  return [
    {
      // One component for both: React keeps the header when the first page arrives (AppLayout).
      Component: AppLayout,
      HydrateFallback: AppLayout,
      children: [
        {
          id: CONTENT_ROUTE_ID,
          errorElement: <PageError />,
          children: [
            {
              index: true,
              lazy: () => import('../pages/home/HomePage').then((page) => ({ Component: page.HomePage })),
            },
            {
              path: 'auth',
              element: anonymousOnly,
              children: [
                { index: true, element: <Navigate to="/auth/login" replace /> },
                {
                  path: 'login',
                  lazy: () =>
                    import('../pages/auth/LoginPage').then((page) => ({ Component: page.LoginPage })),
                },
                {
                  path: 'register',
                  lazy: () =>
                    import('../pages/auth/RegisterPage').then((page) => ({ Component: page.RegisterPage })),
                },
              ],
            },
            {
              element: anonymousOnly,
              children: [
                {
                  path: 'forgot-password',
                  lazy: () =>
                    import('../pages/auth/ForgotPasswordPage').then((page) => ({
                      Component: page.ForgotPasswordPage,
                    })),
                },
                {
                  path: 'reset/:tokenId',
                  lazy: () =>
                    import('../pages/auth/ResetPasswordPage').then((page) => ({
                      Component: page.ResetPasswordPage,
                    })),
                },
              ],
            },
            {
              path: 'password-reset',
              lazy: () =>
                import('../pages/auth/PasswordResetCallbackPage').then((page) => ({
                  Component: page.PasswordResetCallbackPage,
                })),
            },
            {
              // My account → Notifications (issue 24): which notifications the signed-in person gets.
              path: 'account/notifications',
              element: (
                <RequireRole roles={['authenticated']}>
                  <Outlet />
                </RequireRole>
              ),
              children: [
                {
                  index: true,
                  lazy: () =>
                    import('../notifications/NotificationSettingsPage').then((page) => ({
                      Component: page.NotificationSettingsPage,
                    })),
                },
              ],
            },
            { path: 'login', element: <MovedTo pathname="/auth/login" /> },
            { path: 'register', element: <MovedTo pathname="/auth/register" /> },
            { path: '404', element: <NotFoundPage /> },
            ...remoteRoutes.gateRoutes(),
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ];
}
