import type { SumInsuredCheck } from '@portal/contracts';
import { sumInsuredCheck } from '@portal/domain';

/** The reference key that holds the client's sum insured (spec 03 §3 keys: 'Sum Insured' → SUM_INSURED). */
const SUM_INSURED_KEY = /SUM_INSURED/;

/**
 * The client's sum insured from the request's reference (issue 13 "Beyond the spec"): the first key
 * matching /SUM_INSURED/ (in key order) whose value reads as an amount — 'R', commas and spaces stripped
 * ('R 1 250,000' → 1250000). Null when there is none.
 */
export function sumInsuredOf(reference: Record<string, unknown> | null | undefined): number | null {
  for (const key of Object.keys(reference ?? {}).sort()) {
    if (!SUM_INSURED_KEY.test(key)) continue;
    const raw = reference![key];
    const text =
      typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.replace(/[\sR,]/gi, '') : '';
    if (text === '' || !/^[+-]?(\d+\.?\d*|\.\d+)$/.test(text)) continue;
    const value = Number(text);
    if (Number.isFinite(value)) return value;
  }
  return null;
}

/** GET totals' `sumInsured`: the sum insured against the grand total, or null (none, or no total). */
export function sumInsuredAnswer(
  reference: Record<string, unknown> | null | undefined,
  grandTotal: number,
  tolerancePercent: number,
): SumInsuredCheck | null {
  const value = sumInsuredOf(reference);
  const check = sumInsuredCheck(value, grandTotal, tolerancePercent);
  return value === null || check === null ? null : { value, ...check, tolerancePercent };
}
