import type { DataSource } from 'typeorm';
import type { Redis } from 'ioredis';
import type { RequestsConfig } from './config';

/** What the routes need, built once in app.ts. */
export interface RequestsContext {
  config: RequestsConfig;
  ds: DataSource;
  /** Session revocation, and the request-created announcements. */
  redis: Redis;
}
