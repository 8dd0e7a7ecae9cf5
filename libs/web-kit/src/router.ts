/**
 * The portal's one router API. The shell and every remote import routing from here, never from
 * 'react-router' itself: web-kit is a federation singleton, so the router inside it (its contexts
 * included) exists once, and — unlike a shared 'react-router', which federation cannot tree-shake —
 * only what is listed here reaches the browser. That keeps the login page's first load small.
 */
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
