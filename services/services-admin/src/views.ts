import type { EntityManager } from 'typeorm';
import type { AdminGroup, AdminUser } from '@portal/contracts';

/**
 * The rows of the users and groups grids (contracts AdminUser, AdminGroup), so that every call answers
 * with the same shape. A page's rows are read in one statement together with the query that picks its
 * ids: the ids come as an array in page order (a bound list, or ARRAY(<query>) built in the database),
 * joined with unnest … WITH ORDINALITY, which keeps their order and probes the primary key per id.
 */
export interface RowSource {
  /** SQL of the uuid[] of the rows, in order: `$1::uuid[]` or `ARRAY(SELECT … ORDER BY … LIMIT …)`. */
  ids: string;
  params: unknown[];
  /** WITH definitions the ids refer to. */
  with?: string;
  /** The ids come in the opposite of page order (a page read from the far end). */
  reversed?: boolean;
  /** A scalar SQL answered with the rows (a page's total). */
  total?: string;
}

export interface Rows<Doc> {
  docs: Doc[];
  /** The source's `total`; unknown when there are no rows. */
  total?: number;
}

async function rowsOf<Doc>(
  manager: EntityManager,
  source: RowSource,
  view: { columns: string; from: string },
): Promise<Rows<Doc>> {
  const rows: (Doc & { page_total?: number })[] = await manager.query(
    `${source.with ? `WITH ${source.with}` : ''}
     SELECT ${view.columns}${source.total ? `, ${source.total} AS page_total` : ''}
     FROM unnest(${source.ids}) WITH ORDINALITY AS page(id, position)
     ${view.from}
     ORDER BY page.position ${source.reversed ? 'DESC' : 'ASC'}`,
    source.params,
  );
  const total = rows[0]?.page_total;
  if (source.total) for (const row of rows) delete row.page_total;
  return { docs: rows, total };
}

/** A list of ids as a source. */
const listed = (ids: readonly string[]): RowSource => ({ ids: '$1::uuid[]', params: [ids] });

// The rows come named and typed as the contract has them (AdminUser, AdminGroup): no copy per row, which
// counts on a page of 1000.
const USER_VIEW = {
  columns: `
    u.id AS "_id", u.name, u.email, u.group_id AS "group", COALESCE(g.name, '') AS "groupName", u.active,
    u.is_admin AS admin, u.rates_editor AS "ratesEditor", u.savi_operator AS "saviOperator",
    u.savi_qc AS "saviQC", u.claims_user AS "claimsUser", COALESCE(d.services, '{}') AS services,
    to_char(u.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`,
  from: `
    JOIN identity.users u ON u.id = page.id
    LEFT JOIN identity.groups g ON g.id = u.group_id
    LEFT JOIN LATERAL (
      SELECT array_agg(s.identifier ORDER BY s.identifier) AS services
      FROM identity.user_services us JOIN identity.services s ON s.id = us.service_id
      WHERE us.user_id = u.id) d ON true`,
};

/** The users of a source, in its order (ids not found are left out). */
export const usersOf = (manager: EntityManager, source: RowSource) =>
  rowsOf<AdminUser>(manager, source, USER_VIEW);

export async function adminUsers(manager: EntityManager, ids: readonly string[]): Promise<AdminUser[]> {
  return ids.length === 0 ? [] : (await usersOf(manager, listed(ids))).docs;
}

export async function adminUser(manager: EntityManager, id: string): Promise<AdminUser> {
  const [user] = await adminUsers(manager, [id]);
  return user;
}

const GROUP_VIEW = {
  columns: `
    g.id AS "_id", g.name, g.code, g.admin_user_id AS admin,
    COALESCE(a.name || ' (' || a.email || ')', '') AS "adminLabel", g.active, g.include_vat AS "includeVAT",
    g.include_professional_fee AS "includeProfessionalFee",
    g.professional_fee_percentage::float8 AS "professionalFeePercentage", g.extra_field AS "extraField",
    g.report_name_format AS "reportNameFormat", g."references", g.claims_references AS "claimsReferences",
    COALESCE(d.services, '{}') AS services,
    (SELECT count(*)::int FROM identity.users m WHERE m.group_id = g.id) AS "userCount"`,
  from: `
    JOIN identity.groups g ON g.id = page.id
    LEFT JOIN identity.users a ON a.id = g.admin_user_id
    LEFT JOIN LATERAL (
      SELECT array_agg(s.identifier ORDER BY s.identifier) AS services
      FROM identity.group_services gs JOIN identity.services s ON s.id = gs.service_id
      WHERE gs.group_id = g.id) d ON true`,
};

/** The groups of a source, in its order (ids not found are left out). */
export const groupsOf = (manager: EntityManager, source: RowSource) =>
  rowsOf<AdminGroup>(manager, source, GROUP_VIEW);

export async function adminGroups(manager: EntityManager, ids: readonly string[]): Promise<AdminGroup[]> {
  return ids.length === 0 ? [] : (await groupsOf(manager, listed(ids))).docs;
}

export async function adminGroup(manager: EntityManager, id: string): Promise<AdminGroup> {
  const [group] = await adminGroups(manager, [id]);
  return group;
}
