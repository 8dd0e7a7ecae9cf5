/**
 * Money: rand worked in whole cents so that sums never carry float errors, rounding half away from zero,
 * the en-US format of the report's totals, and amounts as typed.
 */
import { type CapturedAmount } from './types';

/**
 * Rounds half away from zero to a whole number. The value is first cut to 15 significant digits, so a
 * product such as 1.005 × 100 (= 100.49999999999999 in binary) rounds as the decimal it stands for.
 */
export function roundHalfAwayFromZero(value: number): number {
  const magnitude = Math.round(Number(Math.abs(value).toPrecision(15)));
  return value < 0 && magnitude !== 0 ? -magnitude : magnitude;
}

/** Rand to whole cents (half away from zero). */
export const toCents = (rand: number): number => roundHalfAwayFromZero(rand * 100);

/** Whole cents to rand (exact to 2 decimals as far as a double can say it). */
export const fromCents = (cents: number): number => cents / 100;

/** Rand rounded to 2 decimals (spec 02 §4.5 "Totals have 2 decimals"). */
export const roundMoney = (rand: number): number => fromCents(toCents(rand));

/**
 * Spec 02 §4.5: totals in the en-US format, 2 decimals, commas between thousands: 1234567.891 →
 * '1,234,567.89'. Formatted from whole cents, not with toFixed, so 1.005 gives '1.01'.
 */
export function formatMoney(rand: number): string {
  const cents = toCents(rand);
  const digits = String(Math.abs(cents)).padStart(3, '0');
  const whole = digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0 ? '-' : ''}${whole}.${digits.slice(-2)}`;
}

/**
 * An amount as typed: commas (thousands separators) and spaces stripped, blank → null, anything that is
 * not then a finite number → null. '1,234.5' → 1234.5. Numbers pass through (non-finite → null).
 */
export function parseAmount(value: CapturedAmount): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.replace(/[,\s]/g, '');
  if (text === '') return null;
  const amount = Number(text);
  return Number.isFinite(amount) ? amount : null;
}

/** Spec 02 §4.4: the extra field's value, blank → 0, commas stripped; null when it is not a number. */
export function parseExtraFieldValue(value: CapturedAmount): number | null {
  if (value == null || (typeof value === 'string' && value.trim() === '')) return 0;
  return parseAmount(value);
}
