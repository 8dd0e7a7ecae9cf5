import type { DataSource } from 'typeorm';
import { USAGE_SESSION_SOURCE, type UsageRow } from '@portal/contracts';

/** The SQL of the usage API (routes/usage.ts): metering.usage_daily, written by the services' meters. */

type Db = Pick<DataSource, 'query'>;

/** Which usage: one group's (null: callers without a group are never a group's) or every group's. */
export interface UsageScope {
  /** A group's id, or undefined for all groups (callers without a group included). */
  groupId?: string;
  /** 'YYYY-MM'. */
  month: string;
}

/** A source's label: the key's name and prefix while the key exists, 'session' for people. */
const SOURCE_NAME = `CASE WHEN u.source = '${USAGE_SESSION_SOURCE}' THEN NULL
  ELSE (SELECT k.name || ' (' || k.prefix || ')' FROM identity.api_keys k WHERE k.id::text = u.source) END`;

const MONTH_WHERE = `u.day >= to_date($1, 'YYYY-MM') AND u.day < to_date($1, 'YYYY-MM') + interval '1 month'
  AND ($2::uuid IS NULL OR u.group_id = $2::uuid)`;

/** The month's counts per day, group, service, metric and source. */
export async function usageRows(db: Db, scope: UsageScope): Promise<UsageRow[]> {
  const rows: (Omit<UsageRow, 'count'> & { count: string })[] = await db.query(
    `SELECT to_char(u.day, 'YYYY-MM-DD') AS day, u.group_id AS "groupId", u.service, u.metric, u.source,
            ${SOURCE_NAME} AS "sourceName", u.count
       FROM metering.usage_daily u
      WHERE ${MONTH_WHERE}
      ORDER BY u.day, u.group_id NULLS FIRST, u.service, u.metric, u.source`,
    [scope.month, scope.groupId ?? null],
  );
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

/** A row of the invoicing export: the month's total of one group, service, metric and source. */
export interface UsageInvoiceRow {
  groupName: string;
  groupCode: string;
  month: string;
  service: string;
  metric: string;
  /** 'session', or the key's name and prefix (its id when the key is gone). */
  source: string;
  count: number;
}

/** The month's totals per group, service, metric and source, by group name (the export's rows). */
export async function usageInvoiceRows(db: Db, scope: UsageScope): Promise<UsageInvoiceRow[]> {
  const rows: (Omit<UsageInvoiceRow, 'count'> & { count: string })[] = await db.query(
    `SELECT coalesce(g.name, CASE WHEN u.group_id IS NULL THEN '' ELSE u.group_id::text END) AS "groupName",
            coalesce(g.code, '') AS "groupCode", $1 AS month, u.service, u.metric,
            coalesce(${SOURCE_NAME}, u.source) AS source, sum(u.count)::bigint AS count
       FROM metering.usage_daily u LEFT JOIN identity.groups g ON g.id = u.group_id
      WHERE ${MONTH_WHERE}
      GROUP BY g.name, g.code, u.group_id, u.service, u.metric, u.source
      ORDER BY u.group_id IS NULL, lower(g.name), u.group_id, u.service, u.metric, source`,
    [scope.month, scope.groupId ?? null],
  );
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

/** A group's code (file names), or undefined. */
export async function groupCodeOf(db: Db, groupId: string): Promise<string | undefined> {
  const [row]: { code: string }[] = await db.query(`SELECT code FROM identity.groups WHERE id = $1`, [
    groupId,
  ]);
  return row?.code;
}
