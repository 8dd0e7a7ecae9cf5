import type { DataSource } from 'typeorm';
import type { Redis } from '@portal/server-kit';
import type { ReportBuilderConfig } from './config';

/** What the routes need, built once in app.ts. */
export interface ReportBuilderContext {
  config: ReportBuilderConfig;
  ds: DataSource;
  /** Session revocation. */
  redis: Redis;
}
