import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance, FastifySchema } from 'fastify';
import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { ErrorAnswer, SESSION_COOKIE } from '@portal/contracts';
import { INTERNAL_ROUTES, routeAccess, type RouteAccessEntry } from '@portal/domain';
import { reasonPhrase } from './errors';

/**
 * Each service's OpenAPI 3.1 document, built by @fastify/swagger (dynamic mode) from the routes' own TypeBox
 * schemas: their summary, description, tags, params, bodies and answers. What the schemas cannot know comes
 * from the route table (libs/domain/src/routeAccess.ts) here, once for every service: who may call the route
 * (`security`), the gate's 401/403 (and a key's 429) among the error answers, and an operationId made from
 * the method and path. The service answers the document on its own port at OPENAPI_PATH (internal, like
 * /health); the gateway merges every service's into the portal's one at /api/openapi.json.
 */

/** Where a service answers its document (its own port; in the route table's INTERNAL_ROUTES). */
export const OPENAPI_PATH = '/openapi.json';

/** The two ways in: the browser's session cookie, or a group's API key as a bearer token. */
export const OPENAPI_SECURITY_SCHEMES = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description:
      "The portal's session: identity's POST /api/v1.0/login sets this HttpOnly cookie (a signed token). " +
      'What a browser uses.',
  },
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'ppk_…',
    description:
      "One of the portal's API keys (`Authorization: Bearer ppk_…`), created for a group by its administrator " +
      'in services admin (POST /api/v1.0/group/{id}/api-keys) with the services it may use and a read or ' +
      'write scope. Only the operations that list this scheme accept a key; the others answer a key 403.',
  },
} as const;

/** The route table's word on whether a key may call a route (the entry's `key`, when the table has it). */
const keyAllowed = (entry: RouteAccessEntry) => entry.key !== undefined;

/** `security` of an operation: none for anonymous routes; the session, and the key where the table allows one. */
export function securityOf(entry: RouteAccessEntry): Record<string, string[]>[] {
  if (entry.allow.includes('anonymous')) return [];
  return keyAllowed(entry) ? [{ session: [] }, { apiKey: [] }] : [{ session: [] }];
}

/** The error answers the gate itself may give for a route (401 no session or key, 403 refused, 429 a key's limit). */
export function gateAnswers(entry: RouteAccessEntry): number[] {
  if (entry.allow.includes('anonymous')) return [];
  // Every guarded route can refuse with a 403: a role the gate does not allow, a key's service or scope, or a
  // route closed to keys.
  return keyAllowed(entry) ? [401, 403, 429] : [401, 403];
}

/**
 * A readable operationId from the method and the registered path: 'GET /api/v1.0/iris/:reportId/pdf/ready'
 * → 'getIrisByReportIdPdfReady'. Paths are unique per method across the portal (the gateway refuses two
 * services claiming one), so these are too.
 */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/\{([^}]+)\}/g, ':$1')
    .replace(/^\/api(\/v1\.0)?/, '')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) =>
      segment.startsWith(':')
        ? [
            'by',
            ...segment
              .slice(1)
              .replace(/\(.*$/, '')
              .split(/[^A-Za-z0-9]+/),
          ]
        : segment === '*'
          ? ['path']
          : segment.split(/[^A-Za-z0-9]+/),
    )
    .filter(Boolean);
  const capitalised = words.map((word) => word[0].toUpperCase() + word.slice(1));
  return method.toLowerCase() + (capitalised.join('') || 'Root');
}

type Transform = (arg: { schema: FastifySchema; url: string; route: { method: string | string[] } }) => {
  schema: FastifySchema & Record<string, unknown>;
  url: string;
};

/**
 * What the document shows of a route: internal ones (/health, /ready, /metrics, the document itself) and
 * third-party plugins' own routes below a table prefix (Bull Board, the oblique viewer's proxy) are hidden;
 * every other operation gets the table's security and gate answers and an operationId where it has none.
 */
export function openapiTransform(service: string | undefined): Transform {
  const internal = new Set<string>(INTERNAL_ROUTES);
  return ({ schema, url, route }) => {
    const own = (schema ?? {}) as FastifySchema & Record<string, unknown>;
    const method = [route.method].flat()[0];
    const bare = url.replace(/\/$/, '') || '/';
    const entry = service === undefined ? undefined : routeAccess(service, method, url);
    if (internal.has(bare) || entry?.prefix) return { schema: { ...own, hide: true }, url };
    // A wildcard's rest of the path (it may hold slashes) is OpenAPI's parameter `path`.
    const params = own.params as { properties?: Record<string, unknown> } | undefined;
    const wildcardParams =
      params?.properties?.['*'] === undefined
        ? {}
        : {
            params: {
              ...params,
              properties: Object.fromEntries(
                Object.entries(params.properties).map(([name, value]) => [
                  name === '*' ? 'path' : name,
                  value,
                ]),
              ),
              ...(Array.isArray((params as { required?: unknown }).required)
                ? {
                    required: ((params as { required: string[] }).required ?? []).map((name) =>
                      name === '*' ? 'path' : name,
                    ),
                  }
                : {}),
            },
          };
    const response = { ...((own.response as Record<string, unknown> | undefined) ?? {}) };
    for (const code of entry ? gateAnswers(entry) : []) response[code] ??= ErrorAnswer;
    return {
      url: url.replace(/\*$/, '{path}'),
      schema: {
        ...own,
        ...wildcardParams,
        ...(entry ? { security: securityOf(entry) } : {}),
        response,
      },
    };
  };
}

/** What each error status means for a caller, as the document's answer descriptions. */
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is not valid: `messages` lists every problem.',
  401: 'No valid session or API key (missing, expired, revoked).',
  403: 'Refused: the caller may not do this (role, service, scope, or the row is not theirs).',
  404: 'Not found.',
  409: 'Conflicts with the current state of what it changes.',
  413: 'The body is too large.',
  415: 'The body is of a type the operation does not take.',
  429: 'Too many calls with this API key: wait `Retry-After` seconds.',
  503: 'A store the portal needs is down for a moment: try again after `Retry-After` seconds.',
};

const ERROR_SCHEMA_NAME = 'ErrorAnswer';
/** The one error shape as JSON Schema (what @fastify/swagger writes for contracts' ErrorAnswer). */
const ERROR_JSON: unknown = (() => {
  const { $id: _id, ...schema } = JSON.parse(JSON.stringify(ErrorAnswer)) as Record<string, unknown>;
  return schema;
})();

type Responses = Record<
  string,
  { description?: string; headers?: unknown; content?: Record<string, { schema?: unknown }> }
>;

/**
 * The document's error answers share one component schema (ErrorAnswer, rather than a copy in each of
 * hundreds of answers) and say what their status means; a 429 names its Retry-After header.
 */
export function shareErrorAnswers<T extends { paths?: unknown; components?: unknown }>(document: T): T {
  let used = false;
  for (const item of Object.values((document.paths ?? {}) as Record<string, Record<string, unknown>>))
    for (const operation of Object.values(item)) {
      const responses = (operation as { responses?: Responses }).responses ?? {};
      for (const [code, answer] of Object.entries(responses)) {
        const status = Number(code);
        if (!(status >= 400)) continue;
        const json = answer.content?.['application/json'];
        if (json && isDeepStrictEqual(json.schema, ERROR_JSON)) {
          json.schema = { $ref: `#/components/schemas/${ERROR_SCHEMA_NAME}` };
          used = true;
        }
        if (!answer.description || answer.description === 'Default Response')
          answer.description = ERROR_DESCRIPTIONS[status] ?? reasonPhrase(status);
        if (status === 429)
          answer.headers = {
            'Retry-After': {
              description: 'Seconds until the next call may be made.',
              schema: { type: 'integer' },
            },
          };
      }
    }
  if (used) {
    const components = (document.components ?? {}) as { schemas?: Record<string, unknown> };
    components.schemas = { ...components.schemas, [ERROR_SCHEMA_NAME]: ERROR_JSON };
    document.components = components;
  }
  return document;
}

/**
 * Per operation, what only the finished document knows: an operationId from its own method (a route of
 * several methods has one schema for all), and no path parameter its path does not have (a params schema
 * shared by a route with and without an optional segment).
 */
export function finishOperations<T extends { paths?: unknown }>(document: T): T {
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown>>;
  for (const [path, item] of Object.entries(paths))
    for (const [method, value] of Object.entries(item)) {
      // A copy each: @fastify/swagger gives every method of a route the same operation object.
      const operation = { ...(value as object) } as {
        operationId?: string;
        parameters?: { in?: string; name?: string }[];
      };
      operation.operationId ??= operationIdOf(method, path);
      if (operation.parameters)
        operation.parameters = operation.parameters.filter(
          (parameter) => parameter.in !== 'path' || path.includes(`{${parameter.name}}`),
        );
      item[method] = operation;
    }
  return withTuples2020(document);
}

/**
 * TypeBox writes a tuple the draft-07 way (`items` a list, `additionalItems`); OpenAPI 3.1 speaks JSON
 * Schema 2020-12, whose tuple is `prefixItems` (and `items: false` for no more).
 */
function withTuples2020<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withTuples2020) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = withTuples2020(item);
  if (Array.isArray(copy.items)) {
    copy.prefixItems = copy.items;
    delete copy.items;
    if ('additionalItems' in copy) {
      if (copy.additionalItems === false) copy.items = false;
      delete copy.additionalItems;
    }
  }
  return copy as T;
}

/**
 * A file answer (a PDF, a picture, a spreadsheet) in a route's response schema: the document then says what
 * the operation sends. Fastify sends a stream or a buffer as it is (no serializer runs for it).
 */
export const fileAnswer = (mediaType: string, description: string) => ({
  description,
  content: { [mediaType]: { schema: { type: 'string', format: 'binary' } } },
});

export interface OpenapiOptions {
  /** The service's name in the route table (security and gate answers from it); unset for a plain app. */
  service?: string;
  title: string;
  version?: string;
}

/**
 * Installs @fastify/swagger on the app itself, at once (not queued as a plugin: its route hook must see the
 * routes an app adds right after createServiceApp, before any await) and GET OPENAPI_PATH answering the
 * document. `app.swagger()` gives the same document in-process (scripts/openapi.mjs, tests).
 */
export function installOpenapi(app: FastifyInstance, options: OpenapiOptions): void {
  const swaggerOptions: FastifyDynamicSwaggerOptions = {
    openapi: {
      openapi: '3.1.0',
      info: { title: options.title, version: options.version ?? '1.0' },
      components: { securitySchemes: OPENAPI_SECURITY_SCHEMES },
    },
    transform: openapiTransform(options.service) as FastifyDynamicSwaggerOptions['transform'],
    transformObject: (document) =>
      'openapiObject' in document
        ? finishOperations(shareErrorAnswers(document.openapiObject))
        : document.swaggerObject,
  };
  swagger(app, swaggerOptions, (error) => {
    if (error) throw error;
  });
  app.get(OPENAPI_PATH, { schema: { hide: true }, logLevel: 'warn' }, async () => app.swagger());
}
