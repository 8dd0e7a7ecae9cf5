import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { Storage } from '@portal/server-kit';
import {
  jobFileKey,
  publishJob,
  readConsoleJob,
  type ConsoleJobRow,
  type XlsxParams,
  type ZipParams,
} from './consoleJobs';
import { writeRequestsXlsx } from './xlsx';
import { writeReportsZip, type ReportPdfSource } from './zip';

export interface JobDeps {
  ds: DataSource;
  storage: Storage;
  /** Publishes progress to the job's user, on a channel under the portal's prefix. */
  redis: Redis;
  redisPrefix: string;
  /** Makes a submitted report's missing PDF for a zip (the worker's; without it a zip takes what is stored). */
  reportPdfs?: ReportPdfSource;
}

/**
 * Runs one console job (called by the BullMQ worker with the job's id): marks it running, writes its file
 * (a rerun after a killed worker overwrites its own file: the key is the job's), records the outcome in
 * PostgreSQL. `lastAttempt` says whether a failure is final (recorded as failed) or will be retried.
 */
export async function runConsoleJob(
  deps: JobDeps,
  jobId: string,
  options: { lastAttempt: boolean; reportProgress?: (percent: number) => Promise<void> },
): Promise<ConsoleJobRow> {
  const update = async (sql: string, params: unknown[]) => {
    const [rows] = (await deps.ds.query(`UPDATE requests.console_jobs SET ${sql} WHERE id = $1 RETURNING *`, [
      jobId,
      ...params,
    ])) as [ConsoleJobRow[], number];
    const row = rows[0];
    if (row) await publishJob(deps.redis, deps.redisPrefix, row);
    return row;
  };
  const job = await readConsoleJob(deps.ds, jobId);
  if (!job) throw new Error(`console job ${jobId} is not recorded`);
  if (job.state === 'done') return job;
  await update(
    `state = 'running', progress = 0, attempts = attempts + 1, started_at = now(), error = NULL`,
    [],
  );
  const key = jobFileKey(job.kind, job.id);
  let lastPercent = -1;
  const onProgress = async (done: number, total: number) => {
    const percent = total === 0 ? 100 : Math.min(99, (done / total) * 100);
    if (percent - lastPercent < 1 && done !== total) return;
    lastPercent = percent;
    await options.reportProgress?.(percent);
    await update('progress = $2', [percent]);
  };
  try {
    const rows =
      job.kind === 'xlsx'
        ? await writeRequestsXlsx(deps.ds, deps.storage, key, job.params as XlsxParams, onProgress)
        : await writeReportsZip(
            deps.ds,
            deps.storage,
            key,
            job.params as ZipParams,
            onProgress,
            deps.reportPdfs,
          );
    await options.reportProgress?.(100);
    return await update(`state = 'done', progress = 100, rows = $2, file_key = $3, finished_at = now()`, [
      rows,
      key,
    ]);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await update(
      options.lastAttempt
        ? `state = 'failed', error = $2, finished_at = now()`
        : `state = 'queued', error = $2`,
      [message.slice(0, 500)],
    );
    throw err;
  }
}

/** The BullMQ processor of the console queue (the worker process's, and the tests'). */
export const processConsoleJob =
  (deps: JobDeps) =>
  async (job: Job<{ jobId: string }>): Promise<void> => {
    await runConsoleJob(deps, job.data.jobId, {
      lastAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1),
      reportProgress: (percent) => job.updateProgress(Math.round(percent)),
    });
  };
