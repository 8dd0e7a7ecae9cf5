import type { DataSource } from 'typeorm';
import type { SavedView } from '@portal/contracts';

/** Saved views (beyond the spec): a user's named grid states, one per name (case-insensitive). */

interface SavedViewRow {
  id: string;
  name: string;
  state: Record<string, unknown>;
  updated_at: Date;
}

function toView(row: SavedViewRow): SavedView {
  return { id: row.id, name: row.name, state: row.state, updatedAt: new Date(row.updated_at).toISOString() };
}

/** A user's saved views by name. */
export async function savedViews(ds: DataSource, userId: string): Promise<SavedView[]> {
  const rows = (await ds.query(
    'SELECT id, name, state, updated_at FROM requests.saved_views WHERE user_id = $1 ORDER BY lower(name)',
    [userId],
  )) as SavedViewRow[];
  return rows.map(toView);
}

/** Saves a view; under a name the user already has, it replaces that view. */
export async function saveView(
  ds: DataSource,
  userId: string,
  view: { name: string; state: unknown },
): Promise<void> {
  await ds.query(
    `INSERT INTO requests.saved_views (user_id, name, state) VALUES ($1, $2, $3)
     ON CONFLICT (user_id, lower(name)) DO UPDATE SET state = EXCLUDED.state, name = EXCLUDED.name, updated_at = now()`,
    [userId, view.name, JSON.stringify(view.state)],
  );
}

/** Deletes one of the user's views; false when they have no view of that id. */
export async function deleteView(ds: DataSource, userId: string, id: string): Promise<boolean> {
  // TypeORM answers a DELETE … RETURNING as [rows, count].
  const [deleted] = (await ds.query(
    'DELETE FROM requests.saved_views WHERE id = $1 AND user_id = $2 RETURNING id',
    [id, userId],
  )) as [unknown[], number];
  return deleted.length > 0;
}
