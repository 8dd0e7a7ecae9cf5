import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import {
  requestCreatedChannel,
  requestUpdatedChannel,
  type RequestCreatedEvent,
  type RequestUpdatedEvent,
} from '@portal/contracts';
import type { CreatedRequest } from './store';

/** Where events are published: the service's Redis, on channels under the portal's prefix. */
export interface EventBus {
  redis: Redis;
  config: { redisPrefix: string };
}

/**
 * Announces a new request on Redis for the realtime layer (lists and maps refetch on it). Called after
 * the commit, so listeners find the row. Best effort: the request exists whether or not anyone heard of
 * it, so a Redis failure is logged and the creation still succeeds.
 */
export async function publishRequestCreated(
  { redis, config }: EventBus,
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
    await redis.publish(requestCreatedChannel(config.redisPrefix), JSON.stringify(event));
  } catch (err) {
    log.error({ err, requestId: request.id }, 'request-created event not published');
  }
}

/**
 * Announces changed requests on requestUpdatedChannel (the realtime layer relays a single change as
 * update_request with its row, a bulk change as update_requests with the ids). Called after the commit;
 * best effort like the creation event: the change stands whether or not anyone heard of it.
 */
export async function publishRequestUpdated(
  { redis, config }: EventBus,
  event: RequestUpdatedEvent,
  log: FastifyBaseLogger,
): Promise<void> {
  try {
    await redis.publish(requestUpdatedChannel(config.redisPrefix), JSON.stringify(event));
  } catch (err) {
    log.error({ err, requestIds: event.ids }, 'request-updated event not published');
  }
}
