import { containsPattern, escapeLike, SqlParameters } from './parameters';

describe('SqlParameters', () => {
  it('numbers the values it binds from $1, after the values it starts with', () => {
    const params = new SqlParameters();
    expect([params.bind('a'), params.bind(2)]).toEqual(['$1', '$2']);
    expect(params.values).toEqual(['a', 2]);
    const more = new SqlParameters(params.values);
    expect(more.bind(null)).toBe('$3');
    expect(more.values).toEqual(['a', 2, null]);
    // The values it started with are copied: binding more leaves the first list as it was.
    expect(params.values).toEqual(['a', 2]);
  });

  it('writes placeholders as it is told (elements of one array parameter, numbers after a first one)', () => {
    const elements = new SqlParameters([], (n) => `($1)[${n}]`);
    expect([elements.bind(true), elements.bind(false)]).toEqual(['($1)[1]', '($1)[2]']);
    const fromFour = new SqlParameters([], (n) => `$${3 + n}`);
    expect(fromFour.bind('x')).toBe('$4');
    expect(fromFour.values).toEqual(['x']);
  });
});

describe('LIKE patterns', () => {
  it('escapes %, _ and the backslash, so text matches itself', () => {
    expect(escapeLike('50%_off\\now')).toBe('50\\%\\_off\\\\now');
    expect(escapeLike('plain text')).toBe('plain text');
  });

  it('finds text anywhere', () => {
    expect(containsPattern('a_b')).toBe('%a\\_b%');
    expect(containsPattern('')).toBe('%%');
  });
});
