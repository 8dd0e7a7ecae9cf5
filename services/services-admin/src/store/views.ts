import type { EntityManager } from 'typeorm';
import type { AdminGroup, AdminUser } from '@portal/contracts';

/**
 * The rows of the users and groups grids (contracts AdminUser, AdminGroup), so that every call answers
 * with the same shape. A page's rows are read in one statement together with the query that picks them:
 * either their ids as an array in page order (a bound list, or ARRAY(<query>) built in the database),
 * joined with unnest … WITH ORDINALITY, which keeps their order and probes the primary key per id; or,
 * for users, the rows themselves from an index-only walk (the sort indexes carry every column shown).
 */
export interface RowSource {
  /** SQL of the uuid[] of the rows, in order: `$1::uuid[]` or `ARRAY(SELECT … ORDER BY … LIMIT …)`. */
  ids?: string;
  /**
   * Users only, instead of `ids`: a SELECT of USER_PAGE_COLUMNS from identity.users u (and more columns),
   * and the ORDER BY that puts its rows in page order, over those columns as `p.<name>`.
   */
  rows?: { sql: string; order: string };
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

/** A view's rows come in a CTE `page`, columns named as its `columns` read them (`p.…`). */
interface View {
  /** SELECT of the page from a source's ids (`ids`: unnest … AS ids(id, position)). */
  pageOfIds: (ids: string) => string;
  /** More WITH definitions over `page`. */
  with?: string;
  columns: string;
  from: string;
}

async function rowsOf<Doc>(manager: EntityManager, source: RowSource, view: View): Promise<Rows<Doc>> {
  const page = source.rows
    ? source.rows
    : {
        sql: view.pageOfIds(source.ids!),
        order: `p.position ${source.reversed ? 'DESC' : 'ASC'}`,
      };
  const definitions = [source.with, `page AS MATERIALIZED (${page.sql})`, view.with].filter(Boolean);
  const rows: (Doc & { page_total?: number })[] = await manager.query(
    `WITH ${definitions.join(',\n')}
     SELECT ${view.columns}${source.total ? `, ${source.total} AS page_total` : ''}
     FROM page p ${view.from}
     ORDER BY ${page.order}`,
    source.params,
  );
  // page_total stays on the rows: the answer's schema leaves it out, and deleting a property from 1000
  // rows makes each a slow dictionary object for the serialiser.
  return { docs: rows, total: rows[0]?.page_total };
}

/** A list of ids as a source. */
const listed = (ids: readonly string[]): RowSource => ({ ids: '$1::uuid[]', params: [ids] });

/** What a users page reads of each user: all in the sort indexes (migration UserPages). */
export const USER_PAGE_COLUMNS =
  'u.id, u.name, u.email, u.group_id, u.created_at, u.active, u.is_admin, u.rates_editor, u.savi_operator, u.savi_qc, u.claims_user';

// The rows come named and typed as the contract has them (AdminUser, AdminGroup): no copy per row, which
// counts on a page of 1000. The services of a page's users are gathered in one go: a lookup per user cost
// more than the rest of the page.
const USER_VIEW: View = {
  pageOfIds: (ids) => `
    SELECT ${USER_PAGE_COLUMNS}, ids.position
    FROM unnest(${ids}) WITH ORDINALITY AS ids(id, position) JOIN identity.users u ON u.id = ids.id`,
  with: `page_services AS (
      SELECT us.user_id, array_agg(s.identifier ORDER BY s.identifier) AS services
      FROM identity.user_services us JOIN identity.services s ON s.id = us.service_id
      WHERE us.user_id IN (SELECT id FROM page)
      GROUP BY us.user_id)`,
  columns: `
    p.id AS "_id", p.name, p.email, p.group_id AS "group", COALESCE(g.name, '') AS "groupName", p.active,
    p.is_admin AS admin, p.rates_editor AS "ratesEditor", p.savi_operator AS "saviOperator",
    p.savi_qc AS "saviQC", p.claims_user AS "claimsUser", COALESCE(d.services, '{}') AS services,
    to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`,
  from: `
    LEFT JOIN identity.groups g ON g.id = p.group_id
    LEFT JOIN page_services d ON d.user_id = p.id`,
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

const GROUP_VIEW: View = {
  pageOfIds: (ids) => `SELECT ids.id, ids.position FROM unnest(${ids}) WITH ORDINALITY AS ids(id, position)`,
  columns: `
    g.id AS "_id", g.name, g.code, g.admin_user_id AS admin,
    COALESCE(a.name || ' (' || a.email || ')', '') AS "adminLabel", g.active, g.include_vat AS "includeVAT",
    g.include_professional_fee AS "includeProfessionalFee",
    g.professional_fee_percentage::float8 AS "professionalFeePercentage", g.extra_field AS "extraField",
    g.report_name_format AS "reportNameFormat", g."references", g.claims_references AS "claimsReferences",
    COALESCE(d.services, '{}') AS services,
    (SELECT count(*)::int FROM identity.users m WHERE m.group_id = g.id AND m.kind = 'person') AS "userCount"`,
  from: `
    JOIN identity.groups g ON g.id = p.id
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
