import type { RouteObject } from '@portal/web-kit';
import { retryPlugin, startLazyRoutes } from './federation';

describe('retry plugin (manifests)', () => {
  const fetchManifest = (plugin: ReturnType<typeof retryPlugin>) =>
    (plugin.fetch as (url: string, init: RequestInit) => Promise<Response>)(
      'http://portal.test/remotes/a/mf-manifest.json',
      {},
    );

  it('asks again after a network failure or a 5xx, and hands back the good answer', async () => {
    global.fetch = jest
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(new Response('busy', { status: 503 }))
      .mockResolvedValueOnce(Response.json({ metaData: {} })) as unknown as typeof fetch;

    const response = await fetchManifest(retryPlugin(3, 0));

    expect(response.ok).toBe(true);
    expect(global.fetch).toHaveBeenCalledTimes(3);
  });

  it('gives up after its attempts with the last error', async () => {
    global.fetch = jest.fn(async () => new Response('busy', { status: 503 })) as unknown as typeof fetch;

    await expect(fetchManifest(retryPlugin(2, 0))).rejects.toThrow('answered 503');
    expect(global.fetch).toHaveBeenCalledTimes(2);
  });

  it('does not ask again for a manifest that is not there', async () => {
    global.fetch = jest.fn(async () => new Response('missing', { status: 404 })) as unknown as typeof fetch;

    await expect(fetchManifest(retryPlugin(3, 0))).rejects.toThrow('answered 404');
    expect(global.fetch).toHaveBeenCalledTimes(1);
  });
});

describe('startLazyRoutes (the page of a remote route asked for before the router asks)', () => {
  const lazyRoute = (path?: string, children?: RouteObject[]) => ({
    ...(path ? { path } : {}),
    ...(children ? { children } : {}),
    lazy: jest.fn(async () => ({})),
  });

  it('calls lazy of the route at the path and of its pathless parents, and of nothing else', () => {
    const console = lazyRoute('/requests/admin');
    const mine = lazyRoute('/requests');
    const guard = lazyRoute(undefined, [mine as RouteObject, console as RouteObject]);
    const other = lazyRoute('/requests/admin/qc-checklist');

    startLazyRoutes([guard as RouteObject, other as RouteObject], '/requests/admin/');

    expect(console.lazy).toHaveBeenCalledTimes(1);
    expect(guard.lazy).toHaveBeenCalledTimes(1);
    expect(mine.lazy).not.toHaveBeenCalled();
    expect(other.lazy).not.toHaveBeenCalled();
  });
});
