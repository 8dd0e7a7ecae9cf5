import { DEFAULT_VAT_PERCENTAGE } from '@portal/contracts';
import { loadBaseConfig, type BaseConfig } from '@portal/server-kit';

export interface ReportBuilderConfig extends BaseConfig {
  /** The VAT rate (percent) a new report starts with (spec 02 §3 vatPercentage; South Africa's 15 %). */
  vatPercentage: number;
  /** Prefix of this service's BullMQ keys (the report PDF's queue, next: tests and benches queue apart). */
  queuePrefix: string;
}

/** services/reportbuilder: port 3003 (`PORT` overrides). */
export function loadReportBuilderConfig(
  env: Record<string, string | undefined> = process.env,
): ReportBuilderConfig {
  const base = loadBaseConfig('reportbuilder', 3003, env);
  const vat = Number(env.REPORTBUILDER_VAT_PERCENTAGE ?? DEFAULT_VAT_PERCENTAGE);
  return {
    ...base,
    vatPercentage: Number.isFinite(vat) && vat >= 0 && vat <= 100 ? vat : DEFAULT_VAT_PERCENTAGE,
    queuePrefix: env.REPORTBUILDER_QUEUE_PREFIX?.trim() || 'portal',
  };
}
