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
 * message, client errors keep theirs, and server errors never echo their message (it may leak internals).
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
