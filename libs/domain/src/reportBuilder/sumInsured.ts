/** Beyond the spec (issue 13): the client's sum insured checked against the report's replacement value. */
import { nonNegative } from './internal';
import { roundHalfAwayFromZero, toCents } from './money';

/** Issue 13: how far the sum insured may be from the report's grand total (percent) and still be right. */
export const DEFAULT_SUM_INSURED_TOLERANCE_PERCENT = 10;

export type InsuranceVerdict = 'under-insured' | 'over-insured' | 'within';

/**
 * Issue 13: the client's sum insured against the report's replacement value (its grand total).
 * differencePercent = (sumInsured − grandTotal) / grandTotal × 100, rounded to 2 decimals (negative when
 * under-insured). Within the tolerance, its limits included, is 'within'. Null when there is no sum insured
 * (null, negative or not finite) or no replacement value to compare with (grand total 0 or less).
 */
export function sumInsuredCheck(
  sumInsured: number | null | undefined,
  grandTotal: number,
  tolerancePercent: number = DEFAULT_SUM_INSURED_TOLERANCE_PERCENT,
): { verdict: InsuranceVerdict; differencePercent: number } | null {
  if (sumInsured == null || !Number.isFinite(sumInsured) || sumInsured < 0) return null;
  if (!Number.isFinite(grandTotal) || grandTotal <= 0) return null;
  const tolerance = nonNegative(tolerancePercent);
  // Compared in cents so that e.g. 90 % of a total is exactly at the limit, not a float hair off it.
  const sumCents = toCents(sumInsured);
  const totalCents = toCents(grandTotal);
  const differenceCents = sumCents - totalCents;
  const limitCents = (totalCents * tolerance) / 100;
  const verdict: InsuranceVerdict =
    differenceCents < -limitCents
      ? 'under-insured'
      : differenceCents > limitCents
        ? 'over-insured'
        : 'within';
  const differencePercent = roundHalfAwayFromZero((differenceCents / totalCents) * 10000) / 100;
  return { verdict, differencePercent: differencePercent === 0 ? 0 : differencePercent };
}
