import { act, screen, waitFor, within } from '@testing-library/react';
import { press } from '../testing/forms';
import { API } from '@portal/contracts';
import { TEXT } from '@portal/domain';
import { answerFetch, json, servicesAnswer } from '../testing/fetchAnswers';
import { renderPortal } from '../testing/renderPortal';
import { admin, meAnswer, thandi } from '../testing/session';

// The map itself is web-kit's (and OpenLayers'); here only that the page shows it.
jest.mock('@portal/web-kit', () => ({
  ...jest.requireActual('@portal/web-kit'),
  NotFoundMap: () => <div data-testid="not-found-map" />,
}));

const noServices = servicesAnswer([]);

describe('route table (spec 01 §2)', () => {
  it.each(['/auth/login', '/auth/register', '/forgot-password', '/reset/abc123', '/auth'])(
    'sends a logged-in user away from %s to /',
    async (path) => {
      answerFetch({ ...meAnswer(thandi), ...noServices });
      const { router } = renderPortal({ at: path });
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    },
  );

  it('opens /auth on the login page', async () => {
    answerFetch(meAnswer(null));
    const { router } = renderPortal({ at: '/auth' });
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/login');
  });

  it('sends /login and /register to their /auth pages, keeping the query', async () => {
    answerFetch(meAnswer(null));
    const { router } = renderPortal({ at: '/login?next=1' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(router.state.location.search).toBe('?next=1');

    await act(() => router.navigate('/register'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/register'));
  });

  it('returns home from the reset callback without a key', async () => {
    answerFetch(meAnswer(null));
    const { router } = renderPortal({ at: '/password-reset' });
    expect(await screen.findByText(TEXT.pleaseLogIn)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });

  it.each(['/404', '/no/such/page'])('shows the not-found map at %s', async (path) => {
    answerFetch(meAnswer(null));
    renderPortal({ at: path });
    expect(await screen.findByTestId('not-found-map')).toBeTruthy();
  });
});

describe('header menu (spec 03)', () => {
  const menuFrom = (names: string[]) =>
    screen
      .getAllByRole('link')
      .map((link) => link.textContent)
      .filter((text) => names.includes(text ?? ''));
  const allEntries = ['Home', 'Requests', 'Requests Admin', 'User Admin'];

  it('shows Home, Log in and Register to an anonymous visitor', async () => {
    answerFetch(meAnswer(null));
    renderPortal({ at: '/' });
    const header = within(await screen.findByRole('banner'));
    expect(await header.findByRole('link', { name: 'Register' })).toBeTruthy();
    expect(header.getByRole('link', { name: 'Log in' })).toBeTruthy();
    expect(menuFrom(allEntries)).toEqual(['Home']);
  });

  it("filters the service's menu by role and shows the user's name", async () => {
    answerFetch({
      ...meAnswer(admin),
      ...noServices,
      [`GET ${API.menu('header')}`]: () =>
        json(200, {
          name: 'header',
          defaultMenu: [
            { label: 'Home', path: '/', roles: ['anonymous'] },
            { label: 'Requests', path: '/requests', roles: ['authenticated'] },
            { label: 'Requests Admin', path: '/requests/admin', roles: ['admin', 'saviOperator'] },
            { label: 'User Admin', path: '/services/admin', roles: ['admin'] },
          ],
        }),
    });
    renderPortal({ at: '/' });
    expect(await screen.findByText(admin.name)).toBeTruthy();
    await waitFor(() => expect(menuFrom(allEntries)).toEqual(allEntries));
    expect(screen.getByRole('button', { name: 'Log out' })).toBeTruthy();
  });

  it("falls back to the spec's menu when the menu service fails", async () => {
    answerFetch({ ...meAnswer(thandi), ...noServices });
    renderPortal({ at: '/' });
    expect(await screen.findByText(thandi.name)).toBeTruthy();
    expect(menuFrom(allEntries)).toEqual(['Home', 'Requests']);
  });

  it('logs out from a page that needs a user and lands on the login page', async () => {
    let loggedIn = true;
    answerFetch({
      [`GET ${API.me}`]: () =>
        loggedIn ? json(200, thandi) : json(401, { statusCode: 401, error: 'Unauthorized', message: 'x' }),
      [`GET ${API.logout}`]: () => {
        loggedIn = false;
        return json(200, { message: 'Logged out.' });
      },
    });
    const { router } = renderPortal({
      at: '/requests',
      remotes: [
        { name: 'requests', entry: 'http://portal.test/requests/mf-manifest.json', routes: ['/requests'] },
      ],
      loadRemoteRoutes: async () => [{ path: '/requests', Component: () => <h1>My requests</h1> }],
    });
    expect(await screen.findByRole('heading', { name: 'My requests' })).toBeTruthy();

    await press('Log out');

    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/login');
  });

  it('logs out: GET logout, store cleared, login page', async () => {
    let loggedIn = true;
    const calls = answerFetch({
      [`GET ${API.me}`]: () =>
        loggedIn ? json(200, thandi) : json(401, { statusCode: 401, error: 'Unauthorized', message: 'x' }),
      [`GET ${API.logout}`]: () => {
        loggedIn = false;
        return json(200, { message: 'Logged out.' });
      },
      ...noServices,
    });
    const { router, store } = renderPortal({ at: '/' });

    await press('Log out');

    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(store.getState().auth.user).toBeNull();
    expect(calls.mock.calls.some(([request]) => new URL(request.url).pathname === API.logout)).toBe(true);
  });
});
