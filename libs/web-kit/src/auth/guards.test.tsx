import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { API, type SessionUser } from '@portal/contracts';
import { PortalProviders } from '../PortalProviders';
import { createPortalStore } from '../store/store';
import { endSession } from '../api/baseApi';
import { RequireAnonymous, RequireRole } from './guards';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function sessionOf(user: Pick<SessionUser, 'name' | 'roles'> | null) {
  global.fetch = jest.fn(async (request: Request) =>
    new URL(request.url).pathname === API.me && user
      ? json(200, { _id: 'u1', email: 'u@example.co.za', ...user })
      : json(401, { statusCode: 401, error: 'Unauthorized', message: 'No session' }),
  ) as unknown as typeof fetch;
}

const routes: RouteObject[] = [
  { path: '/', element: <h1>Home</h1> },
  { path: '/somewhere', element: <h1>Somewhere</h1> },
  {
    path: '/services/admin',
    element: (
      <RequireRole roles={['admin']}>
        <h1>User Admin</h1>
      </RequireRole>
    ),
  },
  {
    path: '/requests',
    element: (
      <RequireRole roles={['authenticated']}>
        <h1>Requests</h1>
      </RequireRole>
    ),
  },
  {
    path: '/auth/login',
    element: (
      <RequireAnonymous>
        <h1>Log in</h1>
      </RequireAnonymous>
    ),
  },
];

function visit(entry: string | { pathname: string; state: unknown }, store = createPortalStore()) {
  const router = createMemoryRouter(routes, { initialEntries: [entry] });
  render(
    <PortalProviders store={store}>
      <RouterProvider router={router} />
    </PortalProviders>,
  );
  return router;
}

describe('RequireRole', () => {
  it('lets a user with the role in', async () => {
    sessionOf({ name: 'Admin', roles: ['authenticated', 'admin'] });
    visit('/services/admin');
    expect(await screen.findByRole('heading', { name: 'User Admin' })).toBeTruthy();
  });

  it('sends a logged-in user without the role to /', async () => {
    sessionOf({ name: 'Operator', roles: ['authenticated', 'saviOperator'] });
    const router = visit('/services/admin');
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });

  it('sends an anonymous visitor of an authenticated route to /', async () => {
    sessionOf(null);
    const router = visit('/requests');
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });

  it('waits for the session before deciding', () => {
    sessionOf({ name: 'Thandi', roles: ['authenticated'] });
    visit('/requests');
    expect(screen.getByRole('progressbar', { name: 'Checking your session' })).toBeTruthy();
  });
});

describe('after the session ended (log-out, 401)', () => {
  it('keeps the page that was open from sending the user to / (it is on its way to the login page)', async () => {
    sessionOf({ name: 'Thandi', roles: ['authenticated'] });
    const store = createPortalStore();
    const router = visit('/requests', store);
    expect(await screen.findByRole('heading', { name: 'Requests' })).toBeTruthy();

    sessionOf(null);
    act(() => void store.dispatch(endSession()));

    expect(await screen.findByRole('progressbar', { name: 'Checking your session' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/requests');
  });

  it('guards a page opened afterwards as usual, and shows the login page', async () => {
    sessionOf({ name: 'Thandi', roles: ['authenticated'] });
    const store = createPortalStore();
    const router = visit('/', store);
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
    sessionOf(null);
    act(() => void store.dispatch(endSession()));

    await act(() => router.navigate('/requests'));
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
    await act(() => router.navigate('/auth/login'));
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeTruthy();
  });
});

describe('RequireAnonymous', () => {
  it('shows the account page to an anonymous visitor', async () => {
    sessionOf(null);
    visit('/auth/login');
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeTruthy();
  });

  it('sends a logged-in user to /', async () => {
    sessionOf({ name: 'Thandi', roles: ['authenticated'] });
    const router = visit('/auth/login');
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });

  it('sends a logged-in user back to the page they came from', async () => {
    sessionOf({ name: 'Thandi', roles: ['authenticated'] });
    const router = visit({
      pathname: '/auth/login',
      state: { from: { pathname: '/somewhere', search: '?a=1' } },
    });
    expect(await screen.findByRole('heading', { name: 'Somewhere' })).toBeTruthy();
    expect(router.state.location.search).toBe('?a=1');
  });
});
