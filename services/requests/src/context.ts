import type { DataSource } from 'typeorm';
import type { Redis } from 'ioredis';
import type { Queue } from 'bullmq';
import type { PdfJobData } from '@portal/pdf-jobs';
import type { RequestsConfig } from './config';

/** What the routes need, built once in app.ts. */
export interface RequestsContext {
  config: RequestsConfig;
  ds: DataSource;
  /** Session revocation, and the request-created announcements. */
  redis: Redis;
  /** The report builder's PDF queue ('reportbuilder-pdf'): a submitted report's PDF is queued here. */
  pdfQueue: Queue<PdfJobData>;
}
