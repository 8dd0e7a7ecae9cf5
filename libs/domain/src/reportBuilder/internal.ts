/** Small helpers the report builder's modules share; not exported from '@portal/domain'. */

/** Equal once trimmed, case-insensitively. */
export const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Empty or only spaces (null and undefined too). */
export const isBlank = (text: string | null | undefined) => (text ?? '').trim() === '';

/** A quantity that counts as 0 when it is missing, not finite or negative. */
export const nonNegative = (value: number | null | undefined): number =>
  value != null && Number.isFinite(value) && value > 0 ? value : 0;
