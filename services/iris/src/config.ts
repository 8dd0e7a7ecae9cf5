import { join } from 'node:path';
import { IRIS_SUPPORT_EMAIL_DEFAULT } from '@portal/contracts';
import { intFromEnv, loadBaseConfig, type BaseConfig } from '@portal/server-kit';

export interface IrisConfig extends BaseConfig {
  /** Local-disk storage of the aerial pictures and the PDFs (shared with services/requests: distinct keys). */
  storageDir: string;
  /** Prefix of this service's BullMQ keys (tests and benches queue apart from a running portal). */
  queuePrefix: string;
  /** The request console's queue prefix, for the dashboard's list of every queue of the portal. */
  requestQueuePrefix: string;
  /** The address in the spec's error text (spec 03 §8). */
  supportEmail: string;
  /** Worker: PDFs one process renders at once (pages of its one browser). */
  pdfConcurrency: number;
  /** Worker: a job's time limit (below the lock duration). */
  pdfJobTimeoutMs: number;
  pdfLockDurationMs: number;
  /** Worker: how often it looks for jobs whose worker died (their lock expired). */
  pdfStalledIntervalMs: number;
  /** Worker: jobs one browser serves before it is replaced, and its memory limit (MB). */
  browserMaxJobs: number;
  browserMaxMemoryMb: number;
  chromiumPath: string;
}

/** services/iris and its worker: port 3006 (`PORT` overrides); storage under VAR_DIR/storage. */
export function loadIrisConfig(env: Record<string, string | undefined> = process.env): IrisConfig {
  const base = loadBaseConfig('iris', 3006, env);
  return {
    ...base,
    storageDir: env.STORAGE_DIR?.trim() || join(base.varDir, 'storage'),
    queuePrefix: env.IRIS_QUEUE_PREFIX?.trim() || 'portal',
    requestQueuePrefix: env.REQUEST_QUEUE_PREFIX?.trim() || 'portal',
    supportEmail: env.IRIS_SUPPORT_EMAIL?.trim() || IRIS_SUPPORT_EMAIL_DEFAULT,
    pdfConcurrency: Math.max(1, intFromEnv(env, 'IRIS_PDF_CONCURRENCY', 2)),
    pdfJobTimeoutMs: Math.max(1000, intFromEnv(env, 'IRIS_PDF_TIMEOUT_MS', 20_000)),
    pdfLockDurationMs: Math.max(2000, intFromEnv(env, 'IRIS_PDF_LOCK_MS', 30_000)),
    pdfStalledIntervalMs: Math.max(500, intFromEnv(env, 'IRIS_PDF_STALLED_MS', 15_000)),
    browserMaxJobs: Math.max(1, intFromEnv(env, 'IRIS_BROWSER_MAX_JOBS', 50)),
    browserMaxMemoryMb: Math.max(100, intFromEnv(env, 'IRIS_BROWSER_MAX_MEMORY_MB', 600)),
    chromiumPath: env.CHROMIUM_PATH?.trim() || '/usr/bin/chromium',
  };
}
