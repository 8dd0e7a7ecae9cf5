/** Issue 13: the sum-insured check. */
import { DEFAULT_SUM_INSURED_TOLERANCE_PERCENT, sumInsuredCheck } from './sumInsured';

describe('issue 13: the sum-insured check', () => {
  it('compares against the grand total with a 10 % tolerance by default', () => {
    expect(DEFAULT_SUM_INSURED_TOLERANCE_PERCENT).toBe(10);
    expect(sumInsuredCheck(800000, 1000000)).toEqual({ verdict: 'under-insured', differencePercent: -20 });
    expect(sumInsuredCheck(899999.99, 1000000)).toEqual({ verdict: 'under-insured', differencePercent: -10 });
    expect(sumInsuredCheck(900000, 1000000)).toEqual({ verdict: 'within', differencePercent: -10 });
    expect(sumInsuredCheck(1000000, 1000000)).toEqual({ verdict: 'within', differencePercent: 0 });
    expect(sumInsuredCheck(1100000, 1000000)).toEqual({ verdict: 'within', differencePercent: 10 });
    expect(sumInsuredCheck(1100000.01, 1000000)).toEqual({ verdict: 'over-insured', differencePercent: 10 });
    expect(sumInsuredCheck(1500000, 1000000)).toEqual({ verdict: 'over-insured', differencePercent: 50 });
    expect(sumInsuredCheck(0, 1000000)).toEqual({ verdict: 'under-insured', differencePercent: -100 });
  });

  it('takes another tolerance', () => {
    expect(sumInsuredCheck(950000, 1000000, 5)).toEqual({ verdict: 'within', differencePercent: -5 });
    expect(sumInsuredCheck(949999, 1000000, 5)!.verdict).toBe('under-insured');
    expect(sumInsuredCheck(1000001, 1000000, 0)!.verdict).toBe('over-insured');
    // report 1's grand total, 3 429 358.17, insured for 3 000 000: −429 358.17 / 3 429 358.17 = −0.125201 → −12.52 %
    expect(sumInsuredCheck(3000000, 3429358.17)).toEqual({
      verdict: 'under-insured',
      differencePercent: -12.52,
    });
  });

  it('answers null without a sum insured or a grand total', () => {
    expect(sumInsuredCheck(null, 1000000)).toBeNull();
    expect(sumInsuredCheck(undefined, 1000000)).toBeNull();
    expect(sumInsuredCheck(-1, 1000000)).toBeNull();
    expect(sumInsuredCheck(1000000, 0)).toBeNull();
    expect(sumInsuredCheck(Number.NaN, 1000000)).toBeNull();
  });
});
