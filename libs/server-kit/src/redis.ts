import { Redis } from 'ioredis';
import type { ConnectionOptions } from 'bullmq';

/** A Redis client that fails fast when Redis is down (requests must not hang on a dead cache). */
export function createRedis(url: string, name = 'portal'): Redis {
  return new Redis(url, {
    connectionName: name,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    lazyConnect: false,
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
  };
};
