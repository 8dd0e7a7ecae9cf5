import type { DataSource } from 'typeorm';

/** A request's client references and its group's reference definitions (claims ones for a claims user). */
export interface RequestReferencesRow {
  user_id: string;
  reference: Record<string, unknown>;
  claims_user: boolean;
  references: unknown[] | null;
  claims_references: unknown[] | null;
}

/** A request's references with its group's definitions; null when there is no such request. */
export async function requestReferences(ds: DataSource, id: string): Promise<RequestReferencesRow | null> {
  const [row] = (await ds.query(
    `SELECT r.user_id, r.reference, r.claims_user, g."references", g.claims_references
         FROM requests.requests r LEFT JOIN identity.groups g ON g.id = r.group_id WHERE r.id = $1`,
    [id],
  )) as RequestReferencesRow[];
  return row ?? null;
}
