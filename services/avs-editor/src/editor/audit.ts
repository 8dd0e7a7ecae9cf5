import type { EntityManager } from 'typeorm';
import type { EditorEdit } from '@portal/contracts';
import { HttpError, type Caller } from '@portal/server-kit';
import type { Queryable } from '@portal/geo';

/**
 * The editor's audit trail (avs_editor.edits) and its refusals: every edit writes one row — who, when,
 * what, before → after — in the edit's own transaction, so there is no edit without its row and no row
 * without its edit.
 */

export type EditEntity = 'address' | 'poi' | 'parcel' | 'request';

export interface EditRecord {
  action: string;
  entity: EditEntity;
  entityId: string;
  parcelId: string | null;
  before: unknown;
  after: unknown;
}

export async function recordEdit(em: EntityManager, caller: Caller, edit: EditRecord): Promise<void> {
  await em.query(
    `INSERT INTO avs_editor.edits (user_id, user_email, user_name, action, entity, entity_id, parcel_id, before, after)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb)`,
    [
      caller.id,
      caller.email,
      caller.name,
      edit.action,
      edit.entity,
      edit.entityId,
      edit.parcelId,
      edit.before === null || edit.before === undefined ? null : JSON.stringify(edit.before),
      edit.after === null || edit.after === undefined ? null : JSON.stringify(edit.after),
    ],
  );
}

/** The audit trail of a parcel and everything on it, newest first. */
export async function editsOfParcel(db: Queryable, parcelId: string, limit = 100): Promise<EditorEdit[]> {
  const rows: {
    at: Date;
    user_email: string;
    user_name: string;
    action: string;
    entity: string;
    entity_id: string;
    before: unknown;
    after: unknown;
  }[] = await db.query(
    `SELECT at, user_email, user_name, action, entity, entity_id, before, after
     FROM avs_editor.edits WHERE parcel_id = $1 ORDER BY at DESC, id DESC LIMIT $2`,
    [parcelId, limit],
  );
  return rows.map((row) => ({
    at: new Date(row.at).toISOString(),
    user: `${row.user_name} <${row.user_email}>`,
    action: row.action,
    entity: row.entity,
    entityId: row.entity_id,
    before: row.before,
    after: row.after,
  }));
}

/** A 409 that carries the thing as it is now, so the screen shows it instead of what it had. */
export class EditorConflict extends HttpError {
  constructor(
    message: string,
    readonly current?: unknown,
  ) {
    super(409, message);
    this.name = 'EditorConflict';
  }
}
