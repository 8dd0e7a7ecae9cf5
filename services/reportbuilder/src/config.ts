import { join } from 'node:path';
import { DEFAULT_SUM_INSURED_TOLERANCE_PERCENT } from '@portal/domain';
import { loadPdfWorkerSettings, reportVatFromEnv, type PdfWorkerSettings } from '@portal/pdf-jobs';
import { intFromEnv, loadBaseConfig, type BaseConfig } from '@portal/server-kit';

export interface ReportBuilderConfig extends BaseConfig, PdfWorkerSettings {
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
  /** Images (issue 13): the largest upload or pasted picture (bytes) and picture (pixels); base64 body limit. */
  imageMaxBytes: number;
  imageMaxPixels: number;
  imageBodyLimit: number;
  /** GET totals' sum-insured check (issue 13): under- or over-insured beyond this percent of the total. */
  sumInsuredTolerancePercent: number;
}

/** services/reportbuilder and its worker: port 3003 (`PORT` overrides). */
export function loadReportBuilderConfig(
  env: Record<string, string | undefined> = process.env,
): ReportBuilderConfig {
  const base = loadBaseConfig('reportbuilder', 3003, env);
  const tolerance = Number(
    env.REPORTBUILDER_SUM_INSURED_TOLERANCE_PERCENT?.trim() || DEFAULT_SUM_INSURED_TOLERANCE_PERCENT,
  );
  return {
    ...base,
    vatPercentage: reportVatFromEnv(env),
    queuePrefix: env.REPORTBUILDER_QUEUE_PREFIX?.trim() || base.redisPrefix,
    storageDir: env.STORAGE_DIR?.trim() || join(base.varDir, 'storage'),
    pdfWaitMs: Math.min(60_000, Math.max(0, intFromEnv(env, 'REPORTBUILDER_PDF_WAIT_MS', 10_000))),
    // The worker's settings (REPORTBUILDER_PDF_*, REPORTBUILDER_BROWSER_*, CHROMIUM_PATH).
    ...loadPdfWorkerSettings('REPORTBUILDER', env),
    imageMaxBytes: intFromEnv(env, 'REPORTBUILDER_IMAGE_MAX_BYTES', 15 * 1024 * 1024),
    imageMaxPixels: intFromEnv(env, 'REPORTBUILDER_IMAGE_MAX_PIXELS', 50_000_000),
    imageBodyLimit: intFromEnv(env, 'REPORTBUILDER_IMAGE_BODY_LIMIT', 22 * 1024 * 1024),
    sumInsuredTolerancePercent:
      Number.isFinite(tolerance) && tolerance >= 0 && tolerance <= 100
        ? tolerance
        : DEFAULT_SUM_INSURED_TOLERANCE_PERCENT,
  };
}
