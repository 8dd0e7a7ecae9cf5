import { act, screen, waitFor } from '@testing-library/react';
import { API } from '@portal/contracts';
import { baseApi, LOGIN_PATH, setLoginRedirect } from '@portal/web-kit';
import { answerFetch, errorAnswer, json } from '../testing/fetchAnswers';
import { fillIn, press } from '../testing/forms';
import { renderPortal } from '../testing/renderPortal';
import { thandi } from '../testing/session';

// A remote's endpoint, injected into the one api as a remote does.
const requestsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    myRequests: build.query<{ total: number }, void>({ query: () => '/api/v1.0/request/pager/' }),
  }),
});

function MyRequests() {
  const { data } = requestsApi.useMyRequestsQuery();
  return <h1>{data ? `${data.total} requests` : 'My requests'}</h1>;
}

describe('a 401 from any call (spec 01 §6)', () => {
  afterEach(() => setLoginRedirect(null));

  it('goes to the login page, and back to the page after logging in', async () => {
    let sessionValid = true;
    answerFetch({
      [`GET ${API.me}`]: () => (sessionValid ? json(200, thandi) : errorAnswer(401, 'Session expired')),
      'GET /api/v1.0/request/pager/': () =>
        sessionValid ? json(200, { total: 3 }) : errorAnswer(401, 'Session expired'),
      [`POST ${API.login}`]: () => {
        sessionValid = true;
        return json(200, thandi);
      },
    });
    const view = renderPortal({
      at: '/',
      remotes: [
        { name: 'requests', entry: 'http://portal.test/requests/mf-manifest.json', routes: ['/requests'] },
      ],
      loadRemoteRoutes: async () => [{ path: '/requests', Component: MyRequests }],
    });
    // As bootstrap does: the redirect goes through the shell's router, remembering the page.
    setLoginRedirect(() =>
      view.router.navigate(LOGIN_PATH, { replace: true, state: { from: view.router.state.location } }),
    );
    await screen.findByRole('heading', { name: `Welcome, ${thandi.name}` });

    sessionValid = false; // the session expires while the user is away
    await act(() => view.router.navigate('/requests'));

    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeTruthy();
    expect(view.router.state.location.pathname).toBe('/auth/login');

    await fillIn('Email', thandi.email);
    await fillIn('Password', 'Karoo-sunset-7');
    await press('Log in');

    expect(await screen.findByRole('heading', { name: '3 requests' })).toBeTruthy();
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/requests'));
  });
});
