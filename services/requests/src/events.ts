import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { REQUEST_CREATED_CHANNEL, type RequestCreatedEvent } from '@portal/contracts';
import type { CreatedRequest } from './store';

/**
 * Announces a new request on Redis for the realtime layer (lists and maps refetch on it). Called after
 * the commit, so listeners find the row. Best effort: the request exists whether or not anyone heard of
 * it, so a Redis failure is logged and the creation still succeeds.
 */
export async function publishRequestCreated(
  redis: Redis,
  request: CreatedRequest,
  log: FastifyBaseLogger,
): Promise<void> {
  const event: RequestCreatedEvent = {
    id: request.id,
    gripReference: request.gripReference,
    requestType: request.requestType,
    requestSubType: request.requestSubType,
    status: request.status,
    userId: request.userId,
    groupId: request.groupId,
    createdAt: request.createdAt.toISOString(),
  };
  try {
    await redis.publish(REQUEST_CREATED_CHANNEL, JSON.stringify(event));
  } catch (err) {
    log.error({ err, requestId: request.id }, 'request-created event not published');
  }
}
