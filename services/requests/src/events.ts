import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import {
  REQUEST_CREATED_CHANNEL,
  REQUEST_UPDATED_CHANNEL,
  type RequestCreatedEvent,
  type RequestUpdatedEvent,
} from '@portal/contracts';
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

/**
 * Announces changed requests on REQUEST_UPDATED_CHANNEL (the realtime layer relays a single change as
 * update_request with its row, a bulk change as update_requests with the ids). Called after the commit;
 * best effort like the creation event: the change stands whether or not anyone heard of it.
 */
export async function publishRequestUpdated(
  redis: Redis,
  event: RequestUpdatedEvent,
  log: FastifyBaseLogger,
): Promise<void> {
  try {
    await redis.publish(REQUEST_UPDATED_CHANNEL, JSON.stringify(event));
  } catch (err) {
    log.error({ err, requestIds: event.ids }, 'request-updated event not published');
  }
}
