import { render } from '@testing-library/react';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import {
  createMemoryRouter,
  createPortalStore,
  portalTheme,
  PortalProviders,
  RouterProvider,
} from '@portal/web-kit';
import { routes } from '../routes';

const testTheme = createTheme(portalTheme);

/**
 * The remote's routes as the shell mounts them: under a parent route, with one store and the portal's
 * providers. (The shell patches them in after start-up; here they are there from the first render,
 * hence a fallback while the first page loads.)
 */
export function renderRemote(at: string) {
  const router = createMemoryRouter(
    // '/' stands in for the shell's home page, where the guards send whoever may not enter.
    [
      {
        HydrateFallback: () => null,
        children: [
          { path: '/', element: <h1>Home</h1> },
          { path: '/requests/admin', element: <h1>Requests admin</h1> },
          ...routes,
        ],
      },
    ],
    {
      initialEntries: [at],
    },
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
