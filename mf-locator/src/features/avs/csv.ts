import type { ValidationResult } from '@portal/contracts';
import { MAX_FILE_MEGABYTES, MAX_ROWS } from '../../config';
import { AVS_TEXT, CSV_TEXT } from '../../texts';

/**
 * CSV in and out for batch validation. Reading is csv-parse's (RFC 4180: quoted fields, doubled quotes,
 * line breaks inside quotes, a byte-order mark), loaded when a file is chosen so the screen does not carry
 * it; writing is the few lines below.
 */

/** A CSV file read for validation. */
export interface AddressTable {
  /** The input's column names: the header row's, or "address", "column 2"... when there is none. */
  columns: string[];
  /** The data rows as read (every row padded to the columns' count). */
  rows: string[][];
  /** Which column holds the addresses. */
  addressColumn: number;
  hasHeader: boolean;
}

export class CsvFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsvFileError';
  }
}

/** The column named 'address' (any case, trimmed) makes the first row a header. */
const ADDRESS_HEADER = 'address';

/**
 * The field separator of the file: comma, semicolon (spreadsheets in locales with a decimal comma) or tab,
 * whichever the first line has most of outside quotes; a comma when it has none (one column).
 */
export function detectDelimiter(text: string): ',' | ';' | '\t' {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char in counts) counts[char as keyof typeof counts] += 1;
  }
  if (counts['\t'] > 0 && counts['\t'] >= counts[','] && counts['\t'] >= counts[';']) return '\t';
  if (counts[';'] > counts[',']) return ';';
  return ',';
}

/** Reads CSV text into an address table, or throws a CsvFileError saying what is wrong with it. */
export async function readAddressCsv(text: string): Promise<AddressTable> {
  // A NUL never occurs in text: a spreadsheet (.xlsx), an image or another binary file was chosen.
  if (text.includes('\u0000')) throw new CsvFileError(CSV_TEXT.notCsv);
  const { parse } = await import('csv-parse/browser/esm/sync');
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      delimiter: detectDelimiter(text.replace(/^\uFEFF/, '')),
      relax_column_count: true,
      // A quote inside an unquoted field (Mr "Bob" Smith, a 5" pipe) is kept as text, as spreadsheets do.
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
    });
  } catch (error) {
    throw new CsvFileError(CSV_TEXT.unreadable(error instanceof Error ? error.message : String(error)));
  }
  if (!records.length) throw new CsvFileError(CSV_TEXT.empty);

  const headerAt = records[0].findIndex((cell) => cell.trim().toLowerCase() === ADDRESS_HEADER);
  const hasHeader = headerAt >= 0;
  const data = hasHeader ? records.slice(1) : records;
  if (!data.length) throw new CsvFileError(CSV_TEXT.empty);
  if (data.length > MAX_ROWS) throw new CsvFileError(CSV_TEXT.tooManyRows(MAX_ROWS));
  const width = Math.max(...records.map((record) => record.length));
  const columns = hasHeader
    ? Array.from({ length: width }, (_, i) => records[0][i]?.trim() || `column ${i + 1}`)
    : Array.from({ length: width }, (_, i) => (i === 0 ? ADDRESS_HEADER : `column ${i + 1}`));
  const addressColumn = hasHeader ? headerAt : 0;
  const rows = data.map((record) => Array.from({ length: width }, (_, i) => record[i] ?? ''));
  if (rows.every((row) => !row[addressColumn].trim())) throw new CsvFileError(CSV_TEXT.noAddresses);
  return { columns, rows, addressColumn, hasHeader };
}

/** Reads a chosen file: its size and content checked first. */
export async function readAddressFile(file: File): Promise<AddressTable> {
  if (file.size > MAX_FILE_MEGABYTES * 1024 * 1024)
    throw new CsvFileError(CSV_TEXT.tooBig(MAX_FILE_MEGABYTES));
  if (file.size === 0) throw new CsvFileError(CSV_TEXT.empty);
  return readAddressCsv(await readText(file));
}

/** A file's text (UTF-8), through FileReader, which every browser has. */
function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsText(file);
  });
}

/**
 * A cell as RFC 4180 writes it: quoted when it holds a separator, a quote or a line break. A text a
 * spreadsheet would run as a formula (=, +, @, or - before a non-digit) gets a leading apostrophe: the file
 * is opened in Excel, and its input columns come from whoever made the upload.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^(?:[=+@\t\r]|-(?!\d))/.test(text)) text = `'${text}`;
  return /[",\r\n;\t]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as CSV text, CRLF line ends, with a byte-order mark so Excel reads it as UTF-8. */
export function toCsv(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return `\uFEFF${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/** The columns the results add to the input's. */
export const RESULT_COLUMNS = [
  'standardised address',
  'suburb',
  'town',
  'postal code',
  'lat',
  'lng',
  'parcel',
  'confidence',
  'verdict',
] as const;

/** The download: the input's columns and rows, each with its result (blank where not validated yet). */
export function resultsCsv(table: AddressTable, results: readonly (ValidationResult | undefined)[]): string {
  const header = [...table.columns, ...RESULT_COLUMNS];
  const rows = table.rows.map((row, i) => {
    const result = results[i];
    if (!result) return [...row, ...RESULT_COLUMNS.map(() => '')];
    return [
      ...row,
      result.formatted_address ?? '',
      result.parts?.suburb ?? '',
      result.parts?.town ?? '',
      result.parts?.postalCode ?? '',
      result.location ? result.location.lat.toFixed(6) : '',
      result.location ? result.location.lng.toFixed(6) : '',
      result.parcel?.title ?? '',
      result.confidence.toFixed(3),
      result.error
        ? `${result.verdict} (${AVS_TEXT.rowError.toLowerCase()}: ${result.error})`
        : result.verdict,
    ];
  });
  return toCsv([header, ...rows]);
}

/** The download's file name: the upload's, with "-validated". */
export function resultsFileName(uploadName: string): string {
  const base = uploadName.replace(/\.(csv|txt)$/i, '') || 'addresses';
  return `${base}-validated.csv`;
}
