import { Outlet, type PatchRoutesOnNavigationFunction, type RouteObject } from '@portal/web-kit';
import type { RemoteEntry } from '@portal/contracts';
import { RequireRole } from '@portal/web-kit';
import { NotFoundPage } from '../pages/NotFoundPage';
import { remoteForPath, rolesFor } from './manifest';
import { RemoteBoundary, RemoteRouteError, useLoadAgain } from './RemoteBoundary';
import { RemoteErrorPanel } from './RemoteErrorPanel';

/** The route whose children hold every page, the shell's and the remotes'. */
export const CONTENT_ROUTE_ID = 'content';

export type LoadRemoteRoutes = (remote: RemoteEntry) => Promise<RouteObject[]>;

/**
 * Puts the remotes' routes into the one router when they are first needed.
 *
 * At start-up the router holds, for each remote route prefix, a "gate" route (`/requests/*`). A visit
 * under a prefix makes react-router call patchRoutesOnNavigation (a splat match may hide a better one),
 * which loads the remote's `./routes` and adds them, wrapped in the remote's guard and error boundary;
 * their more specific paths then win over the gate. If the remote cannot be loaded, the gate stays
 * matched and shows the error panel, whose Retry navigates to the same place and so tries again.
 */
export class RemoteRoutes {
  private readonly added = new Set<string>();
  private readonly loading = new Map<string, Promise<RouteObject[]>>();
  private readonly failed = new Set<string>();

  constructor(
    readonly remotes: readonly RemoteEntry[],
    private readonly loadRoutes: LoadRemoteRoutes,
  ) {}

  patchRoutesOnNavigation: PatchRoutesOnNavigationFunction = async ({ path, patch, signal }) => {
    const remote = remoteForPath(this.remotes, path);
    if (!remote || this.added.has(remote.name)) return;
    try {
      const routes = await this.load(remote);
      if (signal.aborted || this.added.has(remote.name)) return;
      patch(CONTENT_ROUTE_ID, [remoteRouteTree(remote, routes)]);
      this.added.add(remote.name);
    } catch (error) {
      console.error(`The routes of remote ${remote.name} are unavailable.`, error);
      this.failed.add(remote.name);
    }
  };

  /** Starts (or joins) the load of a remote's routes; a failed load is forgotten, to be tried again. */
  private load(remote: RemoteEntry): Promise<RouteObject[]> {
    let pending = this.loading.get(remote.name);
    if (!pending) {
      this.failed.delete(remote.name);
      pending = this.loadRoutes(remote).finally(() => this.loading.delete(remote.name));
      this.loading.set(remote.name, pending);
    }
    return pending;
  }

  hasFailed(remote: RemoteEntry): boolean {
    return this.failed.has(remote.name);
  }

  /** The gate routes, one per route prefix of each remote. */
  gateRoutes(): RouteObject[] {
    return this.remotes.flatMap((remote) =>
      remote.routes.map((prefix) => ({
        path: `${prefix.replace(/\/+$/, '')}/*`,
        element: (
          <RequireRole roles={rolesFor(remote)}>
            <RemoteGate remote={remote} remoteRoutes={this} />
          </RequireRole>
        ),
      })),
    );
  }
}

/** A remote's routes under one pathless parent: its guard (from /remotes.json) and its boundaries. */
function remoteRouteTree(remote: RemoteEntry, routes: RouteObject[]): RouteObject {
  return {
    id: `remote:${remote.name}`,
    element: (
      <RequireRole roles={rolesFor(remote)}>
        <RemoteBoundary>
          <Outlet />
        </RemoteBoundary>
      </RequireRole>
    ),
    errorElement: <RemoteRouteError />,
    children: routes,
  };
}

/**
 * Matched under a remote's prefix when none of the remote's own routes is: the remote failed to load
 * (error panel with Retry), or it has no page at this path (not found).
 */
function RemoteGate({ remote, remoteRoutes }: { remote: RemoteEntry; remoteRoutes: RemoteRoutes }) {
  const { loadAgain, loading } = useLoadAgain();
  if (!remoteRoutes.hasFailed(remote)) return <NotFoundPage />;
  return <RemoteErrorPanel onRetry={loadAgain} retrying={loading} />;
}
