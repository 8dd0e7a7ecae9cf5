import { float4Of } from './copy';

describe('float4Of (a real sent in COPY binary)', () => {
  it('is the float PostgreSQL reads from the number as text, also half-way between two floats', () => {
    // What `SELECT '<text>'::real::float8` answers (float4in rounds the decimal text once, with strtof).
    expect(float4Of(0.63)).toBe(0.6299999952316284);
    expect(float4Of(1 / 3)).toBe(0.3333333432674408);
    // 1 + 2^-24 lies half-way between the floats 1 and 1 + 2^-23, and its text is a little above it:
    // Math.fround rounds the double to even (1), PostgreSQL the text up.
    expect(Math.fround(1 + 2 ** -24)).toBe(1);
    expect(float4Of(1 + 2 ** -24)).toBe(1.0000001192092896);
    expect(float4Of(-(1 + 2 ** -24))).toBe(-1.0000001192092896);
    // 1 + 3 × 2^-24 is half-way too, its text a little below it: down, where fround goes up.
    expect(float4Of(1 + 3 * 2 ** -24)).toBe(1.0000001192092896);
    expect(float4Of(4.5)).toBe(4.5);
  });
});
