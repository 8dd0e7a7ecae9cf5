import { pgErrorCode, PG_ERROR } from './errors';

describe('pgErrorCode', () => {
  it('reads the code of a failed statement, and nothing of anything else', () => {
    expect(pgErrorCode(Object.assign(new Error('duplicate key'), { code: PG_ERROR.uniqueViolation }))).toBe(
      '23505',
    );
    expect(pgErrorCode(new Error('plain'))).toBeUndefined();
    expect(pgErrorCode(null)).toBeUndefined();
  });
});
