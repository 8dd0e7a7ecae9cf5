// A typed client of the portal's API in a few lines over plain fetch: paths, parameters, bodies and answers
// all come from the types openapi-typescript generates from the OpenAPI document (GET /api/openapi.json;
// `node scripts/openapi.mjs --check` writes them to var/api-client/portal-api.d.ts). A path, method, body or
// field the API does not have is a type error, and so is reading an answer's field that is not there.
import type { components, paths } from '../../var/api-client/portal-api';

export type Method = 'get' | 'put' | 'post' | 'delete';

/** The paths that have an operation for `method`. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never;
}[keyof paths];

/** The operation of a path and method. */
export type Operation<P extends keyof paths, M extends Method> = paths[P] extends { [K in M]: infer O }
  ? O
  : never;

type Parameters<O> = O extends { parameters: infer X } ? X : never;

/** What a call sends: path parameters, query, JSON body — each only when the operation has it. */
export type CallOptions<O> = (Parameters<O> extends { path: infer T } ? { path: T } : unknown) &
  (Parameters<O> extends { query: infer T }
    ? { query: T }
    : Parameters<O> extends { query?: infer T }
      ? { query?: T }
      : unknown) &
  (O extends { requestBody: { content: { 'application/json': infer B } } }
    ? { body: B }
    : O extends { requestBody?: { content: { 'application/json': infer B } } }
      ? { body?: B }
      : unknown) & { headers?: Record<string, string> };

type Responses<O> = O extends { responses: infer R } ? R : never;
type JsonOf<A> = A extends { content: { 'application/json': infer J } }
  ? J
  : A extends { content: { 'text/plain': infer T } }
    ? T
    : undefined;

/** The JSON a successful call answers (its 200, 201 or 202). */
export type Answer<O> = JsonOf<Responses<O>[Extract<keyof Responses<O>, 200 | 201 | 202>]>;

/** The portal's one error shape. */
export type ErrorAnswer = components['schemas']['ErrorAnswer'];

/** A call the portal refused or failed: its status and the error answer (message, messages, requestId). */
export class PortalError extends Error {
  constructor(
    readonly status: number,
    readonly answer: ErrorAnswer | undefined,
    readonly headers: Headers,
  ) {
    super(answer?.message ?? `HTTP ${status}`);
    this.name = 'PortalError';
  }
}

/** No options needed when the operation has neither required parameters nor a required body. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{} extends T`: T has no required key
type OptionsArgument<O> = {} extends CallOptions<O> ? [options?: CallOptions<O>] : [options: CallOptions<O>];

function urlOf(baseUrl: string, path: string, options: { path?: object; query?: object } = {}): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_all, name: string) =>
    encodeURIComponent(String((options.path as Record<string, unknown> | undefined)?.[name])),
  );
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(options.query ?? {}))
    if (value !== undefined && value !== null) query.set(name, String(value));
  const search = query.toString();
  return `${baseUrl.replace(/\/$/, '')}${filled}${search ? `?${search}` : ''}`;
}

/**
 * A client for one portal and one API key: `call` answers an operation's JSON (or throws a PortalError),
 * `fetchRaw` its Response (a PDF, a zip, headers such as Location or RateLimit).
 */
export function portalClient(baseUrl: string, apiKey: string, fetchImpl: typeof fetch = fetch) {
  async function fetchRaw<M extends Method, P extends PathsWith<M>>(
    method: M,
    path: P,
    ...[options]: OptionsArgument<Operation<P, M>>
  ): Promise<Response> {
    const given = (options ?? {}) as {
      path?: object;
      query?: object;
      body?: unknown;
      headers?: Record<string, string>;
    };
    const response = await fetchImpl(urlOf(baseUrl, path, given), {
      method: method.toUpperCase(),
      headers: {
        authorization: `Bearer ${apiKey}`,
        accept: 'application/json',
        ...(given.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...given.headers,
      },
      body: given.body === undefined ? undefined : JSON.stringify(given.body),
    });
    if (!response.ok) {
      const answer = (await response.json().catch(() => undefined)) as ErrorAnswer | undefined;
      throw new PortalError(response.status, answer, response.headers);
    }
    return response;
  }

  async function call<M extends Method, P extends PathsWith<M>>(
    method: M,
    path: P,
    ...options: OptionsArgument<Operation<P, M>>
  ): Promise<Answer<Operation<P, M>>> {
    const response = await fetchRaw(method, path, ...options);
    const type = response.headers.get('content-type') ?? '';
    return (type.includes('json') ? await response.json() : await response.text()) as Answer<Operation<P, M>>;
  }

  return { call, fetchRaw };
}
