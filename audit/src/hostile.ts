// One file on purpose (over 500 lines): the drawn values, the mutations and the answer checks all walk the
// same schema reader and seed derivation, and reading the generator top to bottom is how a reviewer checks
// what the suite does and does not try.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import type { RegisteredRoute } from '@portal/server-kit';

/**
 * Generated input for every route (issue 15, "Hostile input"): from a route's TypeBox schemas (read as the
 * JSON Schema they are) a bounded, reproducible list of calls — a few valid ones and hostile mutations of
 * them — and `answerProblems`, what no answer may show whatever it was asked. fast-check draws every choice
 * from a seed derived from the run's seed and the route, so a run is repeated exactly with the same seed
 * (HOSTILE_SEED) and one route's cases do not change when another route is added.
 */

/** A JSON Schema as TypeBox builds it (its Kind symbols are ignored). */
export type JsonSchema = { [key: string]: unknown };

/** One call to make with app.inject. */
export interface InjectCase {
  /** What it tries: 'valid 1', 'body.name: null', 'query page: repeated', 'path id: sql'. */
  label: string;
  kind: 'valid' | 'hostile';
  method: string;
  /** The path with its query, encoded as a client would send it. */
  url: string;
  headers: Record<string, string>;
  /** The raw body, sent as it is with its content-type header (a Buffer for multipart bodies). */
  payload?: string | Buffer;
  /**
   * Statuses the framework answers before any of the route's hooks run (a path it cannot decode: 400, a
   * body over the limit: 413), so an answer of one of them is not the guard's to give.
   */
  early?: number[];
  /**
   * The body is over every body limit: a caller the gate lets in must be answered 413 (the parser reads it
   * whatever the route does). A multipart file over the limit is not: a handler that refuses the call
   * before reading its file never meets the limit.
   */
  overLimit?: true;
}

export interface CaseOptions {
  /** The run's seed (HOSTILE_SEED); each route draws from a seed derived from it and the route. */
  seed: number;
  /** Valid calls per route (default 3). */
  valid?: number;
  /** At most this many cases per route (default 25); an oversize case comes on top. */
  maxCases?: number;
  /** Add one body above every body limit of the portal (once per service is enough). */
  oversize?: boolean;
  /**
   * Real values for path parameters by name (paramValues: ids that exist in the seeded database), used by
   * the valid calls and as the base the hostile cases mutate; parameters without one are drawn.
   */
  params?: Record<string, string>;
  /** Real values for top-level string properties of the body and query, by name (_id, requestID …). */
  fields?: Record<string, string>;
  /**
   * The route reads multipart/form-data: its valid calls send each file (in the field 'file', after these
   * text fields), its hostile ones a file of the wrong type, an empty one, none, and one over every limit.
   */
  multipart?: { fields: Record<string, string>; files: MultipartFile[] };
}

export interface MultipartFile {
  name: string;
  type: string;
  data: Buffer;
}

export const DEFAULT_SEED = 20261126;

/** The run's seed: HOSTILE_SEED when set (a failure prints the one it used), else a fixed one. */
export function runSeed(env: Record<string, string | undefined> = process.env): number {
  const given = Number(env.HOSTILE_SEED);
  return env.HOSTILE_SEED !== undefined && Number.isInteger(given) ? given : DEFAULT_SEED;
}

/** A 32-bit seed from the run's seed and a key (FNV-1a), stable across runs and route lists. */
export function seedFor(seed: number, key: string): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash | 0;
}

// ---------------------------------------------------------------------------------------------------------
// Hostile values

/** Just over 100 kB. */
export const HUGE_STRING = 'Ā'.repeat(50) + 'A'.repeat(100 * 1024);
/** 10 000 levels of arrays. */
export const DEEP_JSON = '['.repeat(10_000) + ']'.repeat(10_000);
export const SQL_STRINGS = ["' OR 1=1 --", "'; DROP TABLE x; --", '1) OR (1=1', '" OR ""="'] as const;
export const TRAVERSAL_STRINGS = [
  '../../etc/passwd',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
] as const;
export const UNICODE_STRINGS = [
  'a\u0000b',
  '\ud800x\udfff',
  'Zoë 🏠 \u202emoc.evil\u202c مرحبا \u0000',
  '\ufeff\u200b\u0007\u001b[31m',
] as const;
/** Names every object has through its prototype: a lookup by a caller's key must not find them. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'] as const;
export const OUT_OF_RANGE = [1e308, -1, 2 ** 63, -(2 ** 63), 'NaN', 'Infinity', -1e308, 0.5] as const;

/**
 * A body over every limit of the portal: 1 MiB by default (server-kit), 4 MiB in the report builder, 8 MiB for
 * a request with its files and an aerial image, 22 MiB for a report image.
 */
export const OVERSIZE_MIB = 24;
let oversize: string | undefined;
const oversizeBody = () => (oversize ??= `{"x":"${'A'.repeat(OVERSIZE_MIB * 1024 * 1024)}"}`);

/** A mutation of one value; `deep` stands for DEEP_JSON, spliced into the JSON text. */
type Mutation = { name: string; value: (original: unknown, pick: number) => unknown };

const DEEP = '\u0001deep\u0001';

const wrongTypeOf = (value: unknown): unknown => {
  if (typeof value === 'string') return 12345;
  if (typeof value === 'number') return 'not-a-number';
  if (typeof value === 'boolean') return 'maybe';
  if (Array.isArray(value)) return { 0: 'x' };
  if (value && typeof value === 'object') return 'x';
  return { x: [1] };
};
const at = <T>(list: readonly T[], pick: number) => list[Math.abs(pick) % list.length];

const MUTATIONS: Mutation[] = [
  { name: 'wrong type', value: (original) => wrongTypeOf(original) },
  { name: 'null', value: () => null },
  { name: 'huge string', value: () => HUGE_STRING },
  { name: 'unicode', value: (_, pick) => at(UNICODE_STRINGS, pick) },
  { name: 'nul', value: () => 'nul\u0000byte' },
  { name: 'sql', value: (_, pick) => at(SQL_STRINGS, pick) },
  { name: 'traversal', value: (_, pick) => at(TRAVERSAL_STRINGS, pick) },
  { name: 'out of range', value: (_, pick) => at(OUT_OF_RANGE, pick) },
  { name: 'deep nesting', value: () => DEEP },
  { name: 'prototype key', value: (_, pick) => at(PROTOTYPE_KEYS, pick) },
  {
    name: 'empty',
    value: (original) => (Array.isArray(original) ? [] : original && typeof original === 'object' ? {} : ''),
  },
];

// ---------------------------------------------------------------------------------------------------------
// Valid values from a schema

const isSchema = (value: unknown): value is JsonSchema => !!value && typeof value === 'object';
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** The object schema of an allOf (TypeBox's Intersect): the members' properties and requirements together. */
function merged(all: unknown[]): JsonSchema {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const member of all.filter(isSchema)) {
    Object.assign(properties, member.properties ?? {});
    required.push(...((member.required as string[] | undefined) ?? []));
  }
  return { type: 'object', properties, required };
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = num(schema.minLength) ?? 0;
  const maxLength = num(schema.maxLength) ?? minLength + 24;
  switch (schema.format) {
    case 'uuid':
      return fc.uuid({ version: 4 });
    case 'date-time':
      return fc
        .date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2035-12-31T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString());
    case 'date':
      return fc
        .date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2035-12-31T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.stringMatching(/^[a-z]{1,12}\.[a-z0-9]{1,8}@example\.co\.za$/);
    case 'uri':
      return fc.webUrl();
  }
  if (typeof schema.pattern === 'string') {
    try {
      const matching = fc.stringMatching(new RegExp(schema.pattern));
      // The length bounds the schema sets (a pattern alone decides the length): a few tries, never a loop.
      const bounded = (s: string) =>
        s.length >= minLength && (schema.maxLength === undefined || s.length <= maxLength);
      return fc
        .array(matching, { minLength: 6, maxLength: 6 })
        .map((tries) => tries.find(bounded) ?? tries[0]);
    } catch {
      // A pattern fast-check cannot generate from: plain strings (the server may refuse them).
    }
  }
  return fc.string({
    minLength,
    maxLength: Math.min(maxLength, minLength + 24),
    unit: 'grapheme-ascii',
  });
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  let min = num(schema.minimum);
  let max = num(schema.maximum);
  const exclusiveMin = num(schema.exclusiveMinimum);
  const exclusiveMax = num(schema.exclusiveMaximum);
  if (exclusiveMin !== undefined) min = integer ? Math.floor(exclusiveMin) + 1 : exclusiveMin + 1e-6;
  if (exclusiveMax !== undefined) max = integer ? Math.ceil(exclusiveMax) - 1 : exclusiveMax - 1e-6;
  min ??= max !== undefined ? max - 1000 : -10;
  max ??= min + 1000;
  if (integer)
    return fc.integer({
      min: Math.max(Math.ceil(min), Number.MIN_SAFE_INTEGER),
      max: Math.min(Math.floor(max), Number.MAX_SAFE_INTEGER),
    });
  return fc.oneof(
    fc.integer({ min: Math.ceil(min), max: Math.floor(max) }),
    fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
  );
}

/**
 * Values a schema accepts, as far as can be told from it: types, required, enums and consts, formats,
 * lengths and ranges, patterns fast-check can generate from. `full` gives objects every optional property too
 * (the base the field mutations work on).
 */
export function arbitraryOf(schema: unknown, full = false, depth = 0): fc.Arbitrary<unknown> {
  if (!isSchema(schema) || depth > 8) return fc.constant(null);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const alternatives = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    // The first non-null alternative leads (a nullable field is mostly given a value).
    const members = alternatives.map((member) => arbitraryOf(member, full, depth));
    return members.length === 1 ? members[0] : fc.oneof(...members);
  }
  if (Array.isArray(schema.allOf)) return arbitraryOf(merged(schema.allOf), full, depth);
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  if (types.length > 1)
    return fc.oneof(...types.map((type) => arbitraryOf({ ...schema, type }, full, depth)));
  switch (types[0]) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = num(schema.minItems) ?? 0;
      const maxLength = Math.min(num(schema.maxItems) ?? minLength + 3, minLength + 3);
      const items = arbitraryOf(schema.items ?? {}, full, depth + 1);
      return schema.uniqueItems
        ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(items, { minLength, maxLength });
    }
    case 'object':
      return objectArbitrary(schema, full, depth);
    default:
      if (isSchema(schema.properties)) return objectArbitrary(schema, full, depth);
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArbitrary(schema: JsonSchema, full: boolean, depth: number): fc.Arbitrary<unknown> {
  const properties = (isSchema(schema.properties) ? schema.properties : {}) as Record<string, unknown>;
  const keys = Object.keys(properties);
  const required = ((schema.required as string[] | undefined) ?? []).filter((key) => key in properties);
  const model = Object.fromEntries(keys.map((key) => [key, arbitraryOf(properties[key], full, depth + 1)]));
  const record = fc.record(model, { requiredKeys: full ? keys : required });
  // TypeBox's Record: patternProperties (or additionalProperties as a schema) with free keys.
  const patterns = isSchema(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
  const extra =
    patterns[0]?.[1] ?? (isSchema(schema.additionalProperties) ? schema.additionalProperties : undefined);
  if (keys.length > 0 || !extra) return record;
  const keyPattern = patterns[0]?.[0];
  let keyArb: fc.Arbitrary<string> = fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,11}$/);
  if (keyPattern && keyPattern !== '^(.*)$' && keyPattern !== '^.*$') {
    try {
      keyArb = fc.stringMatching(new RegExp(keyPattern));
    } catch {
      // keep the plain keys
    }
  }
  const maxKeys = Math.min(num(schema.maxProperties) ?? 3, 3);
  const minKeys = Math.min(num(schema.minProperties) ?? 0, maxKeys);
  return fc.dictionary(keyArb, arbitraryOf(extra, full, depth + 1), { minKeys, maxKeys });
}

/** `n` values the schema accepts, drawn from `seed`. */
export const validSamples = (schema: unknown, n: number, seed: number, full = false): unknown[] =>
  fc.sample(arbitraryOf(schema, full), { seed, numRuns: n });

// ---------------------------------------------------------------------------------------------------------
// Encoding

/** encodeURIComponent that also takes lone surrogates (as the invalid UTF-8 a hostile client would send). */
export function encodeComponent(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    let out = '';
    for (const char of value) {
      const code = char.charCodeAt(0);
      if (char.length === 1 && code >= 0xd800 && code <= 0xdfff)
        out += `%${(0xe0 | (code >> 12)).toString(16).toUpperCase()}%${(0x80 | ((code >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`;
      else out += encodeURIComponent(char);
    }
    return out;
  }
}

const scalarText = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : value === null || value === undefined
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);

/** A query string (without '?') from an object: arrays become repeated keys, as clients send them. */
export function queryString(values: Record<string, unknown>, raw: Record<string, string> = {}): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      const text = scalarText(one === DEEP ? DEEP_JSON : one);
      parts.push(`${encodeComponent(key)}=${raw[key] ?? encodeComponent(text)}`);
    }
  }
  return parts.join('&');
}

/** The JSON text of a body, with DEEP_JSON spliced in where the deep-nesting mutation put its marker. */
export const jsonText = (value: unknown): string =>
  JSON.stringify(value === undefined ? null : value).replace(JSON.stringify(DEEP), DEEP_JSON);

/**
 * A drawn path parameter as one segment of its own: never empty (another route), never '.' or '..' (a dot
 * segment, which clients and the URL parser remove, so the call would ask another path).
 */
const segment = (text: string) => (text === '' ? '1' : text === '.' || text === '..' ? `${text}x` : text);

/** The parameter names of a route pattern, '*' included. */
export const paramNames = (pattern: string): string[] => [
  ...[...pattern.matchAll(/:([A-Za-z0-9_]+)(\([^)]*\))?/g)].map((m) => m[1]),
  ...(pattern.includes('*') ? ['*'] : []),
];

/** A concrete path: each parameter replaced by its (already encoded) value. */
export function fillPath(pattern: string, encoded: Record<string, string>): string {
  return pattern
    .replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, (_, name: string) => encoded[name] ?? '1')
    .replace(/\*/g, () => encoded['*'] ?? '1');
}

/**
 * The real values a route pattern's parameters take from `known`, keyed `<segment before it>/:<name>` (so
 * `/group/:id` and `/request/:id` take different ids) or `:<name>` alone; parameters found in neither are
 * left out (drawn from the schema).
 */
export function paramValues(pattern: string, known: Record<string, string>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const m of pattern.matchAll(/([^/]*)\/:([A-Za-z0-9_]+)/g)) {
    const value = known[`${m[1]}/:${m[2]}`] ?? known[`:${m[2]}`];
    if (value !== undefined) values[m[2]] = value;
  }
  return values;
}

/** A multipart/form-data body: text fields first, then the file (if any) in the field 'file'. */
export function multipartBody(
  fields: Record<string, string>,
  file?: MultipartFile,
): { payload: Buffer; contentType: string } {
  const boundary = 'audit-boundary-7f3a9c';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
          `Content-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

let oversizeFile: Buffer | undefined;
const oversizeFileData = () => (oversizeFile ??= Buffer.alloc(OVERSIZE_MIB * 1024 * 1024, 0xff));

/** A value with the known fields set on its top-level string properties the schema names. */
function withFields(
  value: unknown,
  schema: JsonSchema | undefined,
  fields: Record<string, string> | undefined,
) {
  if (!fields || !schema || !value || typeof value !== 'object' || Array.isArray(value)) return value;
  const properties = (
    isSchema(schema.properties)
      ? schema.properties
      : Array.isArray(schema.allOf)
        ? merged(schema.allOf).properties
        : {}
  ) as Record<string, unknown>;
  const out = { ...(value as Record<string, unknown>) };
  for (const [name, known] of Object.entries(fields)) {
    const property = properties[name];
    if (!isSchema(property)) continue;
    const type = property.type;
    if (type === undefined || type === 'string' || (Array.isArray(type) && type.includes('string')))
      out[name] = known;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Cases

type Path = (string | number)[];

/** The places in a value a mutation can go: every property and element, to depth 3, at most 40. */
function placesIn(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  if (out.length >= 40 || prefix.length >= 3 || !value || typeof value !== 'object') return out;
  const entries = Array.isArray(value)
    ? value.slice(0, 2).map((v, i) => [i, v] as const)
    : Object.entries(value);
  for (const [key, child] of entries) {
    out.push([...prefix, key]);
    placesIn(child, [...prefix, key], out);
  }
  return out;
}

function setAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head] = setAt(copy[head], rest, replacement);
  return copy;
}

const getAt = (value: unknown, path: Path): unknown =>
  path.reduce<unknown>(
    (v, key) => (v && typeof v === 'object' ? (v as Record<string | number, unknown>)[key] : undefined),
    value,
  );

const pathText = (path: Path) => path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');

const schemaOf = (
  route: RegisteredRoute,
  part: 'body' | 'querystring' | 'params',
): JsonSchema | undefined => {
  const schema = route.schema as Record<string, unknown> | undefined;
  const found = schema?.[part] ?? (part === 'querystring' ? schema?.query : undefined);
  return isSchema(found) ? found : undefined;
};

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const JSON_TYPE = 'application/json';

/**
 * The cases for one route: `valid` valid calls, then hostile ones — the body as a whole (null, the wrong
 * type, 10 000 levels deep, malformed JSON, the wrong content type, a prototype-pollution object, multipart
 * garbage), each mutation at a drawn place of the body, query and path (wrong types, nulls, huge strings,
 * unicode with NUL and lone surrogates, SQL, path traversal, numbers out of range, deep nesting), repeated
 * query keys and unknown query keys — at most `maxCases`, plus, if asked, one body over the size limit.
 */
export function routeCases(route: RegisteredRoute, options: CaseOptions): InjectCase[] {
  const seed = seedFor(options.seed, `${route.method} ${route.url}`);
  const method = route.method.toUpperCase();
  const maxCases = options.maxCases ?? 25;
  const bodySchema = schemaOf(route, 'body');
  const querySchema = schemaOf(route, 'querystring');
  const paramsSchema = schemaOf(route, 'params');
  const names = paramNames(route.url);
  const sendsBody = !!bodySchema || WITH_BODY.has(method);

  // Valid parts: the params' own schema, or '1' for a parameter without one.
  const paramsArb = paramsSchema ? arbitraryOf(paramsSchema) : fc.constant({});
  const validParams = (
    fc.sample(paramsArb, { seed, numRuns: Math.max(options.valid ?? 3, 1) }) as Record<string, unknown>[]
  ).map((drawn) => ({ ...drawn, ...options.params }));
  const known = (schema: JsonSchema | undefined) => (value: unknown) =>
    withFields(value, schema, options.fields);
  const validQueries = querySchema
    ? validSamples(querySchema, options.valid ?? 3, seed + 1).map(known(querySchema))
    : [];
  const validBodies = bodySchema
    ? validSamples(bodySchema, options.valid ?? 3, seed + 2).map(known(bodySchema))
    : [];
  const [fullBody] = bodySchema
    ? validSamples(bodySchema, 1, seed + 3, true).map(known(bodySchema))
    : [undefined];
  const [fullQuery] = querySchema
    ? validSamples(querySchema, 1, seed + 4, true).map(known(querySchema))
    : [undefined];

  const encodedParams = (values: Record<string, unknown> | undefined, raw: Record<string, string> = {}) =>
    Object.fromEntries(
      names.map((name) => [name, raw[name] ?? encodeComponent(segment(scalarText(values?.[name] ?? '1')))]),
    );
  const make = (
    label: string,
    kind: InjectCase['kind'],
    parts: {
      params?: Record<string, unknown>;
      rawParams?: Record<string, string>;
      query?: string;
      body?: string | Buffer;
      contentType?: string;
      early?: number[];
      overLimit?: true;
    },
  ): InjectCase => {
    const path = fillPath(route.url, encodedParams(parts.params ?? validParams[0], parts.rawParams));
    const headers: Record<string, string> = {};
    if (parts.body !== undefined) headers['content-type'] = parts.contentType ?? JSON_TYPE;
    return {
      label,
      kind,
      method,
      url: parts.query ? `${path}?${parts.query}` : path,
      headers,
      ...(parts.body !== undefined ? { payload: parts.body } : {}),
      ...(parts.early ? { early: parts.early } : {}),
      ...(parts.overLimit ? { overLimit: parts.overLimit } : {}),
    };
  };
  const baseQuery = () =>
    fullQuery && typeof fullQuery === 'object' ? queryString(fullQuery as Record<string, unknown>) : '';
  const baseBody = () => (bodySchema ? jsonText(fullBody) : undefined);

  const valid: InjectCase[] = [];
  const validCount = options.valid ?? 3;
  const distinct = !!(bodySchema || querySchema || paramsSchema);
  const multipart = options.multipart;
  // A multipart route: a valid call per file (the route takes the kinds it reads, refuses the others).
  if (multipart)
    multipart.files.forEach((file, i) => {
      const query = validQueries[i];
      const { payload, contentType } = multipartBody(multipart.fields, file);
      valid.push(
        make(`valid ${i + 1}: multipart ${file.name}`, 'valid', {
          params: validParams[i] ?? validParams[0],
          query:
            query && typeof query === 'object' ? queryString(query as Record<string, unknown>) : undefined,
          body: payload,
          contentType,
        }),
      );
    });
  else
    for (let i = 0; i < (distinct ? validCount : 1); i++) {
      const query = validQueries[i];
      valid.push(
        make(`valid ${i + 1}`, 'valid', {
          params: validParams[i] ?? validParams[0],
          query:
            query && typeof query === 'object' ? queryString(query as Record<string, unknown>) : undefined,
          body: bodySchema ? jsonText(validBodies[i]) : undefined,
        }),
      );
    }

  // The body as a whole.
  const whole: InjectCase[] = [];
  if (sendsBody) {
    const query = baseQuery() || undefined;
    whole.push(make('body: null', 'hostile', { query, body: 'null' }));
    whole.push(make('body: wrong type', 'hostile', { query, body: jsonText(wrongTypeOf(fullBody ?? {})) }));
    whole.push(make('body: 10 000 levels deep', 'hostile', { query, body: DEEP_JSON }));
    whole.push(make('body: malformed JSON', 'hostile', { query, body: '{"a": [1, 2' }));
    whole.push(
      make('body: wrong content type', 'hostile', {
        query,
        body: baseBody() ?? '{}',
        contentType: 'application/x-www-form-urlencoded',
      }),
    );
    whole.push(
      make('body: prototype pollution', 'hostile', {
        query,
        body: '{"__proto__": {"isAdmin": true, "roles": ["admin"]}, "constructor": {"prototype": {"isAdmin": true}}}',
      }),
    );
    whole.push(
      make('body: multipart garbage', 'hostile', {
        query,
        body: '--xx\r\nContent-Disposition: form-data; name="file"; filename="../../etc/passwd"\r\n\r\n\u0000\u0000--x',
        contentType: 'multipart/form-data; boundary=xx',
      }),
    );
  }

  // A multipart route's hostile files: the wrong type under a picture's name, an empty file, no file.
  if (multipart) {
    const query = baseQuery() || undefined;
    const hostileFiles: [string, MultipartFile | undefined][] = [
      ['wrong type', { name: 'picture.png', type: 'image/png', data: Buffer.from('#!/bin/sh\nrm -rf /\n') }],
      ['empty file', { name: 'picture.jpg', type: 'image/jpeg', data: Buffer.alloc(0) }],
      ['traversal name', { ...multipart.files[0], name: TRAVERSAL_STRINGS[0] }],
      ['no file', undefined],
    ];
    for (const [label, file] of hostileFiles) {
      const { payload, contentType } = multipartBody(multipart.fields, file);
      whole.unshift(make(`multipart: ${label}`, 'hostile', { query, body: payload, contentType }));
    }
  }

  // Mutations at drawn places of the body, query and path: every mutation once, the parts taking turns.
  const placesOf = {
    body: bodySchema ? placesIn(fullBody) : [],
    query: Object.keys((fullQuery as object | undefined) ?? {}).map((key): Path => [key]),
    path: names.map((name): Path => [name]),
  };
  const parts = (['path', 'query', 'body'] as const).filter((part) => placesOf[part].length > 0);
  const mutated: InjectCase[] = [];
  if (parts.length > 0) {
    const draws = fc.sample(fc.tuple(fc.nat(), fc.nat({ max: 7 })), {
      seed: seed + 5,
      numRuns: MUTATIONS.length,
    });
    const firstPart = draws[0][0] % parts.length;
    MUTATIONS.forEach((mutation, i) => {
      const [placeDraw, pick] = draws[i];
      const part = parts[(firstPart + i) % parts.length];
      const path = placesOf[part][placeDraw % placesOf[part].length];
      const label =
        part === 'body'
          ? `body${pathText(path)}: ${mutation.name}`
          : `${part} ${String(path[0])}: ${mutation.name}`;
      if (part === 'body') {
        const value = mutation.value(getAt(fullBody, path), pick);
        mutated.push(
          make(label, 'hostile', {
            query: baseQuery() || undefined,
            body: jsonText(setAt(fullBody, path, value)),
          }),
        );
      } else if (part === 'query') {
        const value = mutation.value(getAt(fullQuery, path), pick);
        const query = queryString({ ...(fullQuery as Record<string, unknown>), [path[0]]: value });
        mutated.push(make(label, 'hostile', { query, body: baseBody() }));
      } else {
        const name = String(path[0]);
        const value = mutation.value(validParams[0]?.[name] ?? '1', pick);
        const text = value === DEEP ? '['.repeat(2000) : scalarText(value);
        mutated.push(
          make(label, 'hostile', {
            // An empty parameter would be another route: a single space then.
            rawParams: { [name]: encodeComponent(text === '' ? ' ' : text) },
            query: baseQuery() || undefined,
            body: baseBody(),
            // A path the router cannot decode (lone surrogates: invalid UTF-8) or too long a parameter is
            // answered by Fastify itself, before the route's hooks.
            early: [400, 414],
          }),
        );
      }
    });
  }

  // The query: every key repeated (?a=1&a=2), unknown keys with hostile values, and path-level tricks.
  const queryCases: InjectCase[] = [];
  const queryKeys = Object.keys((fullQuery as object | undefined) ?? {});
  for (const key of queryKeys.slice(0, 2)) {
    const base = queryString(fullQuery as Record<string, unknown>);
    queryCases.push(
      make(`query ${key}: repeated`, 'hostile', {
        query: `${base}&${encodeComponent(key)}=2`,
        body: baseBody(),
      }),
    );
  }
  queryCases.push(
    make('query: unknown hostile keys', 'hostile', {
      query: `${baseQuery() ? `${baseQuery()}&` : ''}__proto__[admin]=1&constructor.prototype.x=1&q=${encodeComponent(SQL_STRINGS[0])}&q=${encodeComponent(TRAVERSAL_STRINGS[0])}&z=%00&bad=%E0%A4%A`,
      body: baseBody(),
    }),
  );

  // In order of interest until the bound: valid, the whole body, the mutations, the query's tricks.
  // Headers: an over-long request id with quotes, a forwarded-for of no address, odd accept and language.
  const withHeaders = make('headers: hostile values', 'hostile', {
    query: baseQuery() || undefined,
    body: baseBody(),
  });
  Object.assign(withHeaders.headers, {
    'x-request-id': `${SQL_STRINGS[1]}${'x'.repeat(4000)}`,
    'x-forwarded-for': `${SQL_STRINGS[0]}, 999.999.1.1, ::ffff:zz`,
    accept: '*/*;q=NaN, application/json;q=1e308',
    'accept-language': TRAVERSAL_STRINGS[0],
    'if-none-match': '"' + 'W/'.repeat(500),
    range: 'bytes=-1-99999999999999999999',
  });

  const cases = [...valid, ...whole, ...mutated, withHeaders, ...queryCases].slice(
    0,
    Math.max(maxCases, valid.length),
  );
  if (multipart) {
    const { payload, contentType } = multipartBody(multipart.fields, {
      name: 'picture.png',
      type: 'image/png',
      data: oversizeFileData(),
    });
    cases.push(
      make(`multipart: a ${OVERSIZE_MIB} MiB file, over every limit`, 'hostile', {
        query: baseQuery() || undefined,
        body: payload,
        contentType,
        early: [413],
      }),
    );
  }
  if (options.oversize && sendsBody)
    cases.push(
      make(`body: ${OVERSIZE_MIB} MiB, over every body limit`, 'hostile', {
        query: baseQuery() || undefined,
        body: oversizeBody(),
        early: [413],
        overLimit: true,
      }),
    );
  return cases;
}

// ---------------------------------------------------------------------------------------------------------
// Answers

export interface AnswerLike {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

// Bounded repetitions only: the answers echo 100 kB strings, and an open `+` before a literal is quadratic.
const STACK = [
  /(?:\\n|\n) {0,8}at [\w$.<>[\] ]{1,200} \(?[\w./\\:-]{1,300}/, // a V8 frame
  /[\w/\\-]{0,100}\.[cm]?[jt]sx?:\d{1,6}(?::\d{1,6})?\b/, // a source file with its line
];
const SQL = [
  /\bSELECT\s[\s\S]{0,300}?\bFROM\b/,
  /\bINSERT INTO\b/,
  /\bUPDATE\s+\S+\s+SET\b/,
  /\bDELETE FROM\b/,
  /syntax error at or near/,
  /relation \\?"/,
  /\bviolates\b/,
  /duplicate key value/,
  /invalid input syntax for/,
  /QueryFailedError|EntityNotFoundError|TypeORMError/,
  /\bSQLSTATE\b/,
];
/** A PostgreSQL error code under a "code" key (23505, 22P02, 42P01 …): an error passed on as it is. */
const PG_CODE = /"code"\s*:\s*"[0-9][0-9A-Z][0-9A-Z]{3}"/;
const HASHES = [/\$argon2(?:id|i|d)\$/, /\$2[aby]\$\d{2}\$/];
const HEX64 = /(?<![0-9a-fA-F])[0-9a-fA-F]{64}(?![0-9a-fA-F])/g;
const TEXTUAL = /json|text|javascript|xml|csv|html|x-www-form/;

/**
 * What is wrong with an answer, whatever it was asked: a 5xx, a stack trace, SQL or a database error, a
 * password hash or a 64-hex token (unless it was in the request), the contents of /etc/passwd, and for an
 * /api path an error that is not the portal's JSON error shape. Empty means it is fine.
 */
export function answerProblems(
  answer: AnswerLike,
  request: { url: string; payload?: string | Buffer },
): string[] {
  const problems: string[] = [];
  const status = answer.statusCode;
  if (status >= 500) problems.push(`status ${status}`);
  const type = String(answer.headers['content-type'] ?? '');
  const text = type === '' || TEXTUAL.test(type) ? answer.body : '';
  const excerpt = (m: RegExpMatchArray | null) => (m ? JSON.stringify(m[0].slice(0, 80)) : '');
  for (const pattern of STACK) {
    const m = text.match(pattern);
    if (m) problems.push(`stack trace ${excerpt(m)}`);
  }
  for (const pattern of SQL) {
    const m = text.match(pattern);
    if (m) problems.push(`SQL ${excerpt(m)}`);
  }
  if (status >= 400) {
    const m = text.match(PG_CODE);
    if (m) problems.push(`database error code ${excerpt(m)}`);
  }
  for (const pattern of HASHES) {
    const m = text.match(pattern);
    if (m) problems.push(`hash ${excerpt(m)}`);
  }
  const payload =
    typeof request.payload === 'string' ? request.payload : (request.payload?.toString('latin1') ?? '');
  const sent = (hex: string) =>
    request.url.toLowerCase().includes(hex) || payload.toLowerCase().includes(hex);
  for (const m of text.matchAll(HEX64))
    if (!sent(m[0].toLowerCase())) {
      problems.push(`64-hex token ${excerpt(m)}`);
      break;
    }
  if (/root:[^:\n]*:0:0:/.test(text)) problems.push('contents of /etc/passwd');
  if (status >= 400 && request.url.startsWith('/api')) {
    let shape: { statusCode?: unknown; message?: unknown } | undefined;
    try {
      shape = /json/.test(type) ? JSON.parse(answer.body) : undefined;
    } catch {
      shape = undefined;
    }
    if (!shape || typeof shape.message !== 'string')
      problems.push(`not a JSON error body (${type || 'no type'})`);
    else if (shape.statusCode !== status)
      problems.push(`error body says ${String(shape.statusCode)}, status ${status}`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------
// Forged sessions

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Cookie headers no service may take for a session: garbage, an unsigned token (alg none) claiming every
 * role, one whose signature is cut off, one signed HS256 with a guessable secret, an expired-looking one,
 * and the cookie twice. Each must be answered as anonymous is.
 */
export function forgedSessionCookies(cookieName: string): { label: string; cookie: string }[] {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    sub: '00000000-0000-4000-8000-000000000001',
    email: 'admin@portal.test',
    name: 'Forged',
    roles: ['authenticated', 'admin', 'saviOperator', 'saviQC', 'ratesEditor'],
    groupId: null,
    claimsUser: false,
    iat: now,
    exp: now + 3600,
    ims: Date.now(),
  };
  const none = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.`;
  const hs = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(claims)}`;
  const hsSigned = `${hs}.${createHmac('sha256', 'secret').update(hs).digest('base64url')}`;
  return [
    { label: 'forged session: garbage', cookie: `${cookieName}=${encodeURIComponent("' OR 1=1 --\u0000")}` },
    { label: 'forged session: alg none, every role', cookie: `${cookieName}=${none}` },
    { label: 'forged session: no signature', cookie: `${cookieName}=${hs}.` },
    { label: 'forged session: HS256 with a guessed secret', cookie: `${cookieName}=${hsSigned}` },
    { label: 'forged session: twice', cookie: `${cookieName}=${none}; ${cookieName}=x` },
  ];
}

// ---------------------------------------------------------------------------------------------------------
// Calling

let calls = 0;

/** A new client address for every call, so no rate limit counts two of them (10.64.0.0/10). */
export function nextAddress(): string {
  calls++;
  return `10.${64 + ((calls >> 16) & 63)}.${(calls >> 8) & 255}.${calls & 255}`;
}

/**
 * Sends one case from an address of its own, with a role's credentials when given: a Cookie header (a
 * string), or the headers given (an API key's Authorization).
 */
export function send(app: FastifyInstance, one: InjectCase, auth?: string | Record<string, string>) {
  const extra = typeof auth === 'string' ? { cookie: auth } : (auth ?? {});
  return app.inject({
    method: one.method as 'GET',
    url: one.url,
    headers: { ...one.headers, ...extra },
    ...(one.payload !== undefined ? { payload: one.payload } : {}),
    remoteAddress: nextAddress(),
  });
}
