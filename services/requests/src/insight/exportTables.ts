import ExcelJS from 'exceljs';
import { INSIGHT_CHART_TITLES, type InsightAnswer, type InsightChart } from '@portal/contracts';

/**
 * Each chart's data as a table (the rows the screen's data table shows), written as CSV or an xlsx sheet.
 * The late list is the page asked for (`latePage`), as the screen shows it; the console exports every request.
 */
type Cell = string | number | null;
interface Table {
  columns: { header: string; width: number }[];
  rows: Cell[][];
}

const col = (header: string, width = 14) => ({ header, width });

export function chartTable(answer: InsightAnswer, chart: InsightChart): Table {
  switch (chart) {
    case 'flow':
      return {
        columns: [
          col(answer.period.bucket === 'week' ? 'Week of' : 'Day', 12),
          col('Type', 8),
          col('Sub type', 26),
          col('Created', 10),
          col('Finished', 10),
        ],
        rows: answer.flow.map((r) => [r.bucket, r.type, r.subtype, r.created, r.finished]),
      };
    case 'groups':
      return {
        columns: [col('Group', 30), col('Created', 10), col('Finished', 10)],
        rows: answer.groups.map((r) => [r.groupName, r.created, r.finished]),
      };
    case 'turnaround':
      return {
        columns: [col('Type', 8), col('Finished', 10), col('Median hours'), col('P90 hours')],
        rows: answer.turnaround.map((r) => [r.type, r.count, r.medianHours, r.p90Hours]),
      };
    case 'statusTimes':
      return {
        columns: [
          col('Status', 18),
          col('Stays', 8),
          col('Median hours'),
          col('P90 hours'),
          col('Target hours'),
          col('Over target'),
        ],
        rows: answer.statusTimes.map((r) => [
          r.status,
          r.stays,
          r.medianHours,
          r.p90Hours,
          r.targetHours,
          r.overTarget,
        ]),
      };
    case 'backlog':
      return {
        columns: [
          col(answer.period.bucket === 'week' ? 'Week of' : 'Day', 12),
          col('Status', 18),
          col('Requests', 10),
        ],
        rows: answer.backlog.map((r) => [r.bucket, r.status, r.count]),
      };
    case 'sendBacks':
      return {
        columns: [col('Operator', 26), col('QC decisions'), col('Sent back'), col('Rate (%)', 10)],
        rows: answer.sendBacks.map((r) => [
          r.name,
          r.decisions,
          r.sentBack,
          r.rate === null ? null : Math.round(r.rate * 1000) / 10,
        ]),
      };
    case 'operators':
      return {
        columns: [col('Operator', 26), col('Started', 10), col('Submitted', 10), col('Approved', 10)],
        rows: answer.operators.map((r) => [r.name, r.started, r.submitted, r.approved]),
      };
    case 'queues':
      return {
        columns: [
          col('Queue', 26),
          col('Waiting', 9),
          col('Active', 9),
          col('Failed now', 11),
          col('Done in period'),
          col('Failed in period'),
          col('P50 seconds'),
          col('P95 seconds'),
        ],
        rows: answer.queues.map((r) => [
          r.label,
          r.waiting,
          r.active,
          r.failed,
          r.done,
          r.failedInPeriod,
          r.durationP50Seconds,
          r.durationP95Seconds,
        ]),
      };
    case 'late':
      return {
        columns: [
          col('GRiP reference', 18),
          col('Type', 8),
          col('Sub type', 26),
          col('Status', 14),
          col('Group', 26),
          col('Created', 22),
          col('Hours in status'),
          col('Target hours'),
          col('Hours over'),
        ],
        rows: answer.late.rows.map((r) => [
          r.gripReference,
          r.type,
          r.subtype,
          r.status,
          r.groupName,
          r.created,
          r.hoursInStatus,
          r.targetHours,
          r.hoursOver,
        ]),
      };
  }
}

/** A CSV cell: quoted when it holds a comma, quote or line break; a leading = + - @ is defused (spreadsheet formulas). */
function csvCell(value: Cell): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function tableCsv(table: Table): string {
  const lines = [table.columns.map((c) => csvCell(c.header)).join(',')];
  for (const row of table.rows) lines.push(row.map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export async function tableWorkbook(table: Table, chart: InsightChart, period: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Property Portal';
  workbook.title = `${INSIGHT_CHART_TITLES[chart]} ${period}`;
  // Sheet names: at most 31 characters, no / \ ? * [ ].
  const sheet = workbook.addWorksheet(INSIGHT_CHART_TITLES[chart].replace(/[/\\?*[\]]/g, ' ').slice(0, 31), {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = table.columns.map(({ header, width }) => ({ header, width }));
  sheet.getRow(1).font = { bold: true };
  for (const row of table.rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** 'insight-late-2026-11-23_2026-11-29.csv' */
export const exportFileName = (chart: InsightChart, answer: InsightAnswer, extension: string) =>
  `insight-${chart}-${answer.period.from}_${answer.period.to}.${extension}`;
