import { Queue } from 'bullmq';
import { bullConnection, bullProducerConnection } from '@portal/server-kit';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { REQUEST_ADMIN_API, type ConsoleJob } from '@portal/contracts';

/** The BullMQ queue of the console's jobs (xlsx exports, zips of reports); services/requests/src/worker.ts runs them. */
export const CONSOLE_QUEUE = 'request-console';
/** Redis channel of job progress ({ userId, job }); the realtime layer relays it to the job's user. */
export const consoleJobChannel = (redisPrefix: string) => `${redisPrefix}:console-job`;
/** Tries of a job before it is recorded as failed (a killed worker's job is retried too: stalled). */
export const CONSOLE_JOB_ATTEMPTS = 3;

export type ConsoleJobKind = 'xlsx' | 'zip';
export interface XlsxParams {
  /** The selection, or null: every match of `filters`. */
  ids: string[] | null;
  filters: Record<string, string>;
}
export interface ZipParams {
  ids: string[];
}
export interface ConsoleJobRow {
  id: string;
  kind: ConsoleJobKind;
  user_id: string;
  state: ConsoleJob['state'];
  progress: number;
  rows: number | null;
  error: string | null;
  file_key: string | null;
  params: XlsxParams | ZipParams;
  attempts: number;
  created_at: Date;
  finished_at: Date | null;
}

/** Where a job's file is kept in the storage. */
export const jobFileKey = (kind: ConsoleJobKind, id: string) =>
  kind === 'xlsx' ? `exports/requests-${id}.xlsx` : `zips/reports-${id}.zip`;

export function toConsoleJob(row: ConsoleJobRow): ConsoleJob {
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    progress: Math.round(row.progress * 10) / 10,
    rows: row.rows,
    error: row.error,
    downloadUrl:
      row.state === 'done'
        ? row.kind === 'xlsx'
          ? REQUEST_ADMIN_API.downloadXlsx(row.id)
          : REQUEST_ADMIN_API.downloadZip(row.id)
        : null,
    createdAt: new Date(row.created_at).toISOString(),
    finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
  };
}

export async function readConsoleJob(ds: DataSource, id: string): Promise<ConsoleJobRow | null> {
  const [row] = (await ds.query('SELECT * FROM requests.console_jobs WHERE id = $1', [
    id,
  ])) as ConsoleJobRow[];
  return row ?? null;
}

/** BullMQ's connection options (server-kit; re-exported for the worker and the tests). */
export { bullConnection };

export function createConsoleQueue(redisUrl: string, prefix: string): Queue {
  return new Queue(CONSOLE_QUEUE, { connection: bullProducerConnection(redisUrl), prefix });
}

/**
 * Records a job (PostgreSQL first: the poll's answer) and queues it under the same id, so a job is queued
 * once however often it is retried. When it cannot be queued (Redis down: the queue fails fast) the row is
 * taken back and the error (a 503 naming Redis) goes to the caller: no job is left recorded that nothing
 * would ever run.
 */
export async function enqueueConsoleJob(
  ds: DataSource,
  queue: Queue,
  input: { kind: ConsoleJobKind; userId: string; params: XlsxParams | ZipParams },
): Promise<ConsoleJob> {
  const [row] = (await ds.query(
    `INSERT INTO requests.console_jobs (kind, user_id, params) VALUES ($1, $2, $3) RETURNING *`,
    [input.kind, input.userId, JSON.stringify(input.params)],
  )) as ConsoleJobRow[];
  try {
    await queue.add(
      input.kind,
      { jobId: row.id },
      {
        jobId: row.id,
        attempts: CONSOLE_JOB_ATTEMPTS,
        backoff: { type: 'exponential', delay: 2000 },
        removeOnComplete: 1000,
        removeOnFail: 1000,
      },
    );
  } catch (err) {
    await ds.query(`DELETE FROM requests.console_jobs WHERE id = $1`, [row.id]);
    throw err;
  }
  return toConsoleJob(row);
}

/** Announces a job's state to its user (best effort: the poll reads PostgreSQL). */
export async function publishJob(redis: Redis, redisPrefix: string, row: ConsoleJobRow): Promise<void> {
  try {
    await redis.publish(
      consoleJobChannel(redisPrefix),
      JSON.stringify({ userId: row.user_id, job: toConsoleJob(row) }),
    );
  } catch {
    // The poll has the answer.
  }
}
