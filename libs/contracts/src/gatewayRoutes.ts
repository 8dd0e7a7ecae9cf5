/**
 * The gateway's own routes (everything else it forwards by config/services.json's prefixes). Keyed like the
 * services' tables; the gateway's routes are not in libs/domain/src/routeAccess.ts (it checks no session).
 */
export const GATEWAY_ROUTES = {
  health: '/health',
  ready: '/ready',
  /** What the shell loads at start: the remotes and the paths each owns. */
  remotesManifest: '/remotes.json',
  /** The bundles of the remotes the gateway hosts. */
  remoteBundle: '/remotes/:name/*',
  /** The portal's OpenAPI document: every service's merged (services/gateway/src/api-docs.ts). */
  openapi: '/api/openapi.json',
  /** The interactive API reference over it (its page at /api/docs/, its script below it). */
  docs: '/api/docs',
  /** The shell's files, and its index.html for every page load. */
  shell: '/*',
} as const;
