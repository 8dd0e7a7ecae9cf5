import type { RemoteEntry, RemotesManifest } from '@portal/contracts';

export const REMOTES_MANIFEST_URL = '/remotes.json';

/**
 * The remotes the gateway lists in /remotes.json. The portal runs without them when the list cannot be
 * read (the shell's own pages still work), and entries that are not well-formed are left out.
 */
export async function loadRemotesManifest(url = REMOTES_MANIFEST_URL): Promise<RemoteEntry[]> {
  try {
    const response = await fetch(url, { cache: 'no-cache', credentials: 'same-origin' });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    const manifest = (await response.json()) as Partial<RemotesManifest>;
    const entries: unknown[] = Array.isArray(manifest.remotes) ? manifest.remotes : [];
    return entries.filter(isRemoteEntry).map((remote) => ({
      ...remote,
      // The federation runtime works out a remote's public path from this URL, so make it absolute.
      entry: new URL(remote.entry, window.location.href).href,
    }));
  } catch (error) {
    console.error('The remotes list could not be read; the portal runs without its remotes.', error);
    return [];
  }
}

function isRemoteEntry(value: unknown): value is RemoteEntry {
  const entry = value as RemoteEntry;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.name === 'string' &&
    typeof entry.entry === 'string' &&
    Array.isArray(entry.routes) &&
    entry.routes.every((route) => typeof route === 'string' && route.startsWith('/'))
  );
}

/** The remote that serves `pathname`: the one with the longest matching route prefix. */
export function remoteForPath(remotes: readonly RemoteEntry[], pathname: string): RemoteEntry | undefined {
  let best: { remote: RemoteEntry; length: number } | undefined;
  for (const remote of remotes) {
    for (const prefix of remote.routes) {
      if (matchesPrefix(pathname, prefix) && (!best || prefix.length > best.length)) {
        best = { remote, length: prefix.length };
      }
    }
  }
  return best?.remote;
}

/** '/requests' matches '/requests', '/requests/' and '/requests/admin', not '/requestsX'. */
function matchesPrefix(pathname: string, prefix: string): boolean {
  const base = prefix.length > 1 ? prefix.replace(/\/+$/, '') : prefix;
  return pathname === base || pathname.startsWith(base === '/' ? '/' : `${base}/`);
}

/** Who may enter a remote's routes: its roles; without roles any logged-in user, unless it is public. */
export function rolesFor(remote: RemoteEntry): string[] {
  if (remote.roles && remote.roles.length > 0) return remote.roles;
  return remote.authenticated === false ? ['anonymous'] : ['authenticated'];
}
