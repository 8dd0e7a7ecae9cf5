import { Redis } from 'ioredis';

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
