import type { DataSource, EntityManager } from 'typeorm';
import type { RequestRow } from '@portal/contracts';
import { recordNotifications, recordRequestEvents } from '@portal/db';
import { notifyStatusChange } from '../notifications/record';
import { HttpError, badRequest, notFound } from '@portal/server-kit';
import type { Caller } from '@portal/server-kit';
import { REQUEST_ROW_COLUMNS, toRequestRow, type RequestDbRow } from './rows';

/**
 * Changes to requests (spec 02 §7.2 calls): each in one transaction that locks the rows (FOR UPDATE), checks
 * the version the caller saw and the rules on the row as it is now, writes the change, bumps the version and
 * records the history, all together, or nothing.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const CHANGE_TEXT = {
  badId: (id: string) => `'${id}' is not a request id (a UUID).`,
  notFound: 'No such request.',
  notFoundMany: (ids: string[]) => `No such request: ${ids.join(', ')}.`,
  stale: (version: number) =>
    `This request was changed by someone else meanwhile (it is at version ${version}); the latest is shown.`,
} as const;

/** A 409 that carries what the screen needs: the row as it is now, or the requests a bulk change refused. */
export class RequestConflict extends HttpError {
  constructor(
    message: string,
    readonly current?: RequestRow,
    readonly refused?: { id: string; gripReference: string; status: string }[],
  ) {
    super(409, message);
    this.name = 'RequestConflict';
  }
}

/** A history line of a change (written with the change). */
export interface HistoryLine {
  field: string;
  from: string | null;
  to: string | null;
  comment?: string | null;
}

/** Column values to set; `status` also moves status_changed_at (and delivered_at on delivery). */
export type RowChange = Record<string, unknown>;

export interface ChangeOutcome {
  set: RowChange;
  history: HistoryLine[];
}

export function checkId(id: string): string {
  if (!UUID.test(id)) throw badRequest(CHANGE_TEXT.badId(id));
  return id.toLowerCase();
}

const SELECT_LOCKED = `SELECT ${REQUEST_ROW_COLUMNS} FROM requests.requests r WHERE r.id = ANY($1::uuid[]) ORDER BY r.id FOR UPDATE`;

async function writeChange(
  em: EntityManager,
  row: RequestDbRow,
  outcome: ChangeOutcome,
  caller: Caller,
): Promise<void> {
  const set = { ...outcome.set };
  const columns = Object.keys(set);
  const assignments = columns.map((column, i) => `${column} = $${i + 2}`);
  if ('status' in set && set.status !== row.status) {
    assignments.push('status_changed_at = now()');
    if (set.status === 'Delivered') assignments.push('delivered_at = coalesce(delivered_at, now())');
    if (set.status === 'Finalised') assignments.push('date_finalised = coalesce(date_finalised, now())');
  }
  // A new location moves the point with it (the map and the duplicate check read the point).
  if ('lat' in set && 'lng' in set) {
    const lat = columns.indexOf('lat') + 2;
    const lng = columns.indexOf('lng') + 2;
    assignments.push(`point = ST_SetSRID(ST_MakePoint($${lng}::float8, $${lat}::float8), 4326)`);
  }
  assignments.push('version = version + 1', 'updated_at = now()');
  await em.query(`UPDATE requests.requests SET ${assignments.join(', ')} WHERE id = $1`, [
    row.id,
    ...columns.map((column) => set[column]),
  ]);
  // Every status change of a request passes here: its webhook event is written with it (the outbox).
  if ('status' in set && set.status !== row.status) {
    await recordRequestEvents(em, 'request.status_changed', [row.id]);
    await notifyStatusChange(em, row, set, caller.id);
  }
  // The first QS (set by the QS checklist, or by the first 'Start report'): told it is theirs.
  if (typeof set.first_user_id === 'string' && set.first_user_id !== row.first_user_id)
    await recordNotifications(em, {
      kind: 'request.assigned',
      requestIds: [row.id],
      to: 'firstQs',
      actorId: null,
      once: true,
    });
  if (outcome.history.length > 0) {
    const values: unknown[] = [];
    const tuples = outcome.history.map((line) => {
      values.push(row.id, caller.id, caller.name, line.field, line.from, line.to, line.comment ?? null);
      const base = values.length - 7;
      return `(${Array.from({ length: 7 }, (_, i) => `$${base + i + 1}`).join(', ')})`;
    });
    await em.query(
      `INSERT INTO requests.request_history (request_id, user_id, user_name, field, from_value, to_value, comment)
       VALUES ${tuples.join(', ')}`,
      values,
    );
  }
}

async function reread(em: EntityManager, ids: string[]): Promise<RequestRow[]> {
  const rows = (await em.query(
    `SELECT ${REQUEST_ROW_COLUMNS} FROM requests.requests r WHERE r.id = ANY($1::uuid[]) ORDER BY r.id`,
    [ids],
  )) as RequestDbRow[];
  const now = new Date();
  return rows.map((row) => toRequestRow(row, now));
}

/**
 * One request changed: locked, its version checked (when the caller names one), `decide` run on the row as
 * it is now (it throws to refuse: RequestConflict / 400; it may read or write through `em`, inside the
 * transaction), then written with its history. Answers the row
 * after the change.
 */
export async function changeRequest(
  ds: DataSource,
  input: { id: string; caller: Caller; version?: number },
  decide: (
    row: RequestDbRow,
    current: RequestRow,
    em: EntityManager,
  ) => ChangeOutcome | Promise<ChangeOutcome>,
): Promise<RequestRow> {
  const id = checkId(input.id);
  return ds.transaction(async (em) => {
    const [row] = (await em.query(SELECT_LOCKED, [[id]])) as RequestDbRow[];
    if (!row) throw notFound(CHANGE_TEXT.notFound);
    const current = toRequestRow(row);
    if (input.version !== undefined && input.version !== row.version)
      throw new RequestConflict(CHANGE_TEXT.stale(row.version), current);
    const outcome = await decide(row, current, em);
    await writeChange(em, row, outcome, input.caller);
    const [after] = await reread(em, [id]);
    return after;
  });
}

/**
 * Several requests changed together (bulk actions): all locked in id order (two bulk changes never
 * deadlock), `decide` run on each; a refusal of any is a refusal of all — nothing is written.
 * `refuse` lists the rows that block the change: when it names any, the answer is a 409 listing them.
 */
export async function changeRequests(
  ds: DataSource,
  input: { ids: string[]; caller: Caller },
  decide: (row: RequestDbRow) => ChangeOutcome | null,
  refuse?: { test: (row: RequestDbRow) => boolean; message: (count: number) => string },
): Promise<RequestRow[]> {
  const ids = [...new Set(input.ids.map(checkId))];
  return ds.transaction(async (em) => {
    const rows = (await em.query(SELECT_LOCKED, [ids])) as RequestDbRow[];
    if (rows.length !== ids.length) {
      const found = new Set(rows.map((row) => row.id));
      throw notFound(CHANGE_TEXT.notFoundMany(ids.filter((id) => !found.has(id))));
    }
    if (refuse) {
      const refused = rows.filter(refuse.test);
      if (refused.length > 0)
        throw new RequestConflict(
          refuse.message(refused.length),
          undefined,
          refused.map((row) => ({ id: row.id, gripReference: row.grip_reference, status: row.status })),
        );
    }
    for (const row of rows) {
      const outcome = decide(row);
      if (outcome) await writeChange(em, row, outcome, input.caller);
    }
    return reread(em, ids);
  });
}
