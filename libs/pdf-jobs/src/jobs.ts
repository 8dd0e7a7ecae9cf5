import { Queue } from 'bullmq';
import { bullProducerConnection } from '@portal/server-kit';

/**
 * PDF jobs: one row of `pdf.jobs` (PostgreSQL, the answer of every poll) and one BullMQ job under the same
 * id. The id is `{kind}-{subject}-v{version}`: asking twice for the same version of a report queues it once,
 * and a rerun after a killed worker writes the same file.
 */

export type PdfJobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface PdfJobRow {
  id: string;
  kind: string;
  subject_id: string;
  version: number;
  user_id: string | null;
  state: PdfJobState;
  progress: number;
  attempts: number;
  error: string | null;
  file_key: string | null;
  bytes: number | null;
  payload: Record<string, unknown>;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

/** Something that runs SQL: a TypeORM DataSource or a pg Pool/Client (rows come back as an array). */
export interface Sql {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** The data BullMQ carries: only the row's id; everything else is read from PostgreSQL. */
export interface PdfJobData {
  jobId: string;
}

/** Tries of a job before it is recorded as failed (a stalled job — killed worker — counts as a try too). */
export const PDF_JOB_ATTEMPTS = 3;
/** Backoff between tries (exponential from this delay). */
export const PDF_JOB_BACKOFF_MS = 1000;

export const pdfJobId = (kind: string, subjectId: string, version: number) =>
  `${kind}-${subjectId}-v${version}`;

/** Where a job's PDF is kept in the storage. */
export const pdfFileKey = (kind: string, subjectId: string, version: number) =>
  `pdfReports/${kind}/${subjectId}/v${version}.pdf`;

const rowsOf = (result: unknown): PdfJobRow[] => {
  // TypeORM answers UPDATE … RETURNING as [rows, count]; SELECT and INSERT as rows; pg as { rows }.
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  )
    return result[0] as PdfJobRow[];
  if (Array.isArray(result)) return result as PdfJobRow[];
  return ((result as { rows?: PdfJobRow[] }).rows ?? []) as PdfJobRow[];
};

export async function readPdfJob(db: Sql, id: string): Promise<PdfJobRow | null> {
  return rowsOf(await db.query('SELECT * FROM pdf.jobs WHERE id = $1', [id]))[0] ?? null;
}

/** The newest job of a subject (any version), or null. */
export async function latestPdfJob(db: Sql, kind: string, subjectId: string): Promise<PdfJobRow | null> {
  return (
    rowsOf(
      await db.query(
        'SELECT * FROM pdf.jobs WHERE kind = $1 AND subject_id = $2 ORDER BY version DESC LIMIT 1',
        [kind, subjectId],
      ),
    )[0] ?? null
  );
}

/** Updates a job's row (the worker's and the service's writes) and answers it as it now is. */
export async function updatePdfJob(
  db: Sql,
  id: string,
  set: string,
  params: unknown[] = [],
  where = 'TRUE',
): Promise<PdfJobRow | null> {
  return (
    rowsOf(
      await db.query(`UPDATE pdf.jobs SET ${set} WHERE id = $1 AND (${where}) RETURNING *`, [id, ...params]),
    )[0] ?? null
  );
}

export function createPdfQueue(
  name: string,
  options: { redisUrl: string; prefix: string },
): Queue<PdfJobData> {
  return new Queue<PdfJobData>(name, {
    connection: bullProducerConnection(options.redisUrl),
    prefix: options.prefix,
  });
}

/**
 * Makes sure the job of (kind, subject, version) exists and is queued: records it (or, when a failed or
 * cancelled try is asked for again, sets it back to queued) and adds the BullMQ job under the same id when
 * the queue does not hold it — also after Redis lost it (a flush), so a poll can heal a lost job. A done job
 * is left as it is. Answers the row.
 */
export async function ensurePdfJob(
  db: Sql,
  queue: Queue<PdfJobData>,
  input: PdfJobInput,
): Promise<PdfJobRow> {
  const row = await recordPdfJob(db, input);
  if (row.state === 'queued' || row.state === 'running') await requeue(queue, row.id, row.state);
  return row;
}

/** What a PDF job is made of: its kind, subject and version (its id), who asked, what it renders. */
export interface PdfJobInput {
  kind: string;
  subjectId: string;
  version: number;
  userId?: string | null;
  payload?: object;
}

/**
 * The row half of ensurePdfJob: records the job (or sets a failed or cancelled one back to queued) without
 * touching the queue. Run inside a change's transaction it commits with the change; ensurePdfJob after the
 * commit then queues it (a worker handed the job before the commit would not find its row).
 */
export async function recordPdfJob(db: Sql, input: PdfJobInput): Promise<PdfJobRow> {
  const id = pdfJobId(input.kind, input.subjectId, input.version);
  await db.query(
    `INSERT INTO pdf.jobs (id, kind, subject_id, version, user_id, payload) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (id) DO NOTHING`,
    [
      id,
      input.kind,
      input.subjectId,
      input.version,
      input.userId ?? null,
      JSON.stringify(input.payload ?? {}),
    ],
  );
  let row = await updatePdfJob(
    db,
    id,
    `state = 'queued', progress = 0, error = NULL, attempts = 0, started_at = NULL, finished_at = NULL`,
    [],
    `state IN ('failed', 'cancelled')`,
  );
  row ??= await readPdfJob(db, id);
  if (!row) throw new Error(`pdf job ${id} could not be recorded`);
  return row;
}

/**
 * Adds the BullMQ job unless the queue already holds a live one under this id. A finished BullMQ job under
 * the id (a failed or cancelled try asked for again) is removed first, as BullMQ ignores an add whose id
 * it still holds.
 */
async function requeue(queue: Queue<PdfJobData>, id: string, state: PdfJobState): Promise<void> {
  const existing = await queue.getJob(id);
  if (existing) {
    const jobState = await existing.getState();
    if (jobState === 'completed' || jobState === 'failed') {
      // A running row whose BullMQ job already finished cannot be (the worker writes the row first).
      if (state === 'running' && jobState === 'completed') return;
      await existing.remove().catch(() => undefined);
    } else {
      return; // waiting, delayed, active, prioritized: it will run
    }
  }
  await queue.add(
    'pdf',
    { jobId: id },
    {
      jobId: id,
      attempts: PDF_JOB_ATTEMPTS,
      backoff: { type: 'exponential', delay: PDF_JOB_BACKOFF_MS },
      removeOnComplete: { age: 24 * 3600, count: 1000 },
      removeOnFail: { age: 7 * 24 * 3600, count: 1000 },
    },
  );
}

/**
 * Cancels a job: the row says 'cancelled' (a worker that is rendering it checks before it stores the PDF
 * and discards its work) and a waiting BullMQ job is removed. A done job stays done. Answers the row.
 */
export async function cancelPdfJob(db: Sql, queue: Queue<PdfJobData>, id: string): Promise<PdfJobRow | null> {
  const row =
    (await updatePdfJob(
      db,
      id,
      `state = 'cancelled', finished_at = now(), error = NULL`,
      [],
      `state IN ('queued', 'running')`,
    )) ?? (await readPdfJob(db, id));
  const job = await queue.getJob(id);
  // An active job is locked by its worker and cannot be removed: the worker sees the state and stops.
  if (job && !(await job.isActive())) await job.remove().catch(() => undefined);
  return row;
}
