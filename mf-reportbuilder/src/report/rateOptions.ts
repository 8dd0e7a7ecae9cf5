import type { RateRow } from '@portal/contracts';
import { REPORT_TYPE } from '@portal/contracts';
import {
  changeRateLevel,
  classWithoutTier,
  isPlaceholder,
  parseAmount,
  PLEASE_SELECT_A_VALUE,
  PLEASE_SELECT_OR_TYPE,
  rateFor,
  type CapturedAmount,
  type RateLevel,
  type RateSelection,
  type RateTable,
} from '@portal/domain';

/**
 * The options of the cascading rate dropdowns (spec 02 §2.3, §4.4, §4.5) from the group's rate table:
 * categories, then the types of the category, then the classes of both with their tier suffix (-s, -i,
 * -e), then the rate of that class and tier. Only the savi report's rows (or rows naming no report).
 */
const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const unique = (values: string[]) =>
  values.filter((v, i) => v.trim() !== '' && values.findIndex((w) => same(w, v)) === i);

export const saviRows = (rates: readonly RateRow[]): RateRow[] =>
  rates.filter((r) => r.report.trim() === '' || same(r.report, REPORT_TYPE));

export const categoryOptions = (rows: readonly RateRow[]) => unique(rows.map((r) => r.category));

export const typeOptions = (rows: readonly RateRow[], category: string) =>
  unique(rows.filter((r) => same(r.category, category)).map((r) => r.type));

export const classOptions = (rows: readonly RateRow[], category: string, type: string) =>
  unique(
    rows
      .filter((r) => same(r.category, category) && same(r.type, type))
      .flatMap((r) => ['s', 'i', 'e'].map((suffix) => `${classWithoutTier(r.class)}-${suffix}`)),
  );

/** The rate the chosen class and tier give (the option the rate dropdown offers), or null. */
export const rateOption = (
  rows: readonly RateRow[],
  selection: { category: string; type: string; class: string },
): number | null => rateFor(rows as readonly RateTable[], selection);

/** The unit of the chosen row (its quantity: 'no' for per m²), or null when no row matches. */
export function unitOption(
  rows: readonly RateRow[],
  selection: { category: string; type: string; class: string },
): string | null {
  const bare = classWithoutTier(selection.class);
  const row = rows.find(
    (r) =>
      same(r.category, selection.category) &&
      same(r.type, selection.type) &&
      same(classWithoutTier(r.class), bare),
  );
  return row ? row.quantity : null;
}

/** What a building or an improvement has chosen of the rate levels. */
export type RatedItem = { category: string; type: string; class: string; rate: CapturedAmount };

/** The item's choice as the cascading dropdowns see it: a level not chosen is its placeholder. */
export const selectionOf = (item: RatedItem): RateSelection => ({
  category: item.category || PLEASE_SELECT_A_VALUE,
  type: item.type || PLEASE_SELECT_A_VALUE,
  class: item.class || PLEASE_SELECT_A_VALUE,
  rate: item.rate == null || item.rate === '' ? PLEASE_SELECT_OR_TYPE : String(item.rate),
});

/**
 * The item's change when one level changes (spec 02 §4.4: the levels below reset to their placeholder); a
 * chosen class also takes its row's unit.
 */
export function rateLevelChange(
  rows: readonly RateRow[],
  item: RatedItem,
  level: RateLevel,
  value: string,
): { category: string; type: string; class: string; rate: string | null; unit?: string } {
  const next = changeRateLevel(
    selectionOf(item),
    level,
    value || (level === 'rate' ? PLEASE_SELECT_OR_TYPE : PLEASE_SELECT_A_VALUE),
  );
  const plain = (v: string) => (isPlaceholder(v) ? '' : v);
  const chosen = { category: plain(next.category), type: plain(next.type), class: plain(next.class) };
  const unit = level === 'class' && chosen.class ? unitOption(rows, chosen) : null;
  return {
    ...chosen,
    rate: isPlaceholder(next.rate) ? null : next.rate,
    ...(unit !== null ? { unit } : {}),
  };
}

/** A rate as it is saved: blank is null, a typed amount a number when it is one. */
export const rateForSave = (rate: CapturedAmount): CapturedAmount =>
  rate == null || rate === '' ? null : (parseAmount(rate) ?? rate);

/** A number field's value: blank, negative or not a number is null. */
export const numberOrNull = (text: string): number | null => {
  if (text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : null;
};
