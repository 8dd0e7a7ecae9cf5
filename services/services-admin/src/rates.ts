import type { EntityManager } from 'typeorm';
import { NEW_RATE_ROW, type RateRow } from '@portal/contracts';
import { RateEntity } from '@portal/db';
import { badRequest } from '@portal/server-kit';

/**
 * The twelve columns of a rate table (spec 03 "Rates editor"), in the editor's order, with its headers.
 * The headers name the columns in messages and head the spreadsheet export.
 */
export const RATE_COLUMNS = [
  { key: 'report', header: 'Primary category (report)', kind: 'text', maxLength: 100 },
  { key: 'category', header: 'Category', kind: 'text', maxLength: 100 },
  { key: 'type', header: 'Type', kind: 'text', maxLength: 100 },
  { key: 'class', header: 'Class', kind: 'text', maxLength: 100 },
  { key: 'quantity', header: 'Units (quantity)', kind: 'text', maxLength: 30 },
  { key: 'increase', header: '% annual increase', kind: 'number' },
  { key: 'standard', header: 'Standard rate', kind: 'amount' },
  { key: 'inbetween', header: 'In-between rate', kind: 'amount' },
  { key: 'expensive', header: 'Expensive', kind: 'amount' },
  { key: 'slope', header: 'Slope(%)', kind: 'flag' },
  { key: 'fee', header: 'Prof. fee (Y/N)', kind: 'flag' },
  { key: 'vat', header: 'VAT (Y/N)', kind: 'flag' },
] as const satisfies readonly {
  key: keyof RateRow;
  header: string;
  kind: 'text' | 'number' | 'amount' | 'flag';
  maxLength?: number;
}[];

export type RateColumn = (typeof RATE_COLUMNS)[number];

/** Rows in one rate table at most (the contract's SaveRatesBody says the same). */
export const MAX_RATE_ROWS = 5000;

const RATE_TEXT = {
  notNumber: (row: string, header: string) => `${row}: ${header} must be a number.`,
  notAmount: (row: string, header: string) => `${row}: ${header} must be a non-negative number.`,
  notFlag: (row: string, header: string) => `${row}: ${header} must be Y or N.`,
  notText: (row: string, header: string) => `${row}: ${header} must be text.`,
  tooLong: (row: string, header: string, max: number) =>
    `${row}: ${header} is longer than ${max} characters.`,
  summary: (problems: string[]) =>
    problems.length === 1 ? problems[0] : `${problems.length} problems in the rates, first: ${problems[0]}`,
} as const;

/** How many problems an answer lists at most (the message counts them all and names the first). */
const LISTED_PROBLEMS = 200;

/** The 400 for rates that do not pass: nothing is saved. */
export const invalidRates = (problems: string[]) =>
  badRequest(RATE_TEXT.summary(problems), problems.slice(0, LISTED_PROBLEMS));

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * A number as people type it in South Africa: '13 500', '13 500,50', '6,5' or '6.5' (spaces group
 * thousands; a lone comma is the decimal mark).
 */
function parseAmount(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return NaN;
  let text = value.replace(/[\s\u00a0\u202f]/g, '');
  if (/^[-+]?\d*,\d+$/.test(text)) text = text.replace(',', '.');
  return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text) ? Number(text) : NaN;
}

function parseFlag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().toLowerCase();
  if (['y', 'yes', 'true'].includes(text)) return true;
  if (['n', 'no', 'false'].includes(text)) return false;
  return undefined;
}

/**
 * Checks rate rows as the editor or a spreadsheet gives them, each value in any reasonable form, and
 * returns them as RateRows. A blank cell takes the new-row default (spec 03 §5: quantity 'no', increase
 * and rates 0, flags true); the increase becomes a number and the rates must be non-negative numbers.
 * `rowLabel` names a row in messages ('Row 3'). Returns every problem rather than the first.
 */
export function parseRateRows(
  inputs: readonly Record<string, unknown>[],
  rowLabel: (index: number) => string,
): { rows: RateRow[]; problems: string[] } {
  const problems: string[] = [];
  const rows = inputs.map((input, index) => {
    const row: RateRow = { ...NEW_RATE_ROW };
    const label = rowLabel(index);
    for (const column of RATE_COLUMNS) {
      const value = input[column.key];
      if (isBlank(value)) continue;
      switch (column.kind) {
        case 'text': {
          if (typeof value !== 'string' && typeof value !== 'number') {
            problems.push(RATE_TEXT.notText(label, column.header));
            break;
          }
          const text = String(value).trim();
          if (text.length > column.maxLength)
            problems.push(RATE_TEXT.tooLong(label, column.header, column.maxLength));
          else row[column.key] = text;
          break;
        }
        case 'number':
        case 'amount': {
          const amount = parseAmount(value);
          const valid = Number.isFinite(amount) && (column.kind === 'number' || amount >= 0);
          if (!valid) {
            problems.push(
              column.kind === 'number'
                ? RATE_TEXT.notNumber(label, column.header)
                : RATE_TEXT.notAmount(label, column.header),
            );
          } else row[column.key] = amount;
          break;
        }
        case 'flag': {
          const flag = parseFlag(value);
          if (flag === undefined) problems.push(RATE_TEXT.notFlag(label, column.header));
          else row[column.key] = flag;
          break;
        }
      }
    }
    return row;
  });
  return { rows, problems };
}

const toRateRow = (entity: RateEntity): RateRow => ({
  report: entity.report,
  category: entity.category,
  type: entity.type,
  class: entity.class,
  quantity: entity.quantity,
  increase: entity.increase,
  standard: entity.standard,
  inbetween: entity.inbetween,
  expensive: entity.expensive,
  slope: entity.slope,
  fee: entity.fee,
  vat: entity.vat,
});

/** A group's rate table in its order. */
export async function readRates(manager: EntityManager, groupId: string): Promise<RateRow[]> {
  const rows = await manager.find(RateEntity, { where: { groupId }, order: { position: 'ASC' } });
  return rows.map(toRateRow);
}

/** Rows per INSERT: 12 values each, well inside PostgreSQL's 65 535 parameters per statement. */
const INSERT_BATCH = 1000;

/** Replaces a group's rate table (call inside a transaction that holds the group's row lock). */
export async function replaceRates(manager: EntityManager, groupId: string, rates: readonly RateRow[]) {
  await manager.delete(RateEntity, { groupId });
  for (let start = 0; start < rates.length; start += INSERT_BATCH) {
    await manager.insert(
      RateEntity,
      rates.slice(start, start + INSERT_BATCH).map((rate, i) => ({ ...rate, groupId, position: start + i })),
    );
  }
}
