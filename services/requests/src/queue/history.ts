import type { DataSource } from 'typeorm';
import type { RequestHistoryEntry } from '@portal/contracts';

/** The owner (user id) of a request; null when there is no such request. */
export async function requestOwner(ds: DataSource, id: string): Promise<string | null> {
  const [row] = (await ds.query('SELECT user_id FROM requests.requests WHERE id = $1', [id])) as {
    user_id: string;
  }[];
  return row ? row.user_id : null;
}

/** A request's history, newest first (at most 500 lines), as the console's history dialog shows it. */
export async function requestHistory(ds: DataSource, id: string): Promise<RequestHistoryEntry[]> {
  const rows = (await ds.query(
    `SELECT at, user_name, field, from_value, to_value, comment FROM requests.request_history
        WHERE request_id = $1 ORDER BY at DESC, id DESC LIMIT 500`,
    [id],
  )) as {
    at: Date;
    user_name: string | null;
    field: string;
    from_value: string | null;
    to_value: string | null;
    comment: string | null;
  }[];
  return rows.map((row) => ({
    at: new Date(row.at).toISOString(),
    user: row.user_name ?? '',
    field: row.field,
    from: row.from_value,
    to: row.to_value,
    comment: row.comment,
  }));
}
