import { retryPlugin } from './federation';

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
