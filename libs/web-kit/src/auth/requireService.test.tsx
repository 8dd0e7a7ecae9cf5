import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { API } from '@portal/contracts';
import { PortalProviders } from '../PortalProviders';
import { createPortalStore } from '../store/store';
import { RequireService } from './guards';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const service = (identifier: string, active: boolean) => ({
  _id: identifier,
  identifier,
  name: identifier.toUpperCase(),
  description: '',
  url: `/${identifier}`,
  image: '',
  active,
  config: { country: 'ZA', centre: { lat: -28.96642, lng: 24.181142 }, zoom: 6 },
});

function session(loggedIn: boolean, services: ReturnType<typeof service>[] = []) {
  global.fetch = jest.fn(async (request: Request) => {
    const path = new URL(request.url).pathname;
    if (!loggedIn) return json(401, { statusCode: 401, error: 'Unauthorized', message: 'No session' });
    if (path === API.me)
      return json(200, { _id: 'u1', email: 'u@example.co.za', name: 'U', roles: ['authenticated'] });
    if (path === API.services) return json(200, { success: true, services });
    return json(404, { statusCode: 404, error: 'Not Found', message: path });
  }) as unknown as typeof fetch;
}

function visit(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <h1>Home</h1> },
      {
        path: '/savi',
        element: (
          <RequireService identifiers={['savi']}>
            <h1>Request tool</h1>
          </RequireService>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <PortalProviders store={createPortalStore()}>
      <RouterProvider router={router} />
    </PortalProviders>,
  );
}

describe('RequireService', () => {
  it('lets a user in whose service is active', async () => {
    session(true, [service('avs', true), service('savi', true)]);
    visit('/savi');
    expect(await screen.findByRole('heading', { name: 'Request tool' })).toBeTruthy();
  });

  it('sends a user home whose service is inactive or missing', async () => {
    session(true, [service('savi', false), service('iris', true)]);
    visit('/savi');
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
  });

  it('sends an anonymous visitor home', async () => {
    session(false);
    visit('/savi');
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
  });
});
