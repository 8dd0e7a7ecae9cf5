import type { DataSource, EntityManager } from 'typeorm';
import { REPORT_EDITABLE_STATUSES } from '@portal/contracts';
import { HttpError, forbidden, isStaff, notFound, type Caller } from '@portal/server-kit';
import { REPORT_TEXT, checkId } from '../store';

/**
 * Who may see and change a request's images — as for the report (store.ts): reading by the request's owner
 * and staff; writing by staff while the request is in an editable status, each write under the request's
 * row lock (so two writes of one request queue, and the status cannot change under one). The order of the
 * uploaded pictures is reportbuilder.report_images (migration 1764510000000).
 */

interface RequestRow {
  id: string;
  request_type: string;
  status: string;
  user_id: string;
}

type Query = { query(sql: string, params?: unknown[]): Promise<unknown> };

async function requestRow(db: Query, id: string, lock: boolean): Promise<RequestRow> {
  const [row] = (await db.query(
    `SELECT id, request_type, status, user_id FROM requests.requests WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  )) as RequestRow[];
  if (!row) throw notFound(REPORT_TEXT.noRequest);
  return row;
}

function checkReadRow(row: RequestRow, caller: Caller): void {
  if (row.user_id !== caller.id && !isStaff(caller)) throw forbidden(REPORT_TEXT.notYours);
  if (row.request_type !== 'SAVI') throw new HttpError(409, REPORT_TEXT.notSavi(row.request_type));
}

/** The request's id (lower case) once the caller may read its images. */
export async function checkImageRead(ds: DataSource, id: string, caller: Caller): Promise<string> {
  const row = await requestRow(ds, checkId(id), false);
  checkReadRow(row, caller);
  return row.id;
}

/**
 * Runs `work` in a transaction holding the request's row lock, once the caller may edit the request's
 * images (staff, checked before anything is read; then an editable SAVI request).
 */
export async function withImageEdit<T>(
  ds: DataSource,
  id: string,
  caller: Caller,
  work: (em: EntityManager, requestID: string) => Promise<T>,
): Promise<T> {
  if (!isStaff(caller)) throw forbidden(REPORT_TEXT.staffOnly);
  const requestID = checkId(id);
  return ds.transaction(async (em) => {
    const row = await requestRow(em, requestID, true);
    checkReadRow(row, caller);
    if (!(REPORT_EDITABLE_STATUSES as readonly string[]).includes(row.status))
      throw new HttpError(409, REPORT_TEXT.notEditable(row.status));
    return work(em, row.id);
  });
}

/** The file names of the request's uploaded pictures, in their order. */
export async function uploadsOf(db: Query, requestID: string): Promise<string[]> {
  const [row] = (await db.query('SELECT uploads FROM reportbuilder.report_images WHERE request_id = $1', [
    requestID,
  ])) as { uploads: unknown }[];
  return Array.isArray(row?.uploads)
    ? row.uploads.filter((name): name is string => typeof name === 'string')
    : [];
}

/** Replaces the order (inside withImageEdit's transaction). */
export async function setUploads(em: EntityManager, requestID: string, uploads: string[]): Promise<void> {
  await em.query(
    `INSERT INTO reportbuilder.report_images (request_id, uploads) VALUES ($1, $2)
     ON CONFLICT (request_id) DO UPDATE SET uploads = EXCLUDED.uploads, updated_at = now()`,
    [requestID, JSON.stringify(uploads)],
  );
}
