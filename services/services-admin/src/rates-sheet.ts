import ExcelJS from 'exceljs';
import type { RateRow } from '@portal/contracts';
import { badRequest } from '@portal/server-kit';
import { invalidRates, MAX_RATE_ROWS, parseRateRows, RATE_COLUMNS, type RateColumn } from './rates';

/**
 * Rate tables as spreadsheets (xlsx), the form quantity surveyors keep them in: one sheet, a header row
 * with the editor's column names, one row per rate, Y/N for the flags.
 */

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/** What the workbook's parts may add up to once unpacked; a rate table is a few hundred kilobytes. */
const MAX_UNPACKED_BYTES = 50 * 1024 * 1024;

export const SHEET_TEXT = {
  tooLarge: 'The file is larger than 5 MB.',
  notXlsx: 'The file is not an Excel workbook (.xlsx).',
  unreadable: 'The workbook could not be read. Save it as an Excel workbook (.xlsx) and try again.',
  tooBig: 'The workbook is too large once unpacked.',
  noSheet: 'The workbook has no sheet.',
  missingColumns: (headers: string[]) =>
    `The sheet has no column ${headers.map((h) => `'${h}'`).join(', ')}. The first row must hold the column names of the rates editor.`,
  tooManyRows: `The sheet has more than ${MAX_RATE_ROWS} rates.`,
} as const;

const WIDTHS: Record<RateColumn['key'], number> = {
  report: 26,
  category: 16,
  type: 20,
  class: 28,
  quantity: 16,
  increase: 18,
  standard: 15,
  inbetween: 16,
  expensive: 13,
  slope: 10,
  fee: 15,
  vat: 11,
};

const NUMBER_FORMATS: Partial<Record<RateColumn['key'], string>> = {
  increase: '0.0#',
  standard: '#,##0.00',
  inbetween: '#,##0.00',
  expensive: '#,##0.00',
};

export async function ratesToWorkbook(rates: readonly RateRow[], title: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Property Portal';
  workbook.title = title;
  const sheet = workbook.addWorksheet('Rates', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = RATE_COLUMNS.map(({ key, header }) => ({
    key,
    header,
    width: WIDTHS[key],
    style: NUMBER_FORMATS[key] ? { numFmt: NUMBER_FORMATS[key] } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  for (const rate of rates) {
    sheet.addRow({ ...rate, slope: yesNo(rate.slope), fee: yesNo(rate.fee), vat: yesNo(rate.vat) });
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: RATE_COLUMNS.length } };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const yesNo = (flag: boolean) => (flag ? 'Y' : 'N');

/**
 * Refuses what is not a zip archive, or one whose parts unpack to more than the limit (a "zip bomb"),
 * from the archive's central directory, before the workbook is unpacked. The directory can lie about
 * sizes; it still stops the common bombs, and the upload limit bounds the rest.
 */
function assertWorkbookArchive(file: Buffer): void {
  // Every xlsx is a zip archive: it starts with a local file header, PK\x03\x04.
  if (file.length < 22 || file.readUInt32LE(0) !== 0x04034b50) throw badRequest(SHEET_TEXT.notXlsx);
  let end = -1;
  for (let at = file.length - 22; at >= Math.max(0, file.length - 22 - 0xffff); at--) {
    if (file.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw badRequest(SHEET_TEXT.unreadable);
  const entries = file.readUInt16LE(end + 10);
  let at = file.readUInt32LE(end + 16);
  let unpacked = 0;
  for (let entry = 0; entry < entries; entry++) {
    if (at + 46 > file.length || file.readUInt32LE(at) !== 0x02014b50)
      throw badRequest(SHEET_TEXT.unreadable);
    const size = file.readUInt32LE(at + 24);
    // 0xffffffff: a ZIP64 entry, far beyond any rate table.
    if (size === 0xffffffff) throw badRequest(SHEET_TEXT.tooBig);
    unpacked += size;
    at += 46 + file.readUInt16LE(at + 28) + file.readUInt16LE(at + 30) + file.readUInt16LE(at + 32);
  }
  if (unpacked > MAX_UNPACKED_BYTES) throw badRequest(SHEET_TEXT.tooBig);
}

/** A cell's value as entered: formulas give their result, rich text and links their text. */
function cellValue(cell: ExcelJS.Cell): unknown {
  const value = cell.value;
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value.toISOString();
  if ('result' in value) return value.result;
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('text' in value) return value.text;
  if ('error' in value) return value.error;
  return String(value);
}

const isEmptyCell = (value: unknown) => value === null || value === undefined || String(value).trim() === '';

const headerName = (text: unknown) =>
  String(text ?? '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();

/**
 * Reads the rate rows of a workbook's first sheet. Columns are found by their header (the editor's
 * names, any case; the field names work too) in any order; empty rows are skipped. Problems are a 400
 * naming the sheet row and column; nothing is saved either way (the editor shows the rows to save).
 */
export async function ratesFromWorkbook(file: Buffer): Promise<RateRow[]> {
  assertWorkbookArchive(file);
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs declares its own Buffer type (an ArrayBuffer); it reads Node's Buffer.
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
  } catch {
    throw badRequest(SHEET_TEXT.unreadable);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw badRequest(SHEET_TEXT.noSheet);

  const columnOf = new Map<RateColumn['key'], number>();
  sheet.getRow(1).eachCell((cell, column) => {
    const name = headerName(cellValue(cell));
    const match = RATE_COLUMNS.find(({ key, header }) => headerName(header) === name || key === name);
    if (match && !columnOf.has(match.key)) columnOf.set(match.key, column);
  });
  const missing = RATE_COLUMNS.filter(({ key }) => !columnOf.has(key)).map(({ header }) => header);
  if (missing.length) throw badRequest(SHEET_TEXT.missingColumns(missing));

  const inputs: Record<string, unknown>[] = [];
  const sheetRows: number[] = [];
  // Only the rows the sheet holds, so a stray cell a million rows down costs nothing.
  sheet.eachRow((row, number) => {
    if (number === 1) return;
    const input = Object.fromEntries(
      [...columnOf].map(([key, column]) => [key, cellValue(row.getCell(column))]),
    );
    if (Object.values(input).every(isEmptyCell)) return;
    if (inputs.length === MAX_RATE_ROWS) throw badRequest(SHEET_TEXT.tooManyRows);
    inputs.push(input);
    sheetRows.push(number);
  });
  const { rows, problems } = parseRateRows(inputs, (index) => `Row ${sheetRows[index]}`);
  if (problems.length) throw invalidRates(problems);
  return rows;
}
