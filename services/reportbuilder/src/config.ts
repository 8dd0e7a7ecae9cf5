import { join } from 'node:path';
import { DEFAULT_VAT_PERCENTAGE } from '@portal/contracts';
import { intFromEnv, loadBaseConfig, type BaseConfig } from '@portal/server-kit';

export interface ReportBuilderConfig extends BaseConfig {
  /** The VAT rate (percent) a new report starts with (spec 02 §3 vatPercentage; South Africa's 15 %). */
  vatPercentage: number;
  /** Prefix of this service's BullMQ keys (the report PDF's queue: tests and benches queue apart). */
  queuePrefix: string;
  /**
   * Local-disk storage of the report images and PDFs; shared with services/requests (its zip reads
   * `reports/savi/{requestID}.pdf`), so both default to VAR_DIR/storage (`STORAGE_DIR` moves it).
   */
  storageDir: string;
  /** GET report/…/full: how long it waits for the PDF to be ready before answering its state (ms). */
  pdfWaitMs: number;
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
  /** Images (issue 13): the largest upload or pasted picture (bytes) and picture (pixels); base64 body limit. */
  imageMaxBytes: number;
  imageMaxPixels: number;
  imageBodyLimit: number;
}

/** services/reportbuilder and its worker: port 3003 (`PORT` overrides). */
export function loadReportBuilderConfig(
  env: Record<string, string | undefined> = process.env,
): ReportBuilderConfig {
  const base = loadBaseConfig('reportbuilder', 3003, env);
  const vat = Number(env.REPORTBUILDER_VAT_PERCENTAGE ?? DEFAULT_VAT_PERCENTAGE);
  return {
    ...base,
    vatPercentage: Number.isFinite(vat) && vat >= 0 && vat <= 100 ? vat : DEFAULT_VAT_PERCENTAGE,
    queuePrefix: env.REPORTBUILDER_QUEUE_PREFIX?.trim() || 'portal',
    storageDir: env.STORAGE_DIR?.trim() || join(base.varDir, 'storage'),
    pdfWaitMs: Math.min(60_000, Math.max(0, intFromEnv(env, 'REPORTBUILDER_PDF_WAIT_MS', 10_000))),
    pdfConcurrency: Math.max(1, intFromEnv(env, 'REPORTBUILDER_PDF_CONCURRENCY', 2)),
    pdfJobTimeoutMs: Math.max(1000, intFromEnv(env, 'REPORTBUILDER_PDF_TIMEOUT_MS', 20_000)),
    pdfLockDurationMs: Math.max(2000, intFromEnv(env, 'REPORTBUILDER_PDF_LOCK_MS', 30_000)),
    pdfStalledIntervalMs: Math.max(500, intFromEnv(env, 'REPORTBUILDER_PDF_STALLED_MS', 15_000)),
    browserMaxJobs: Math.max(1, intFromEnv(env, 'REPORTBUILDER_BROWSER_MAX_JOBS', 50)),
    browserMaxMemoryMb: Math.max(100, intFromEnv(env, 'REPORTBUILDER_BROWSER_MAX_MEMORY_MB', 600)),
    chromiumPath: env.CHROMIUM_PATH?.trim() || '/usr/bin/chromium',
    imageMaxBytes: intFromEnv(env, 'REPORTBUILDER_IMAGE_MAX_BYTES', 15 * 1024 * 1024),
    imageMaxPixels: intFromEnv(env, 'REPORTBUILDER_IMAGE_MAX_PIXELS', 50_000_000),
    imageBodyLimit: intFromEnv(env, 'REPORTBUILDER_IMAGE_BODY_LIMIT', 22 * 1024 * 1024),
  };
}
