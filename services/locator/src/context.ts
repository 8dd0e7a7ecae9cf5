import type { DataSource } from 'typeorm';
import type { Redis } from 'ioredis';
import type { LocatorConfig } from './config';

/** What the routes need, built once in app.ts. */
export interface LocatorContext {
  config: LocatorConfig;
  ds: DataSource;
  redis: Redis;
}
