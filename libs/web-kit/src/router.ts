/**
 * The portal's one router API. The shell and every remote import routing from here, never from
 * 'react-router' itself: web-kit is a federation singleton, so the router inside it (its contexts
 * included) exists once, and — unlike a shared 'react-router', which federation cannot tree-shake —
 * only what is listed here reaches the browser. That keeps the login page's first load small.
 */
import { useContext } from 'react';
import { UNSAFE_DataRouterStateContext } from 'react-router';

export {
  Form,
  Link,
  NavLink,
  Navigate,
  Outlet,
  RouterProvider,
  ScrollRestoration,
  createBrowserRouter,
  createMemoryRouter,
  generatePath,
  isRouteErrorResponse,
  matchPath,
  redirect,
  useBlocker,
  useLoaderData,
  useLocation,
  useMatch,
  useNavigate,
  useNavigation,
  useParams,
  useRouteError,
  useSearchParams,
} from 'react-router';
export type {
  LoaderFunctionArgs,
  Location,
  NavigateFunction,
  PatchRoutesOnNavigationFunction,
  RouteObject,
  To,
} from 'react-router';

/**
 * Whether the router has finished its first navigation (its `state.initialized`): false while the first
 * page's code (a remote's routes, a lazy page) is still loading and the router renders the routes'
 * HydrateFallback. The router keeps this in a context it does not name as public API; it is the one
 * per-router source of the flag (the shell's layout is its own fallback and reads it: app/AppLayout.tsx).
 */
export function useRouterInitialized(): boolean {
  return useContext(UNSAFE_DataRouterStateContext)?.initialized ?? true;
}
