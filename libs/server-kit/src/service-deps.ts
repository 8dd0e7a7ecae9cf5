import type { DataSource } from 'typeorm';
import type { Redis } from './redis';

/**
 * What every database-backed service is built on, handed to its `buildApp(config, deps)`: the TypeORM
 * pool and the Redis connection (session revocations, rate limits, events). A service that needs more
 * (identity's mailer, the report builder's storage) extends this type rather than writing it again.
 */
export interface ServiceDeps {
  ds: DataSource;
  redis: Redis;
}
