import type { DataSource } from 'typeorm';
import type { Redis } from '@portal/server-kit';
import type { IrisConfig } from './config';

/** What the routes need, built once in app.ts. */
export interface IrisContext {
  config: IrisConfig;
  ds: DataSource;
  /** Session revocation. */
  redis: Redis;
}
