import { join } from 'node:path';
import { loadBaseConfig, type BaseConfig } from '@portal/server-kit';

export interface RequestsConfig extends BaseConfig {
  /** Local-disk storage of the console's exports and zips, and where the report PDFs are read from. */
  storageDir: string;
  /** Jobs one worker process runs at once. */
  jobConcurrency: number;
  /** Prefix of the BullMQ keys: a test or bench run queues apart from a portal running beside it. */
  queuePrefix: string;
}

/** services/requests (and its worker): port 3004, `PORT` overrides; storage under VAR_DIR/storage. */
export function loadRequestsConfig(env: Record<string, string | undefined> = process.env): RequestsConfig {
  const base = loadBaseConfig('requests', 3004, env);
  const concurrency = Number(env.REQUEST_JOB_CONCURRENCY ?? 2);
  return {
    ...base,
    storageDir: env.STORAGE_DIR?.trim() || join(base.varDir, 'storage'),
    jobConcurrency: Number.isInteger(concurrency) && concurrency > 0 ? concurrency : 2,
    queuePrefix: env.REQUEST_QUEUE_PREFIX?.trim() || 'portal',
  };
}
