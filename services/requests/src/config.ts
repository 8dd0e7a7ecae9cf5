import { join } from 'node:path';
import { REQUEST_STATUSES } from '@portal/contracts';
import { DEFAULT_AGEING_TARGETS } from '@portal/domain';
import { loadBaseConfig, type BaseConfig } from '@portal/server-kit';

export interface RequestsConfig extends BaseConfig {
  /** Local-disk storage of the console's exports and zips, and where the report PDFs are read from. */
  storageDir: string;
  /** Jobs one worker process runs at once. */
  jobConcurrency: number;
  /** Prefix of the BullMQ keys: a test or bench run queues apart from a portal running beside it. */
  queuePrefix: string;
  /** Beyond the spec: the hours a request may wait in each open status before the console shows it ageing. */
  ageingTargets: Record<string, number>;
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
    ageingTargets: readAgeingTargets(env.REQUEST_AGEING_TARGETS),
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
