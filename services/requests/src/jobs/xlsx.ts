import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { DataSource } from 'typeorm';
import type { RequestRow } from '@portal/contracts';
import type { Storage } from '@portal/server-kit';
import { NO_FILTERS, parseRequestFilters, requestFilterSql } from '../queue/filters';
import { STAFF_DEFAULT_SORT, requestRowsCursor } from '../queue/pager';
import type { XlsxParams } from './consoleJobs';

const RAND = '"R" #,##0.00';

/** The sheet's columns: the console grid's, in its order (spec 02 §3). */
const COLUMNS: {
  header: string;
  key: string;
  width: number;
  numFmt?: string;
  value: (row: RequestRow) => unknown;
}[] = [
  { header: 'GRiP Reference', key: 'grip', width: 18, value: (row) => row.gripReference },
  { header: 'Type', key: 'type', width: 8, value: (row) => row.type },
  { header: 'Sub type', key: 'subType', width: 24, value: (row) => row.subType },
  { header: 'Priority', key: 'priority', width: 9, value: (row) => row.priority },
  { header: 'Status', key: 'status', width: 16, value: (row) => row.status },
  {
    header: 'Created',
    key: 'created',
    width: 20,
    numFmt: 'yyyy-mm-dd hh:mm',
    value: (row) => new Date(row.created),
  },
  { header: 'User', key: 'user', width: 22, value: (row) => row.user },
  { header: 'E-mail', key: 'email', width: 26, value: (row) => row.email },
  { header: 'Client', key: 'client', width: 24, value: (row) => row.client },
  { header: 'Client reference', key: 'clientReference', width: 30, value: (row) => row.clientReference },
  { header: 'Address', key: 'address', width: 40, value: (row) => row.address },
  { header: 'Latitude', key: 'lat', width: 11, value: (row) => row.coordinates?.lat ?? null },
  { header: 'Longitude', key: 'lng', width: 11, value: (row) => row.coordinates?.lng ?? null },
  { header: 'First QS', key: 'firstQS', width: 22, value: (row) => row.firstQS },
  { header: 'Time in queue (h)', key: 'timeInQueue', width: 16, value: (row) => row.timeInQueue },
  { header: "Can't locate", key: 'cantlocate', width: 11, value: (row) => row.cantlocate },
  { header: 'Downloaded', key: 'downloaded', width: 11, value: (row) => row.downloaded },
  { header: 'Invoice', key: 'invoice', width: 16, value: (row) => row.invoice },
  { header: 'Disputed', key: 'disputed', width: 9, value: (row) => row.disputed },
  { header: 'RVE type', key: 'rveType', width: 14, value: (row) => row.rveType },
  { header: 'Buildings', key: 'numberOfBuildings', width: 10, value: (row) => row.numberOfBuildings },
  { header: 'Unit price', key: 'unitPrice', width: 14, numFmt: RAND, value: (row) => row.unitPrice },
  { header: 'Report fee', key: 'reportFee', width: 14, numFmt: RAND, value: (row) => row.reportFee },
  { header: 'RVE', key: 'rve', width: 16, numFmt: RAND, value: (row) => row.rve },
  {
    header: 'Preliminary RVE',
    key: 'preliminaryRve',
    width: 16,
    numFmt: RAND,
    value: (row) => row.preliminaryRve,
  },
  {
    header: 'Finalised',
    key: 'dateFinalised',
    width: 20,
    numFmt: 'yyyy-mm-dd hh:mm',
    value: (row) => (row.dateFinalised ? new Date(row.dateFinalised) : null),
  },
];
export const XLSX_HEADERS = COLUMNS.map((column) => column.header);

/**
 * Writes the requests of `params` (the selection, or every match of the filters, in the console's default
 * order) into an xlsx in the storage, streaming: rows come from a cursor in batches and each is committed
 * to the zip stream as it is written, so memory stays flat whatever the count. Answers the row count.
 */
export async function writeRequestsXlsx(
  ds: DataSource,
  storage: Storage,
  key: string,
  params: XlsxParams,
  onProgress: (done: number, total: number) => Promise<void>,
): Promise<number> {
  const filters = params.ids ? NO_FILTERS : parseRequestFilters(params.filters);
  const { where, params: sqlParams } = requestFilterSql(filters, { userId: null });
  const [{ total }] = (await ds.query(
    params.ids
      ? 'SELECT count(*)::int AS total FROM requests.requests r WHERE r.id = ANY($1::uuid[])'
      : `SELECT count(*)::int AS total FROM requests.requests r WHERE ${where}`,
    params.ids ? [params.ids] : sqlParams,
  )) as { total: number }[];

  const output = new PassThrough();
  const stored = storage.put(key, output, {
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Property portal request console';
  const sheet = workbook.addWorksheet('Requests', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = COLUMNS.map(({ header, key: columnKey, width, numFmt }) => ({
    header,
    key: columnKey,
    width,
    ...(numFmt ? { style: { numFmt } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();

  let done = 0;
  let reported = 0;
  for await (const batch of requestRowsCursor(ds, {
    filters,
    ownerId: null,
    sort: STAFF_DEFAULT_SORT,
    ids: params.ids ?? undefined,
    batch: 2000,
  })) {
    for (const row of batch) sheet.addRow(COLUMNS.map((column) => column.value(row))).commit();
    done += batch.length;
    if (done - reported >= 5000 || done === total) {
      reported = done;
      await onProgress(done, total);
    }
  }
  sheet.commit();
  await workbook.commit();
  await stored;
  return done;
}
