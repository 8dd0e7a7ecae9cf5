import { isDeepStrictEqual } from 'node:util';

/**
 * The portal's one OpenAPI 3.1 document, merged from every service's own (server-kit's openapi.ts, each
 * answered at /openapi.json on the service's port): their paths, component schemas, security schemes and
 * tags. A path two services claim is an error (the gateway routes a path to one service), never a silent
 * overwrite. Used by the gateway's /api/openapi.json and by scripts/openapi.mjs (npm test), so the
 * document linted and compiled into the typed client is the one the portal serves.
 */

/** The parts of an OpenAPI document the merge reads and writes (everything else passes through). */
export interface OpenapiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string; description?: string }[];
  paths?: Record<string, Record<string, unknown>>;
  components?: {
    schemas?: Record<string, unknown>;
    securitySchemes?: Record<string, unknown>;
    [other: string]: unknown;
  };
  tags?: { name: string; description?: string }[];
  [other: string]: unknown;
}

export interface ServiceDocument {
  /** The service's name (config/services.json). */
  service: string;
  document: OpenapiDocument;
}

/** The areas (tags) the services' routes use, in the order the reference lists them, with what each is. */
export const API_AREAS: { name: string; description: string }[] = [
  {
    name: 'Addresses',
    description: 'AVS: geocoding, search, reverse look-ups and address validation (locator).',
  },
  {
    name: 'Maps and imagery',
    description: 'Map tiles, aerial imagery, dated surveys and the buildings seen on them (locator).',
  },
  {
    name: 'Requests',
    description: 'SAVi, AVS and IRiS requests: logging one, following it to delivery, the request console.',
  },
  { name: 'Report builder', description: 'SAVi reports: sections, images, totals and the PDF.' },
  { name: 'IRiS', description: 'IRiS risk reports of a request and their PDF.' },
  { name: 'Account', description: 'Signing in and out, the signed-in user, passwords (identity).' },
  { name: 'Services admin', description: 'Administering groups, users, their services and rate tables.' },
  { name: 'API keys', description: "A group's API keys for machine clients (services admin)." },
  { name: 'Webhooks', description: "A group's webhook endpoints and their deliveries (services admin)." },
  { name: 'Usage', description: "A group's metered usage per day, service and metric (services admin)." },
  { name: 'Address editor', description: "The SAVi operators' address editor (avs-editor)." },
  {
    name: 'Notifications',
    description:
      "The signed-in person's notifications (the header's bell) and which of them they get (requests).",
  },
];

export const API_DESCRIPTION = [
  "The property portal's HTTP API: every call the portal's own screens make, documented from the services' route schemas.",
  '',
  '**Authentication.** Machine clients send `Authorization: Bearer ppk_…`, an API key a group administrator creates in ' +
    'services admin (POST /api/v1.0/group/{id}/api-keys) for the services the key may use, read-only or read-write. ' +
    'Browsers use the session cookie set by POST /api/v1.0/login. An operation lists the schemes it accepts; one without ' +
    '`apiKey` answers a key 403.',
  '',
  '**Errors.** Every error answer has one shape: `{ statusCode, error, message, messages?, requestId }`. A 400 lists ' +
    'every problem with the request in `messages`; `requestId` (also the `x-request-id` header) names the call in the ' +
    "portal's logs.",
  '',
  '**Limits.** Calls with a key are rate limited per key: answers carry `RateLimit` and `RateLimit-Policy` headers, ' +
    'and past the limit a 429 with `Retry-After`.',
  '',
  'A walk-through of a whole machine session (curl and a typed client) is docs/api.md in the repository.',
].join('\n');

/** Thrown when the services' documents cannot be merged (a path claimed twice, a clashing scheme). */
export class OpenapiMergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OpenapiMergeError';
  }
}

const SCHEMA_REF = '#/components/schemas/';

/** Rewrites every `$ref` to a component schema through `rename` (a deep copy). */
function renameRefs<T>(value: T, rename: (name: string) => string): T {
  if (Array.isArray(value)) return value.map((item) => renameRefs(item, rename)) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] =
      key === '$ref' && typeof item === 'string' && item.startsWith(SCHEMA_REF)
        ? SCHEMA_REF + rename(decodeURIComponent(item.slice(SCHEMA_REF.length)))
        : renameRefs(item, rename);
  }
  return copy as T;
}

/** '/api/v1.0/request/' and '/api/v1.0/request' are one route to the services (both spellings answer). */
const routeKey = (path: string) => path.replace(/\/+$/, '') || '/';

/** A component schema name safe in a JSON pointer and readable: 'def-3' of iris → 'iris-def-3'. */
const qualified = (service: string, name: string) => `${service}-${name}`.replace(/[^A-Za-z0-9._-]/g, '_');

/**
 * Merges the services' documents into the portal's. Paths keep their exact form (the spec's, trailing slash
 * and all); a path — in either spelling — in two services' documents throws an OpenapiMergeError naming both.
 * Component schemas keep their names where every service means the same schema by it (ErrorAnswer) and are
 * qualified by the service's name where two differ (@fastify/swagger numbers each service's own `def-N`).
 */
export function mergeOpenapi(
  parts: readonly ServiceDocument[],
  options: { version?: string; servers?: OpenapiDocument['servers'] } = {},
): OpenapiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  const claimedBy = new Map<string, string>();
  const schemas: Record<string, unknown> = {};
  const securitySchemes: Record<string, unknown> = {};
  const tagsUsed = new Set<string>();

  // A name is kept when no two services give it different schemas.
  const byName = new Map<string, unknown[]>();
  for (const { document } of parts)
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {}))
      byName.set(name, [...(byName.get(name) ?? []), schema]);
  const shared = (name: string) => {
    const all = byName.get(name) ?? [];
    return all.every((schema) => isDeepStrictEqual(schema, all[0]));
  };

  for (const { service, document } of parts) {
    const rename = (name: string) => (shared(name) ? name : qualified(service, name));
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {}))
      schemas[rename(name)] = renameRefs(schema, rename);
    for (const [name, scheme] of Object.entries(document.components?.securitySchemes ?? {})) {
      if (name in securitySchemes && !isDeepStrictEqual(securitySchemes[name], scheme))
        throw new OpenapiMergeError(
          `The security scheme '${name}' differs between the services (${service}).`,
        );
      securitySchemes[name] = scheme;
    }
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      const other = claimedBy.get(routeKey(path));
      if (other !== undefined)
        throw new OpenapiMergeError(
          `The path ${path} is claimed by two services, ${other} and ${service}: the gateway routes a path to one.`,
        );
      claimedBy.set(routeKey(path), service);
      paths[path] = renameRefs(item, rename);
      for (const operation of Object.values(item)) {
        const tags = (operation as { tags?: unknown }).tags;
        for (const tag of Array.isArray(tags) ? tags : []) if (typeof tag === 'string') tagsUsed.add(tag);
      }
    }
  }

  const known = API_AREAS.filter((area) => tagsUsed.has(area.name));
  const others = [...tagsUsed]
    .filter((tag) => !API_AREAS.some((area) => area.name === tag))
    .sort()
    .map((name) => ({ name, description: name }));
  return {
    openapi: '3.1.0',
    info: { title: 'Property portal API', version: options.version ?? '1.0', description: API_DESCRIPTION },
    ...(options.servers ? { servers: options.servers } : {}),
    tags: [...known, ...others],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: { securitySchemes, schemas },
  };
}
