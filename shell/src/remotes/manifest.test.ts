import type { RemoteEntry } from '@portal/contracts';
import { loadRemotesManifest, remoteForPath, rolesFor } from './manifest';

const remote = (name: string, routes: string[], extra: Partial<RemoteEntry> = {}): RemoteEntry => ({
  name,
  entry: `/remotes/${name}/mf-manifest.json`,
  routes,
  ...extra,
});

describe('/remotes.json', () => {
  afterEach(() => jest.restoreAllMocks());

  it('keeps well-formed entries and makes their manifest URLs absolute', async () => {
    global.fetch = jest.fn(async () =>
      Response.json({
        remotes: [remote('locator', ['/savi', '/locate']), { name: 'broken' }, remote('bad', ['no-slash'])],
      }),
    ) as unknown as typeof fetch;

    const remotes = await loadRemotesManifest();

    expect(remotes).toEqual([
      {
        ...remote('locator', ['/savi', '/locate']),
        entry: 'http://localhost/remotes/locator/mf-manifest.json',
      },
    ]);
  });

  it('runs without remotes when the list cannot be read', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    global.fetch = jest.fn(async () => new Response('down', { status: 503 })) as unknown as typeof fetch;

    expect(await loadRemotesManifest()).toEqual([]);
    expect(console.error).toHaveBeenCalled();
  });
});

describe('remoteForPath', () => {
  const avs = remote('locator', ['/avs', '/savi/']);
  const editor = remote('avsEditor', ['/avs/editor']);

  it('matches whole path segments, longest prefix first', () => {
    expect(remoteForPath([avs, editor], '/avs')?.name).toBe('locator');
    expect(remoteForPath([avs, editor], '/avs/')?.name).toBe('locator');
    expect(remoteForPath([avs, editor], '/avs/editor/')?.name).toBe('avsEditor');
    expect(remoteForPath([avs, editor], '/savi')?.name).toBe('locator');
    expect(remoteForPath([avs, editor], '/avsx')).toBeUndefined();
    expect(remoteForPath([avs, editor], '/')).toBeUndefined();
  });
});

describe('rolesFor', () => {
  it('reads the roles, else any logged-in user, unless the remote is public', () => {
    expect(rolesFor(remote('a', ['/a'], { roles: ['admin', 'saviOperator'] }))).toEqual([
      'admin',
      'saviOperator',
    ]);
    expect(rolesFor(remote('a', ['/a']))).toEqual(['authenticated']);
    expect(rolesFor(remote('a', ['/a'], { roles: [] }))).toEqual(['authenticated']);
    expect(rolesFor(remote('a', ['/a'], { authenticated: false }))).toEqual(['anonymous']);
  });
});
