import type { DataSource } from 'typeorm';
import type { Redis } from 'ioredis';
import type { AvsEditorConfig } from './config';

/** What the routes need, built once in app.ts. */
export interface AvsEditorContext {
  config: AvsEditorConfig;
  ds: DataSource;
  /** Session revocation, and the request-updated announcements of resolved can't-locate requests. */
  redis: Redis;
}
