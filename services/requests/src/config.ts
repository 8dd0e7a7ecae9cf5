import { join } from 'node:path';
import { REQUEST_STATUSES } from '@portal/contracts';
import { DEFAULT_AGEING_TARGETS } from '@portal/domain';
import { reportVatFromEnv } from '@portal/pdf-jobs';
import { intFromEnv, loadBaseConfig, type BaseConfig } from '@portal/server-kit';

export interface RequestsConfig extends BaseConfig {
  /** Local-disk storage of the console's exports and zips, and where the report PDFs are read from. */
  storageDir: string;
  /** Jobs one worker process runs at once. */
  jobConcurrency: number;
  /** Prefix of the BullMQ keys: a test or bench run queues apart from a portal running beside it. */
  queuePrefix: string;
  /** Beyond the spec: the hours a request may wait in each open status before the console shows it ageing. */
  ageingTargets: Record<string, number>;
  /**
   * A submitted report's PDF is queued here into the report builder's queue 'reportbuilder-pdf': its prefix
   * and VAT default are services/reportbuilder's settings, read as that service reads them.
   */
  reportbuilderQueuePrefix: string;
  reportVatPercentage: number;
  /** How long a zip waits for a submitted report's PDF still being made (REQUEST_ZIP_PDF_WAIT_MS). */
  zipPdfWaitMs: number;
  /** Webhook delivery (issue 22; the worker's services/requests/src/webhooks/). */
  webhooks: WebhookSettings;
  /** Notifications for people (issue 24; the worker's services/requests/src/notifications/). */
  notifications: NotificationSettings;
}

export interface NotificationSettings {
  /** The portal's address for the mails' links (PUBLIC_URL). */
  publicUrl: string;
  /** Tries of one notification's mail (NOTIFY_MAIL_ATTEMPTS), pauses doubling from 2 s. */
  mailAttempts: number;
  /** How often the late sweep runs and lost mails are queued again (NOTIFY_SWEEP_MS). */
  sweepIntervalMs: number;
  /** A request that went late longer ago than this is not announced (NOTIFY_LATE_LOOKBACK_HOURS). */
  lateLookbackHours: number;
}

export interface WebhookSettings {
  /** WEBHOOKS_ALLOW_PRIVATE_TARGETS=true: deliver to private, loopback and link-local addresses too. */
  allowPrivateTargets: boolean;
  /** Pause before each retry (ms): WEBHOOK_RETRY_SCHEDULE_MS, comma-separated; the default spans > 24 h. */
  retryScheduleMs: number[];
  /** An endpoint failing this long (since its last success) is disabled (WEBHOOK_DISABLE_AFTER_MS). */
  disableAfterMs: number;
  /** One attempt's time limit (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** How often the sweeper looks for undispatched events and lost deliveries (WEBHOOK_SWEEP_MS). */
  sweepIntervalMs: number;
  /** Deliveries one worker process sends at once (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** Outgoing mail: SMTP_URL, or files in VAR_DIR/mail without it; MAIL_FROM. */
  smtpUrl?: string;
  mailFrom: string;
  mailDir: string;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** 10 s, 1 min, 5 min, 30 min, 1 h, 2 h, 4 h, 8 h, 12 h, 12 h: eleven tries over about 40 hours. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS = [
  10 * SECOND,
  MINUTE,
  5 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  4 * HOUR,
  8 * HOUR,
  12 * HOUR,
  12 * HOUR,
];

function positiveInt(raw: string | undefined, fallback: number): number {
  const value = Number(raw);
  return raw !== undefined && raw.trim() !== '' && Number.isInteger(value) && value > 0 ? value : fallback;
}

/** WEBHOOK_RETRY_SCHEDULE_MS: positive integers, comma-separated; the default where it is not that. */
export function readRetrySchedule(raw: string | undefined): number[] {
  if (!raw?.trim()) return DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS;
  const pauses = raw.split(',').map((part) => Number(part.trim()));
  return pauses.length > 0 && pauses.every((pause) => Number.isInteger(pause) && pause > 0)
    ? pauses
    : DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS;
}

/** services/requests (and its worker): port 3004, `PORT` overrides; storage under VAR_DIR/storage. */
export function loadRequestsConfig(env: Record<string, string | undefined> = process.env): RequestsConfig {
  const base = loadBaseConfig('requests', 3004, env);
  const concurrency = Number(env.REQUEST_JOB_CONCURRENCY ?? 2);
  return {
    ...base,
    storageDir: env.STORAGE_DIR?.trim() || join(base.varDir, 'storage'),
    jobConcurrency: Number.isInteger(concurrency) && concurrency > 0 ? concurrency : 2,
    queuePrefix: env.REQUEST_QUEUE_PREFIX?.trim() || base.redisPrefix,
    ageingTargets: readAgeingTargets(env.REQUEST_AGEING_TARGETS),
    reportbuilderQueuePrefix: env.REPORTBUILDER_QUEUE_PREFIX?.trim() || base.redisPrefix,
    reportVatPercentage: reportVatFromEnv(env),
    zipPdfWaitMs: intFromEnv(env, 'REQUEST_ZIP_PDF_WAIT_MS', 120_000),
    webhooks: {
      allowPrivateTargets: env.WEBHOOKS_ALLOW_PRIVATE_TARGETS?.trim().toLowerCase() === 'true',
      retryScheduleMs: readRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE_MS),
      disableAfterMs: positiveInt(env.WEBHOOK_DISABLE_AFTER_MS, 24 * HOUR),
      timeoutMs: positiveInt(env.WEBHOOK_TIMEOUT_MS, 10 * SECOND),
      sweepIntervalMs: positiveInt(env.WEBHOOK_SWEEP_MS, 30 * SECOND),
      concurrency: positiveInt(env.WEBHOOK_CONCURRENCY, 10),
      smtpUrl: env.SMTP_URL?.trim() || undefined,
      mailFrom: env.MAIL_FROM?.trim() || 'Property Portal <no-reply@portal.local>',
      mailDir: join(base.varDir, 'mail'),
    },
    notifications: {
      publicUrl: base.publicUrl,
      mailAttempts: positiveInt(env.NOTIFY_MAIL_ATTEMPTS, 6),
      sweepIntervalMs: positiveInt(env.NOTIFY_SWEEP_MS, MINUTE),
      lateLookbackHours: positiveInt(env.NOTIFY_LATE_LOOKBACK_HOURS, 24),
    },
  };
}

/** REQUEST_AGEING_TARGETS: JSON of hours by status; the defaults where it is not set or not valid. */
export function readAgeingTargets(raw: string | undefined): Record<string, number> {
  const defaults = { ...DEFAULT_AGEING_TARGETS } as Record<string, number>;
  if (!raw) return defaults;
  try {
    const parsed = JSON.parse(raw) as Record<string, unknown>;
    const targets: Record<string, number> = {};
    for (const [status, hours] of Object.entries(parsed))
      if ((REQUEST_STATUSES as readonly string[]).includes(status) && typeof hours === 'number' && hours > 0)
        targets[status] = hours;
    return Object.keys(targets).length > 0 ? targets : defaults;
  } catch {
    return defaults;
  }
}
