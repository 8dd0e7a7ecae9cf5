import { Type } from '@sinclair/typebox';
import ExcelJS from 'exceljs';
import {
  errorAnswers,
  ROLE,
  UsageAnswer,
  UsageQuery,
  USAGE_METRICS,
  USAGE_ROUTES,
  USAGE_TEXTS,
} from '@portal/contracts';
import { formatSaIsoDate } from '@portal/domain';
import { forbidden, type TypedFastify } from '@portal/server-kit';
import { assertAdminOfGroup, type Actor, type Guard } from '../access';
import type { ServicesAdminContext } from '../context';
import { XLSX_CONTENT_TYPE } from '../rates-sheet';
import {
  groupCodeOf,
  usageInvoiceRows,
  usageRows,
  type UsageInvoiceRow,
  type UsageScope,
} from '../store/usage';

/**
 * Usage (issue 22): what groups used per day, service, metric and source (docs/architecture.md "Usage
 * metering"), for administrators (any group, or all) and a group's own admin (their group only), and the
 * month's totals as a spreadsheet or CSV that invoicing reads.
 */

const TAGS = ['Usage'];
const ERRORS = errorAnswers(400, 401, 403);
/** A file's bytes (the OpenAPI document says what they are; nothing is serialised). */
const FileAnswer = (contentType: string) =>
  Type.Unsafe<Buffer | string>({ type: 'string', format: 'binary', contentMediaType: contentType });

/** The export's columns, in order (the CSV's header and the sheet's). */
export const USAGE_EXPORT_COLUMNS: { key: keyof UsageInvoiceRow; header: string; width: number }[] = [
  { key: 'groupName', header: 'Group', width: 32 },
  { key: 'groupCode', header: 'Group code', width: 12 },
  { key: 'month', header: 'Month', width: 10 },
  { key: 'service', header: 'Service', width: 16 },
  { key: 'metric', header: 'Metric', width: 18 },
  { key: 'source', header: 'Source (API key or session)', width: 36 },
  { key: 'count', header: 'Count', width: 12 },
];

/** Every day of a month, 'YYYY-MM-DD'. */
export function daysOf(month: string): string[] {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const length = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return Array.from({ length }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`);
}

/** A CSV cell: quoted when needed; a text a spreadsheet would run as a formula is kept as text. */
function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function usageCsv(rows: readonly UsageInvoiceRow[]): string {
  const lines = [USAGE_EXPORT_COLUMNS.map((c) => csvCell(c.header)).join(',')];
  for (const row of rows) lines.push(USAGE_EXPORT_COLUMNS.map((c) => csvCell(row[c.key])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export async function usageWorkbook(rows: readonly UsageInvoiceRow[], title: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Property Portal';
  workbook.title = title;
  const sheet = workbook.addWorksheet('Usage', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = USAGE_EXPORT_COLUMNS.map(({ key, header, width }) => ({ key, header, width }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) sheet.addRow(row);
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: USAGE_EXPORT_COLUMNS.length } };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export async function usageRoutes(app: TypedFastify, { ds }: ServicesAdminContext, guard: Guard) {
  const access = guard(ROLE.admin, ROLE.groupAdmin);

  /**
   * The usage a caller asked for and may see: a named group after the group-admin check; no group named,
   * every group's for an administrator, the caller's own for a group's admin.
   */
  const scopeOf = async (actor: Actor, query: UsageQuery): Promise<UsageScope> => {
    const month = query.month ?? formatSaIsoDate(Date.now()).slice(0, 7);
    const groupId = query.groupId ?? (actor.roles.includes(ROLE.admin) ? undefined : actor.groupId);
    if (groupId === null) throw forbidden(USAGE_TEXTS.groupRequired);
    if (groupId !== undefined) await assertAdminOfGroup(ds, actor, groupId);
    return { groupId, month };
  };

  const fileName = async (scope: UsageScope, extension: string) => {
    const code = scope.groupId ? ((await groupCodeOf(ds, scope.groupId)) ?? 'group') : 'all-groups';
    return `usage-${code.replace(/[^A-Za-z0-9_-]+/g, '_') || 'group'}-${scope.month}.${extension}`;
  };

  app.get(
    USAGE_ROUTES.usage,
    {
      onRequest: access,
      schema: {
        summary: "A month's usage",
        description:
          'What a group (or, for administrators, every group) used in a month: counts per SAST day, service, metric ' +
          'and source (an API key or people in the portal), with the totals per metric.',
        tags: TAGS,
        querystring: UsageQuery,
        response: { 200: UsageAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const scope = await scopeOf(request.actor, request.query);
      const rows = await usageRows(ds, scope);
      const totals: Record<string, number> = Object.fromEntries(USAGE_METRICS.map((metric) => [metric, 0]));
      for (const row of rows) totals[row.metric] = (totals[row.metric] ?? 0) + row.count;
      return { month: scope.month, groupId: scope.groupId ?? null, days: daysOf(scope.month), rows, totals };
    },
  );

  app.get(
    USAGE_ROUTES.exportXlsx,
    {
      onRequest: access,
      schema: {
        summary: "A month's usage as a spreadsheet",
        description:
          "The month's totals per group, service, metric and source (API key or session) as an Excel workbook, " +
          'one row each, for invoicing.',
        tags: TAGS,
        querystring: UsageQuery,
        response: { 200: FileAnswer(XLSX_CONTENT_TYPE), ...ERRORS },
      },
    },
    async (request, reply) => {
      const scope = await scopeOf(request.actor, request.query);
      const workbook = await usageWorkbook(await usageInvoiceRows(ds, scope), `Usage ${scope.month}`);
      return reply
        .type(XLSX_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="${await fileName(scope, 'xlsx')}"`)
        .header('cache-control', 'no-store')
        .send(workbook);
    },
  );

  app.get(
    USAGE_ROUTES.exportCsv,
    {
      onRequest: access,
      schema: {
        summary: "A month's usage as CSV",
        description:
          'The same rows as the spreadsheet export, as comma-separated values (UTF-8, a header row).',
        tags: TAGS,
        querystring: UsageQuery,
        response: { 200: FileAnswer('text/csv'), ...ERRORS },
      },
    },
    async (request, reply) => {
      const scope = await scopeOf(request.actor, request.query);
      const csv = usageCsv(await usageInvoiceRows(ds, scope));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${await fileName(scope, 'csv')}"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );
}
