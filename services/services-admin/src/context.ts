import type { DataSource } from 'typeorm';
import type { Redis } from 'ioredis';
import type { ServicesAdminConfig } from './config';

/** What the routes need, built once in app.ts. */
export interface ServicesAdminContext {
  config: ServicesAdminConfig;
  ds: DataSource;
  /** Session revocation (a deactivated or deleted user is logged out everywhere at once). */
  redis: Redis;
}
