import { Type, type Static } from '@sinclair/typebox';

/** One entry of /remotes.json: where the shell finds a remote and which paths it owns. */
export const RemoteEntry = Type.Object({
  /** Federation name of the remote (also the key the shell registers it under). */
  name: Type.String(),
  /** URL of the remote's mf-manifest.json (or remoteEntry.js). */
  entry: Type.String(),
  /** Route prefixes the remote serves, e.g. ['/services/admin']. */
  routes: Type.Array(Type.String()),
  /** Roles allowed on the remote's routes; empty means any authenticated user. */
  roles: Type.Optional(Type.Array(Type.String())),
  /** Whether the route needs a logged-in user (default true). */
  authenticated: Type.Optional(Type.Boolean()),
});
export type RemoteEntry = Static<typeof RemoteEntry>;

export const RemotesManifest = Type.Object({ remotes: Type.Array(RemoteEntry) });
export type RemotesManifest = Static<typeof RemotesManifest>;
