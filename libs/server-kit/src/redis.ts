import { Redis } from 'ioredis';
import type { ConnectionOptions, Queue } from 'bullmq';

/** The longest pause between two attempts to reconnect to Redis. */
export const REDIS_RECONNECT_MAX_DELAY_MS = 500;

/**
 * How long ioredis waits before reconnect attempt `times`: 100 ms more each time, at most
 * REDIS_RECONNECT_MAX_DELAY_MS. A command sent while Redis is down waits in the offline queue for
 * maxRetriesPerRequest + 1 attempts and then fails (a 503, errors.ts): with ioredis' default (up to 2 s a
 * pause) that was up to 6 s a call; this keeps it near 1.5 s, and the client is back within half a second
 * of Redis (its subscriptions too).
 */
export const redisRetryDelay = (times: number) => Math.min(times * 100, REDIS_RECONNECT_MAX_DELAY_MS);

/**
 * A Redis client that fails fast when Redis is down (requests must not hang on a dead cache) and
 * reconnects by itself when it is back: no service needs a restart after Redis restarted.
 */
export function createRedis(url: string, name = 'portal'): Redis {
  return new Redis(url, {
    connectionName: name,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    lazyConnect: false,
    retryStrategy: redisRetryDelay,
  });
}
export type { Redis };

/**
 * BullMQ's connection options for a Redis URL: BullMQ wants connections of its own (blocking commands, no
 * retry limit per command), so queues and workers get options rather than a shared client.
 */
export const bullConnection = (redisUrl: string): ConnectionOptions => {
  const url = new URL(redisUrl);
  return {
    host: url.hostname,
    port: Number(url.port || 6379),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(url.pathname.length > 1 ? { db: Number(url.pathname.slice(1)) } : {}),
    maxRetriesPerRequest: null,
    // BullMQ's own pause grows as e^attempt up to 20 s: after Redis was away ten seconds, queues and workers
    // stayed disconnected (adds refused, no jobs taken) up to 20 s more after it was back. The portal's pause
    // (at most half a second) brings them back with the other clients.
    retryStrategy: redisRetryDelay,
  };
};

/**
 * BullMQ's connection options for a queue that services add jobs to from a request: commands are not held
 * while Redis is down (no offline queue), so an add fails at once — a 503 naming Redis (errors.ts) — instead
 * of keeping the caller's request open until Redis is back (BullMQ's "failing fast when Redis is down").
 * Workers keep bullConnection: they should wait for Redis, not fail.
 */
export const bullProducerConnection = (redisUrl: string): ConnectionOptions => ({
  ...bullConnection(redisUrl),
  enableOfflineQueue: false,
  // A command already sent when the connection drops is not in the offline queue: with no limit (null,
  // bullConnection's) ioredis keeps it and sends it again once reconnected, so an add made as Redis went away
  // waited for Redis to come back (the producer test hung so about one run in eight). With 0 it fails at the
  // first reconnect attempt (MaxRetriesPerRequestError: the same 503 naming Redis). Only workers' blocking
  // connections must have null.
  maxRetriesPerRequest: 0,
});

/**
 * Closes a BullMQ queue. With Redis away a producer queue cannot even send its QUIT (no offline queue, see
 * bullProducerConnection): close() throws, and BullMQ's disconnect() waits for an end that never comes. So
 * then its connection is closed by force (dropped, which also stops its reconnecting): a service's stop is
 * neither failed nor held up by Redis.
 */
export async function closeQueue(queue: Queue): Promise<void> {
  const client = await queue.backend.connection.client;
  if (client.status !== 'ready') return queue.backend.close(true);
  try {
    await queue.close();
  } catch {
    // Redis went away between the look and the QUIT.
    client.disconnect();
  }
}
