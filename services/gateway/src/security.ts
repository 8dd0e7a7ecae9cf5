import type { FastifyHelmetOptions } from '@fastify/helmet';

/**
 * Security headers for everything the portal serves. The Content-Security-Policy allows only the portal's
 * own origin for scripts (the shell and remotes are served from here), inline styles for emotion/MUI,
 * data:/blob: images and blob: workers for OpenLayers, and websockets for the realtime updates.
 * `extraOrigins` widens images and fetches for outside map tiles or imagery when a deployment uses them.
 */
export function helmetOptions(extraOrigins: readonly string[] = []): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: {
      // No helmet defaults: they would add `upgrade-insecure-requests`, which breaks plain-http localhost.
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        formAction: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...extraOrigins],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:', ...extraOrigins],
        workerSrc: ["'self'", 'blob:'],
      },
    },
  };
}
