import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Link, type RouteObject } from '@portal/web-kit';
import type { RemoteEntry } from '@portal/contracts';
import { useCurrentUser } from '@portal/web-kit';
import { answerFetch } from '../testing/fetchAnswers';
import { press } from '../testing/forms';
import { renderPortal } from '../testing/renderPortal';
import { admin, meAnswer, thandi } from '../testing/session';
import { REMOTE_LOAD_FAILED } from './RemoteErrorPanel';

// The map itself is web-kit's (and OpenLayers'); here only that the not-found page shows.
jest.mock('@portal/web-kit', () => ({
  ...jest.requireActual('@portal/web-kit'),
  NotFoundMap: () => <h1>Page not found</h1>,
}));

function RequestsPage() {
  const { user } = useCurrentUser();
  return (
    <>
      <h1>My requests</h1>
      <p>for {user?.name}</p>
      <Link to="/requests/42">Request 42</Link>
    </>
  );
}

const requestsRoutes: RouteObject[] = [
  { path: '/requests', Component: RequestsPage },
  { path: '/requests/:id', Component: () => <h1>One request</h1> },
];

const requestsRemote: RemoteEntry = {
  name: 'requests',
  entry: 'http://portal.test/remotes/requests/mf-manifest.json',
  routes: ['/requests'],
};
const adminRemote: RemoteEntry = {
  name: 'servicesAdmin',
  entry: 'http://portal.test/remotes/sa/mf-manifest.json',
  routes: ['/services/admin'],
  roles: ['admin'],
};

describe('remote routes', () => {
  afterEach(() => jest.restoreAllMocks());

  it('loads a remote only when one of its paths is first visited, into the one router', async () => {
    answerFetch(meAnswer(thandi));
    const loadRemoteRoutes = jest.fn(async () => requestsRoutes);
    const { router } = renderPortal({ at: '/', remotes: [requestsRemote], loadRemoteRoutes });

    expect(await screen.findByRole('heading', { name: `Welcome, ${thandi.name}` })).toBeTruthy();
    expect(loadRemoteRoutes).not.toHaveBeenCalled();

    await act(() => router.navigate('/requests'));
    expect(await screen.findByRole('heading', { name: 'My requests' })).toBeTruthy();
    expect(screen.getByText(`for ${thandi.name}`)).toBeTruthy();

    await act(async () => fireEvent.click(screen.getByRole('link', { name: 'Request 42' })));
    await waitFor(() => expect(router.state.location.pathname).toBe('/requests/42'));
    expect(await screen.findByRole('heading', { name: 'One request' })).toBeTruthy();
    expect(loadRemoteRoutes).toHaveBeenCalledTimes(1);
  });

  it('contains a failed remote in a panel whose Retry loads it again, the frame still working', async () => {
    answerFetch(meAnswer(thandi));
    const loadRemoteRoutes = jest
      .fn<Promise<RouteObject[]>, [RemoteEntry]>()
      .mockRejectedValueOnce(new Error('network down'))
      .mockResolvedValue(requestsRoutes);
    jest.spyOn(console, 'error').mockImplementation(() => {});
    renderPortal({ at: '/requests', remotes: [requestsRemote], loadRemoteRoutes });

    expect(await screen.findByText(REMOTE_LOAD_FAILED)).toBeTruthy();
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Home' })).toBeTruthy();

    await press('Retry');

    expect(await screen.findByRole('heading', { name: 'My requests' })).toBeTruthy();
    expect(screen.queryByText(REMOTE_LOAD_FAILED)).toBeNull();
    expect(loadRemoteRoutes).toHaveBeenCalledTimes(2);
  });

  it('contains a remote screen that throws while rendering', async () => {
    answerFetch(meAnswer(thandi));
    jest.spyOn(console, 'error').mockImplementation(() => {});
    const Broken = () => {
      throw new Error('bug in a remote');
    };
    renderPortal({
      at: '/requests',
      remotes: [requestsRemote],
      loadRemoteRoutes: async () => [{ path: '/requests', Component: Broken }],
    });

    expect(await screen.findByText(REMOTE_LOAD_FAILED)).toBeTruthy();
    expect(within(screen.getByRole('banner')).getByText(thandi.name)).toBeTruthy();
  });

  it("guards a remote's routes with its roles from /remotes.json", async () => {
    answerFetch(meAnswer(thandi));
    const { router } = renderPortal({
      at: '/services/admin',
      remotes: [adminRemote],
      loadRemoteRoutes: async () => [{ path: '/services/admin', Component: () => <h1>User Admin</h1> }],
    });

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(screen.queryByRole('heading', { name: 'User Admin' })).toBeNull();
  });

  it('lets a user with the role in', async () => {
    answerFetch(meAnswer(admin));
    renderPortal({
      at: '/services/admin',
      remotes: [adminRemote],
      loadRemoteRoutes: async () => [{ path: '/services/admin', Component: () => <h1>User Admin</h1> }],
    });

    expect(await screen.findByRole('heading', { name: 'User Admin' })).toBeTruthy();
  });

  it("shows the not-found page under a remote's prefix where it has no page", async () => {
    answerFetch(meAnswer(thandi));
    renderPortal({
      at: '/requests/a/b/c',
      remotes: [requestsRemote],
      loadRemoteRoutes: async () => requestsRoutes,
    });

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });
});
