import { render } from '@testing-library/react';
import { createMemoryRouter, createPortalStore, PortalProviders, RouterProvider } from '@portal/web-kit';
import { routes } from '../../routes';

/**
 * The remote's routes as the shell mounts them: under a parent route, with one store and the portal's
 * providers; '/' stands in for the shell's home page, where the guards send whoever may not enter.
 */
export function renderRemote(at: string) {
  // jsdom has no ResizeObserver, which OpenLayers uses to watch its container; nothing is laid out in
  // jsdom, so the map never draws and a no-op observer is enough (as web-kit's map tests do).
  (globalThis as { ResizeObserver?: unknown }).ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  const router = createMemoryRouter(
    [{ HydrateFallback: () => null, children: [{ path: '/', element: <h1>Home</h1> }, ...routes] }],
    { initialEntries: [at] },
  );
  const store = createPortalStore();
  const view = render(
    <PortalProviders store={store}>
      <RouterProvider router={router} />
    </PortalProviders>,
  );
  return { ...view, router, store };
}
