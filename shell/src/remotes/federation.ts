import {
  loadRemote,
  registerPlugins,
  registerRemotes,
  type ModuleFederationRuntimePlugin,
} from '@module-federation/enhanced/runtime';
import type { RouteObject } from '@portal/web-kit';
import type { RemoteEntry } from '@portal/contracts';
import { remoteForPath } from './manifest';

const ATTEMPTS = 3;
const RETRY_DELAY_MS = 400;

const pause = (ms: number) => new Promise((resume) => setTimeout(resume, ms));

/**
 * Network layer: retries a remote's manifest and entry script a few times (with a growing pause) before
 * giving up, so a blip or a remote being redeployed does not show an error.
 */
export function retryPlugin(attempts = ATTEMPTS, delayMs = RETRY_DELAY_MS): ModuleFederationRuntimePlugin {
  return {
    name: 'portal-retry',
    // mf-manifest.json. A failed answer must throw (not return the response): the runtime then forgets
    // the failed load, so the next attempt (the Retry button) fetches again.
    async fetch(url, init) {
      let lastError: unknown;
      for (let attempt = 1; attempt <= attempts; attempt += 1) {
        try {
          const response = await fetch(url, init);
          if (response.ok) return response;
          lastError = new Error(`${url} answered ${response.status}`);
          if (response.status < 500) break; // a missing manifest will not appear by asking again
        } catch (error) {
          lastError = error;
        }
        if (attempt < attempts) await pause(delayMs * attempt);
      }
      throw lastError;
    },
    // remoteEntry.js. Called once the first script load failed. (The hook's declared answer is a promise
    // of a promise; the runtime awaits whatever comes back, so the entry itself is the answer.)
    loadEntryError: (context) => retryEntryLoad(context, attempts, delayMs) as never,
  };
}

type LoadEntryErrorContext = Parameters<NonNullable<ModuleFederationRuntimePlugin['loadEntryError']>>[0];

async function retryEntryLoad(
  { getRemoteEntry, origin, remoteInfo, remoteEntryExports, globalLoading, uniqueKey }: LoadEntryErrorContext,
  attempts: number,
  delayMs: number,
) {
  for (let attempt = 1; attempt < attempts; attempt += 1) {
    await pause(delayMs * attempt);
    // The failed load is still registered under this key; drop it or getRemoteEntry hands it back.
    delete globalLoading[uniqueKey];
    try {
      // A query string gets past any cache that kept the failure.
      const entry = await getRemoteEntry({
        origin,
        remoteInfo,
        remoteEntryExports,
        getEntryUrl: (url: string) => `${url}${url.includes('?') ? '&' : '?'}retry=${attempt}`,
      });
      if (entry) return entry;
    } catch {
      // next attempt
    }
  }
  return undefined;
}

/**
 * Loading layer: reports which remote failed and at which step. It returns nothing, so the error
 * reaches the route's error panel, which offers a retry.
 */
export function reportLoadErrorsPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'portal-report-load-errors',
    errorLoadRemote({ id, error, lifecycle, remote }) {
      console.error(`Remote ${remote?.name ?? id} could not be loaded (${lifecycle}).`, error);
      return undefined;
    },
  };
}

/** Tells the federation runtime where the remotes are (from /remotes.json); nothing is fetched yet. */
export function registerPortalRemotes(remotes: readonly RemoteEntry[]): void {
  registerPlugins([retryPlugin(), reportLoadErrorsPlugin()]);
  registerRemotes(remotes.map(({ name, entry }) => ({ name, entry })));
}

/** What a remote's `./routes` module may look like: the route array as default or as `routes`. */
interface RemoteRoutesModule {
  default?: unknown;
  routes?: unknown;
}

/** Route loads started before the router asked (startRemoteFor), by remote name; each taken once. */
const startedEarly = new Map<string, Promise<RouteObject[]>>();

/**
 * Starts loading, at once, the remote that serves `pathname` and the code of its page there, instead of
 * waiting for the shell's own code and router to ask for it: the shell's chunks, the remote's entry and
 * the page's chunks then come in together rather than one after the other. The router's first load of
 * that remote takes this one (loadFederatedRoutes); a failure is left to it (it reports and retries).
 */
export function startRemoteFor(remotes: readonly RemoteEntry[], pathname: string): void {
  const remote = remoteForPath(remotes, pathname);
  if (!remote || startedEarly.has(remote.name)) return;
  const routes = fetchRoutes(remote);
  startedEarly.set(remote.name, routes);
  routes.then(
    (loaded) => startLazyRoutes(loaded, pathname),
    () => undefined,
  );
}

/**
 * Calls `lazy` of the routes whose static path is `pathname` (and of their pathless parents): their
 * dynamic imports start now; when the router calls `lazy` itself, the module is already on its way.
 */
export function startLazyRoutes(routes: readonly RouteObject[], pathname: string): void {
  const wanted = pathname.replace(/\/+$/, '') || '/';
  const visit = (route: RouteObject): boolean => {
    const matches = route.path
      ? route.path.replace(/\/+$/, '') === wanted
      : (route.children ?? []).some(visit);
    if (matches && typeof route.lazy === 'function') route.lazy().catch(() => undefined);
    return matches;
  };
  routes.forEach(visit);
}

/** Loads a remote's `./routes` and checks that it is a route array. */
export function loadFederatedRoutes(remote: RemoteEntry): Promise<RouteObject[]> {
  const early = startedEarly.get(remote.name);
  if (early) {
    startedEarly.delete(remote.name);
    return early;
  }
  return fetchRoutes(remote);
}

async function fetchRoutes(remote: RemoteEntry): Promise<RouteObject[]> {
  const exposed = await loadRemote<RemoteRoutesModule>(`${remote.name}/routes`);
  const routes = exposed && (Array.isArray(exposed.default) ? exposed.default : exposed.routes);
  if (!Array.isArray(routes)) {
    throw new Error(
      `Remote ${remote.name} does not expose a route array as ./routes (default or named "routes").`,
    );
  }
  return routes as RouteObject[];
}
