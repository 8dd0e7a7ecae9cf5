import { render } from '@testing-library/react';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import {
  createMemoryRouter,
  createPortalStore,
  portalTheme,
  PortalProviders,
  RouterProvider,
} from '@portal/web-kit';
import { installJsdomMapSupport } from '@portal/web-kit/testing';
import { routes } from '../routes';

// The editor's map (OpenLayers) in jsdom.
installJsdomMapSupport();
const testTheme = createTheme(portalTheme);

/**
 * The remote's routes as the shell mounts them: under a parent route, with one store and the portal's
 * providers; '/' stands in for the shell's home page, where the guard sends whoever may not enter.
 */
export function renderRemote(at: string) {
  const router = createMemoryRouter(
    [
      {
        HydrateFallback: () => null,
        children: [
          { path: '/', element: <h1>Home</h1> },
          { path: '/elsewhere', element: <h1>Elsewhere</h1> },
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
