import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
// ESM only: Node (>= 20.19) requires it as it is; Jest transpiles it (the gateway's jest.config.cjs).
import scalarReference from '@scalar/fastify-api-reference';
import { GATEWAY_ROUTES } from '@portal/contracts';
import { errorAnswer, OPENAPI_PATH } from '@portal/server-kit';
import type { GatewayConfig, ServiceName } from './config';
import { mergeOpenapi, OpenapiMergeError, type OpenapiDocument, type ServiceDocument } from './openapi';
import type { Route } from './route-table';
import { parseUpstreams } from './upstreams';

/**
 * The API's documentation at the portal's URL: GET /api/openapi.json, the services' documents merged into one
 * (each read from its service's internal /openapi.json, kept `cacheMs`), and /api/docs, the interactive
 * reference (@scalar/fastify-api-reference) over it. The reference's script is the plugin's own bundle, served
 * from /api/docs/js/scalar.js: nothing is loaded from a CDN, so it works offline and under the portal's CSP.
 */

const DOCUMENT_TIMEOUT_MS = 5_000;

/** One service's document, from the first of its instances that answers. */
async function serviceDocument(service: ServiceName, setting: string): Promise<OpenapiDocument> {
  let last: unknown;
  for (const base of parseUpstreams(setting)) {
    try {
      const answer = await fetch(`${base}${OPENAPI_PATH}`, {
        signal: AbortSignal.timeout(DOCUMENT_TIMEOUT_MS),
      });
      if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
      return (await answer.json()) as OpenapiDocument;
    } catch (error) {
      last = error;
    }
  }
  throw Object.assign(new Error(`The ${service} service's API document could not be read.`), { cause: last });
}

export interface ApiDocsOptions {
  routes: readonly Route[];
  serviceUrls: GatewayConfig['serviceUrls'];
  /** How long a merged document is served before the services are asked again. */
  cacheMs: number;
}

/**
 * The inline script of the reference's page (it starts the viewer with its settings) allowed by its hash: the
 * portal's CSP allows scripts from its own origin only, and the page's one inline script is known exactly.
 */
/**
 * The page's language (WCAG 3.1.1, axe's html-has-lang): the plugin writes a bare `<html>`, and a screen
 * reader then reads the English reference in the user's own default language.
 */
function withLanguage(html: string): string {
  return html.replace(/<html(?![^>]*\blang=)([^>]*)>/i, '<html lang="en"$1>');
}

function allowInlineScripts(html: string, csp: string): string {
  const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`,
  );
  return csp.replace(
    /script-src ([^;]*)/,
    (_all, sources: string) => `script-src ${sources} ${hashes.join(' ')}`,
  );
}

/**
 * Registers both. Call it before @fastify/compress is registered: its CSP hook (onSend, on the app itself)
 * must read the page before compression turns it into a stream.
 */
export function registerApiDocs(app: FastifyInstance, options: ApiDocsOptions): void {
  const services = [...new Set(options.routes.map((route) => route.service))];
  let cached: { at: number; document: OpenapiDocument } | undefined;

  app.get(GATEWAY_ROUTES.openapi, async (request, reply) => {
    if (cached && Date.now() - cached.at < options.cacheMs) return cached.document;
    let parts: ServiceDocument[];
    try {
      parts = await Promise.all(
        services.map(async (service) => ({
          service,
          document: await serviceDocument(service, options.serviceUrls[service]),
        })),
      );
    } catch (error) {
      request.log.warn({ err: error }, 'an API document could not be read');
      return reply.code(502).send(errorAnswer(502, (error as Error).message, request.id));
    }
    try {
      const document = mergeOpenapi(parts, { servers: [{ url: '/', description: 'This portal' }] });
      cached = { at: Date.now(), document };
      return document;
    } catch (error) {
      // Two services claiming a path is a deployment error: said loudly, never half a document.
      if (!(error instanceof OpenapiMergeError)) throw error;
      request.log.error({ err: error }, 'the API documents do not merge');
      return reply.code(500).send(errorAnswer(500, error.message, request.id));
    }
  });

  const page = `${GATEWAY_ROUTES.docs}/`;
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.url !== page || typeof payload !== 'string') return payload;
    const html = withLanguage(payload);
    const csp = reply.getHeader('content-security-policy');
    if (typeof csp === 'string') reply.header('content-security-policy', allowInlineScripts(html, csp));
    return html;
  });
  app.register(scalarReference, {
    routePrefix: GATEWAY_ROUTES.docs,
    configuration: {
      url: GATEWAY_ROUTES.openapi,
      pageTitle: 'Property portal API',
      // Offline: no web fonts from Scalar's CDN, nothing reported home.
      withDefaultFonts: false,
      telemetry: false,
    },
  });
}
