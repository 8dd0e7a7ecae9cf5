import { NEW_RATE_ROW, type RateRow } from '@portal/contracts';

/** The numeric fields of a rate row: the increase, and the three rate tiers (spec 02 §4.5). */
export const NUMBER_FIELDS = ['increase', 'standard', 'inbetween', 'expensive'] as const;
export type NumberField = (typeof NUMBER_FIELDS)[number];

/**
 * A rate row as the grid edits it: an `id` of its own, and a number field holds the text typed when it
 * is not a number, so the grid can show what is wrong instead of losing it.
 */
export type EditableRateRow = Omit<RateRow, NumberField> & { id: number } & Record<
    NumberField,
    number | string
  >;

/** The spec's twelve columns and their headers (spec 03 "Rates editor"), in order. */
export const RATE_COLUMNS = [
  { field: 'report', headerName: 'Primary category (report)' },
  { field: 'category', headerName: 'Category' },
  { field: 'type', headerName: 'Type' },
  { field: 'class', headerName: 'Class' },
  { field: 'quantity', headerName: 'Units (quantity)' },
  { field: 'increase', headerName: '% annual increase' },
  { field: 'standard', headerName: 'Standard rate' },
  { field: 'inbetween', headerName: 'In-between rate' },
  { field: 'expensive', headerName: 'Expensive' },
  { field: 'slope', headerName: 'Slope(%)' },
  { field: 'fee', headerName: 'Prof. fee (Y/N)' },
  { field: 'vat', headerName: 'VAT (Y/N)' },
] as const satisfies readonly { field: keyof RateRow; headerName: string }[];

const headerOf = (field: keyof RateRow) => RATE_COLUMNS.find((column) => column.field === field)!.headerName;

/** Spec 03 §5: a new row has slope, fee and vat true, increase and rates 0, and quantity 'no'. */
export const newRateRow = (id: number): EditableRateRow => ({ ...NEW_RATE_ROW, id });

export const toEditableRows = (rates: readonly RateRow[], firstId = 0): EditableRateRow[] =>
  rates.map((rate, index) => ({ ...rate, id: firstId + index }));

/**
 * Typed text to a number (spec 03 §5: the increase is converted to a number after editing). Spaces
 * (thousands) are ignored and a decimal comma is read as a point; text that is not a number stays text.
 */
export function parseRateNumber(input: unknown): number | string {
  if (typeof input === 'number') return input;
  const text = String(input ?? '').trim();
  const normalised = text.replace(/\s/g, '').replace(',', '.');
  if (normalised === '' || !/^[-+]?(\d+\.?\d*|\.\d+)$/.test(normalised)) return text;
  return Number(normalised);
}

/** What is wrong with one field of a row, or null. */
export function rateFieldProblem(row: EditableRateRow, field: NumberField): string | null {
  const value = row[field];
  if (typeof value !== 'number' || !Number.isFinite(value)) return `${headerOf(field)} must be a number.`;
  if (field !== 'increase' && value < 0) return `${headerOf(field)} must be 0 or more.`;
  return null;
}

export interface RateProblem {
  id: number;
  /** 1-based, as the user counts rows. */
  rowNumber: number;
  field: NumberField;
  message: string;
}

/** Every problem in the table; the table can be saved only without any. */
export function rateProblems(rows: readonly EditableRateRow[]): RateProblem[] {
  return rows.flatMap((row, index) =>
    NUMBER_FIELDS.flatMap((field) => {
      const message = rateFieldProblem(row, field);
      return message ? [{ id: row.id, rowNumber: index + 1, field, message }] : [];
    }),
  );
}

/** The rows as POST rates takes them; call only when rateProblems() found none. */
export function toRateRows(rows: readonly EditableRateRow[]): RateRow[] {
  return rows.map(({ id: _id, increase, standard, inbetween, expensive, ...rest }) => ({
    ...rest,
    report: rest.report.trim(),
    category: rest.category.trim(),
    type: rest.type.trim(),
    class: rest.class.trim(),
    quantity: rest.quantity.trim(),
    increase: Number(increase),
    standard: Number(standard),
    inbetween: Number(inbetween),
    expensive: Number(expensive),
  }));
}
