/** Money: rounding to cents, the en-US format and amounts as typed (the extra field's value). */
import fc from 'fast-check';
import {
  formatMoney,
  parseAmount,
  parseExtraFieldValue,
  roundHalfAwayFromZero,
  roundMoney,
  toCents,
} from './money';

describe('money: cents, rounding, the en-US format', () => {
  it('rounds money half away from zero without float errors', () => {
    expect(toCents(1.005)).toBe(101);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(-1.005)).toBe(-101);
    expect(roundHalfAwayFromZero(-0.4)).toBe(0);
    expect(Object.is(roundHalfAwayFromZero(-0.4), -0)).toBe(false);
    expect(roundMoney(2.675)).toBe(2.68);
  });

  it('formats en-US with 2 decimals', () => {
    expect(formatMoney(1234567.891)).toBe('1,234,567.89');
    expect(formatMoney(0)).toBe('0.00');
    expect(formatMoney(0.05)).toBe('0.05');
    expect(formatMoney(999.995)).toBe('1,000.00');
    expect(formatMoney(1.005)).toBe('1.01');
    expect(formatMoney(-1234.5)).toBe('-1,234.50');
    expect(formatMoney(100)).toBe('100.00');
    expect(formatMoney(1000)).toBe('1,000.00');
  });
});

describe('spec 02 §4.4: the extra field value', () => {
  it('reads the extra field value: blank is 0, commas stripped', () => {
    expect(parseExtraFieldValue('')).toBe(0);
    expect(parseExtraFieldValue('   ')).toBe(0);
    expect(parseExtraFieldValue(null)).toBe(0);
    expect(parseExtraFieldValue('1,234.5')).toBe(1234.5);
    expect(parseExtraFieldValue('1,234,567')).toBe(1234567);
    expect(parseExtraFieldValue(42)).toBe(42);
    expect(parseExtraFieldValue('abc')).toBeNull();
    expect(parseAmount(' 13 500 ')).toBe(13500);
    expect(parseAmount(Number.NaN)).toBeNull();
  });
});

describe('properties', () => {
  it('formatting round-trips through parsing', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (cents) => {
        const text = formatMoney(cents / 100);
        expect(text).toMatch(/^-?\d{1,3}(,\d{3})*\.\d{2}$/);
        expect(parseAmount(text)).toBe(cents / 100);
      }),
    );
  });
});
