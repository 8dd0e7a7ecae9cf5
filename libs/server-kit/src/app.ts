import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { BaseConfig } from './config';
import { installErrorHandling } from './errors';

/** A Fastify instance whose routes take their types from TypeBox schemas. Route modules accept this. */
export type TypedFastify = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** Turns a plain instance (e.g. a plugin scope) into a typed one. */
export const typed = (app: FastifyInstance): TypedFastify => app.withTypeProvider<TypeBoxTypeProvider>();

/** Pino options shared by every service: secrets never reach the logs. */
export function loggerOptions(
  config: Pick<BaseConfig, 'logLevel' | 'serviceName'>,
): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    base: { service: config.serviceName },
    redact: [
      'req.headers.cookie',
      'req.headers.authorization',
      'res.headers["set-cookie"]',
      '*.password',
      '*.confirmPassword',
    ],
  };
}

/**
 * A Fastify instance with the portal's common ground: request ids (taken from the gateway's
 * x-request-id or made here, echoed back), pino logs, cookies, the one error shape, and AJV set to
 * report every problem with a request at once.
 */
export function createServiceApp(config: BaseConfig, overrides: FastifyServerOptions = {}) {
  const app = Fastify({
    logger: loggerOptions(config),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    trustProxy: true,
    bodyLimit: 1024 * 1024,
    ajv: {
      customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: true, useDefaults: true },
    },
    ...overrides,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.register(cookie);
  installErrorHandling(app);
  return app;
}
