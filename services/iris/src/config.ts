import { join } from 'node:path';
import { IRIS_SUPPORT_EMAIL_DEFAULT } from '@portal/contracts';
import { loadPdfWorkerSettings, type PdfWorkerSettings } from '@portal/pdf-jobs';
import { loadBaseConfig, type BaseConfig } from '@portal/server-kit';

export interface IrisConfig extends BaseConfig, PdfWorkerSettings {
  /** Local-disk storage of the aerial pictures and the PDFs (shared with services/requests: distinct keys). */
  storageDir: string;
  /** Prefix of this service's BullMQ keys (tests and benches queue apart from a running portal). */
  queuePrefix: string;
  /** The request console's queue prefix, for the dashboard's list of every queue of the portal. */
  requestQueuePrefix: string;
  /** The report builder's queue prefix (services/reportbuilder's setting, as that service reads it). */
  reportbuilderQueuePrefix: string;
  /** The address in the spec's error text (spec 03 §8). */
  supportEmail: string;
}

/** services/iris and its worker: port 3006 (`PORT` overrides); storage under VAR_DIR/storage. */
export function loadIrisConfig(env: Record<string, string | undefined> = process.env): IrisConfig {
  const base = loadBaseConfig('iris', 3006, env);
  return {
    ...base,
    storageDir: env.STORAGE_DIR?.trim() || join(base.varDir, 'storage'),
    queuePrefix: env.IRIS_QUEUE_PREFIX?.trim() || base.redisPrefix,
    requestQueuePrefix: env.REQUEST_QUEUE_PREFIX?.trim() || base.redisPrefix,
    reportbuilderQueuePrefix: env.REPORTBUILDER_QUEUE_PREFIX?.trim() || base.redisPrefix,
    supportEmail: env.IRIS_SUPPORT_EMAIL?.trim() || IRIS_SUPPORT_EMAIL_DEFAULT,
    // The worker's settings (IRIS_PDF_*, IRIS_BROWSER_*, CHROMIUM_PATH).
    ...loadPdfWorkerSettings('IRIS', env),
  };
}
