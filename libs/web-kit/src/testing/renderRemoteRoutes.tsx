import { render } from '@testing-library/react';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { PortalProviders } from '../PortalProviders';
import { createMemoryRouter, RouterProvider, type RouteObject } from '../router';
import { createPortalStore } from '../store/store';
import { portalTheme } from '../theme/theme';

/** jsdom lays nothing out: a virtualised grid would render no rows. The portal's theme, with every row. */
const testTheme = createTheme(portalTheme, {
  components: { MuiDataGrid: { defaultProps: { disableVirtualization: true } } },
});

/**
 * A remote's routes as the shell mounts them, for the remotes' screen tests: under a parent route, with one
 * store and the portal's providers. '/' stands in for the shell's home page, where the guards send whoever
 * may not enter; `standIns` are other pages a remote sends its users to (path → heading). (The shell
 * patches the routes in after start-up; here they are there from the first render, hence a fallback while
 * the first page loads.)
 */
export function renderRemoteRoutes(routes: RouteObject[], at: string, standIns: Record<string, string> = {}) {
  const router = createMemoryRouter(
    [
      {
        HydrateFallback: () => null,
        children: [
          { path: '/', element: <h1>Home</h1> },
          ...Object.entries(standIns).map(([path, heading]) => ({ path, element: <h1>{heading}</h1> })),
          ...routes,
        ],
      },
    ],
    { initialEntries: [at] },
  );
  const store = createPortalStore();
  const view = render(
    <PortalProviders store={store}>
      <ThemeProvider theme={testTheme}>
        <RouterProvider router={router} />
      </ThemeProvider>
    </PortalProviders>,
  );
  return { ...view, router, store };
}
