import type { RateRow } from '@portal/contracts';
import { REPORT_TYPE } from '@portal/contracts';
import { classWithoutTier, rateFor, type RateTable } from '@portal/domain';

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
