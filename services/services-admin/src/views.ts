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

async function rowsOf<Row, Doc>(
  manager: EntityManager,
  source: RowSource,
  view: { columns: string; from: string; toDoc: (row: Row) => Doc },
): Promise<Rows<Doc>> {
  const rows: (Row & { page_total?: number })[] = await manager.query(
    `${source.with ? `WITH ${source.with}` : ''}
     SELECT ${view.columns}${source.total ? `, ${source.total} AS page_total` : ''}
     FROM unnest(${source.ids}) WITH ORDINALITY AS page(id, position)
     ${view.from}
     ORDER BY page.position ${source.reversed ? 'DESC' : 'ASC'}`,
    source.params,
  );
  return { docs: rows.map(view.toDoc), total: rows[0]?.page_total };
}

/** A list of ids as a source. */
const listed = (ids: readonly string[]): RowSource => ({ ids: '$1::uuid[]', params: [ids] });

interface UserRow {
  id: string;
  name: string;
  email: string;
  group_id: string | null;
  group_name: string | null;
  active: boolean;
  is_admin: boolean;
  rates_editor: boolean;
  savi_operator: boolean;
  savi_qc: boolean;
  claims_user: boolean;
  services: string[];
  created_at: Date;
}

const USER_VIEW = {
  columns: `
    u.id, u.name, u.email, u.group_id, g.name AS group_name, u.active, u.is_admin, u.rates_editor,
    u.savi_operator, u.savi_qc, u.claims_user, u.created_at, COALESCE(d.services, '{}') AS services`,
  from: `
    JOIN identity.users u ON u.id = page.id
    LEFT JOIN identity.groups g ON g.id = u.group_id
    LEFT JOIN LATERAL (
      SELECT array_agg(s.identifier ORDER BY s.identifier) AS services
      FROM identity.user_services us JOIN identity.services s ON s.id = us.service_id
      WHERE us.user_id = u.id) d ON true`,
  toDoc: (row: UserRow): AdminUser => ({
    _id: row.id,
    name: row.name,
    email: row.email,
    group: row.group_id,
    groupName: row.group_name ?? '',
    active: row.active,
    admin: row.is_admin,
    ratesEditor: row.rates_editor,
    saviOperator: row.savi_operator,
    saviQC: row.savi_qc,
    claimsUser: row.claims_user,
    services: row.services,
    createdAt: row.created_at.toISOString(),
  }),
};

/** The users of a source, in its order (ids not found are left out). */
export const usersOf = (manager: EntityManager, source: RowSource) => rowsOf(manager, source, USER_VIEW);

export async function adminUsers(manager: EntityManager, ids: readonly string[]): Promise<AdminUser[]> {
  return ids.length === 0 ? [] : (await usersOf(manager, listed(ids))).docs;
}

export async function adminUser(manager: EntityManager, id: string): Promise<AdminUser> {
  const [user] = await adminUsers(manager, [id]);
  return user;
}

interface GroupRow {
  id: string;
  name: string;
  code: string;
  admin_user_id: string | null;
  admin_label: string;
  active: boolean;
  include_vat: boolean;
  include_professional_fee: boolean;
  professional_fee_percentage: string;
  extra_field: string;
  report_name_format: string;
  references: unknown[][];
  claims_references: unknown[][];
  services: string[];
  user_count: number;
}

const GROUP_VIEW = {
  columns: `
    g.id, g.name, g.code, g.admin_user_id, COALESCE(a.name || ' (' || a.email || ')', '') AS admin_label,
    g.active, g.include_vat, g.include_professional_fee, g.professional_fee_percentage, g.extra_field,
    g.report_name_format, g."references", g.claims_references, COALESCE(d.services, '{}') AS services,
    (SELECT count(*)::int FROM identity.users m WHERE m.group_id = g.id) AS user_count`,
  from: `
    JOIN identity.groups g ON g.id = page.id
    LEFT JOIN identity.users a ON a.id = g.admin_user_id
    LEFT JOIN LATERAL (
      SELECT array_agg(s.identifier ORDER BY s.identifier) AS services
      FROM identity.group_services gs JOIN identity.services s ON s.id = gs.service_id
      WHERE gs.group_id = g.id) d ON true`,
  toDoc: (row: GroupRow): AdminGroup => ({
    _id: row.id,
    name: row.name,
    code: row.code,
    admin: row.admin_user_id,
    adminLabel: row.admin_label,
    active: row.active,
    includeVAT: row.include_vat,
    includeProfessionalFee: row.include_professional_fee,
    professionalFeePercentage: Number(row.professional_fee_percentage),
    extraField: row.extra_field,
    reportNameFormat: row.report_name_format,
    references: row.references,
    claimsReferences: row.claims_references,
    services: row.services,
    userCount: row.user_count,
  }),
};

/** The groups of a source, in its order (ids not found are left out). */
export const groupsOf = (manager: EntityManager, source: RowSource) => rowsOf(manager, source, GROUP_VIEW);

export async function adminGroups(manager: EntityManager, ids: readonly string[]): Promise<AdminGroup[]> {
  return ids.length === 0 ? [] : (await groupsOf(manager, listed(ids))).docs;
}

export async function adminGroup(manager: EntityManager, id: string): Promise<AdminGroup> {
  const [group] = await adminGroups(manager, [id]);
  return group;
}
