import type { FastifyError, FastifyInstance } from 'fastify';
import type { ErrorAnswer } from '@portal/contracts';

/** An error meant for the client: its status and message are sent as they are. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly messages?: string[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, messages?: string[]) => new HttpError(400, message, messages);
export const unauthorized = (message = 'Authentication required.') => new HttpError(401, message);
export const forbidden = (message = 'You do not have permission to do that.') => new HttpError(403, message);
export const notFound = (message = 'Not found.') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};
export const reasonPhrase = (status: number) => REASONS[status] ?? (status >= 500 ? 'Server Error' : 'Error');

/** What a caller reads while a store the portal needs is down (a 503: the next calls may well succeed). */
export const UNAVAILABLE_TEXT = {
  database: 'The database is not available right now. Please try again shortly.',
  redis: 'The session and queue store (Redis) is not available right now. Please try again shortly.',
} as const;

/** Seconds a 503 of a store that is down asks the client to wait (Retry-After). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * PostgreSQL's codes of a connection that ended or could not be made: 08xxx connection exceptions, 57P01
 * terminated by an administrator (pg_terminate_backend), 57P02 crash shutdown, 57P03 starting up, 53300 too
 * many connections.
 */
const DATABASE_UNAVAILABLE_CODES = new Set([
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
/** A socket that could not be made or broke (pg passes these through when its connection does). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** node-postgres' own messages when its connection ended or was never made. */
const DATABASE_UNAVAILABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;
/** ioredis' messages when Redis is down (its offline queue gave up, or the connection is gone). */
const REDIS_UNAVAILABLE_MESSAGE =
  /^(Reached the max retries per request limit|Connection is closed\.|Stream isn't writeable|LOADING )/;

type ErrorLike = { name?: unknown; code?: unknown; message?: unknown; driverError?: unknown };

/** TypeORM's refusals of a statement on a query runner it released after its connection was lost. */
const RELEASED_QUERY_RUNNER = new Set([
  'QueryRunnerAlreadyReleasedError',
  'QueryRunnerProviderAlreadyReleasedError',
]);

/**
 * Which store an error says is unreachable — 'database' (PostgreSQL: a terminated or refused connection,
 * directly or wrapped by TypeORM as driverError) or 'redis' (ioredis gave up on a command) — or null for
 * any other error (a failed call to another service, whose `cause` says ECONNREFUSED, is not one). Such
 * failures are answered 503 with UNAVAILABLE_TEXT, not 500: nothing is wrong with the call, and the next
 * one succeeds once the pool or client has reconnected.
 */
export function unavailableStore(error: unknown): keyof typeof UNAVAILABLE_TEXT | null {
  const seen = new Set<unknown>();
  for (
    let e = error as ErrorLike | undefined;
    e && typeof e === 'object' && !seen.has(e);
    e = e.driverError as ErrorLike | undefined
  ) {
    seen.add(e);
    const message = typeof e.message === 'string' ? e.message : '';
    if (e.name === 'MaxRetriesPerRequestError' || REDIS_UNAVAILABLE_MESSAGE.test(message)) return 'redis';
    if (typeof e.code === 'string' && (DATABASE_UNAVAILABLE_CODES.has(e.code) || NETWORK_CODES.has(e.code)))
      return 'database';
    if (DATABASE_UNAVAILABLE_MESSAGE.test(message)) return 'database';
    // A transaction whose connection was terminated: TypeORM has released its query runner, and the
    // transaction's next statement is refused with one of these.
    if (RELEASED_QUERY_RUNNER.has(String(e.name))) return 'database';
  }
  return null;
}

/** What a caller reads when the database refused a value the request carried (see refusedValue). */
export const REFUSED_VALUE_TEXT =
  'A value in the request cannot be stored or looked up: check it and try again.';

/**
 * True when PostgreSQL refused a value as data (SQLSTATE class 22, data exception), directly or wrapped by
 * TypeORM as driverError: a NUL byte in text (22021), a NUL or a lone surrogate in JSON (22P05, 22P02), a
 * number beyond its column's range (22003, e.g. an id of 2**63), a string over its column's length (22001),
 * an impossible date (22008). The value came with the request, which passed its schema: the answer is a 400,
 * not a 500 (found by the hostile-input suite, audit/src/hostile-input.test.ts).
 */
export function refusedValue(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (
    let e = error as ErrorLike | undefined;
    e && typeof e === 'object' && !seen.has(e);
    e = e.driverError as ErrorLike | undefined
  ) {
    seen.add(e);
    if (typeof e.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code)) return true;
  }
  return false;
}

export function errorAnswer(
  statusCode: number,
  message: string,
  requestId?: string,
  messages?: string[],
): ErrorAnswer {
  return {
    statusCode,
    error: reasonPhrase(statusCode),
    message,
    ...(messages ? { messages } : {}),
    ...(requestId ? { requestId } : {}),
  };
}

/**
 * Installs the one error shape for every failure: schema violations are 400s with the validator's
 * message, client errors keep theirs, a store that is down (PostgreSQL, Redis) is a 503 saying which
 * (`unavailableStore`), and other server errors never echo their message (it may leak internals).
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | HttpError, request, reply) => {
    let status = err.statusCode ?? 500;
    let message = err.message;
    let messages: string[] | undefined;
    if ('validation' in err && err.validation) {
      status = 400;
      messages = err.validation.map((v) =>
        `${err.validationContext ?? 'request'}${v.instancePath} ${v.message ?? 'is invalid'}`.trim(),
      );
      message = messages.join('; ');
    } else if (err instanceof HttpError) {
      messages = err.messages;
      if (err.headers) reply.headers(err.headers);
    }
    if (status < 400 || status > 599) status = 500;
    const store = status >= 500 ? unavailableStore(err) : null;
    if (store) {
      request.log.warn({ err, store }, 'request failed: a store is unavailable');
      reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      return reply.status(503).send(errorAnswer(503, UNAVAILABLE_TEXT[store], request.id));
    }
    if (status === 500 && refusedValue(err)) {
      request.log.info({ err }, 'request refused: the database refused a value');
      return reply.status(400).send(errorAnswer(400, REFUSED_VALUE_TEXT, request.id));
    }
    if (status >= 500) {
      request.log.error({ err }, 'request failed');
      message = reasonPhrase(status);
      messages = undefined;
    } else {
      request.log.info({ status, message }, 'request refused');
    }
    return reply.status(status).send(errorAnswer(status, message, request.id, messages));
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .send(errorAnswer(404, `No route for ${request.method} ${request.url.split('?')[0]}`, request.id)),
  );
}
