import { afrikaansCompound, normaliseForSearch } from './text';

describe('afrikaansCompound', () => {
  it('writes a name and an English type as the one-word Afrikaans name', () => {
    expect(afrikaansCompound('bos', 'avenue')).toBe('boslaan');
    expect(afrikaansCompound('kerk', 'street')).toBe('kerkstraat');
    expect(afrikaansCompound('voortrekker', 'road')).toBe('voortrekkerweg');
    expect(afrikaansCompound('park', 'drive')).toBe('parkrylaan');
    expect(afrikaansCompound('van riebeeck', 'crescent')).toBe('van riebeecksingel');
  });

  it('meets the stored form: the compound normalises back to the name and type', () => {
    for (const [name, type] of [
      ['bos', 'avenue'],
      ['kerk', 'street'],
      ['park', 'drive'],
      ['kerk', 'square'],
    ]) {
      expect(normaliseForSearch(afrikaansCompound(name, type)!)).toBe(`${name} ${type}`);
    }
  });

  it('has nothing for a type without an Afrikaans form or a name too short to carry one', () => {
    expect(afrikaansCompound('tshepo', 'boulevard')).toBeUndefined();
    expect(afrikaansCompound('church', 'close')).toBeUndefined();
    expect(afrikaansCompound('ab', 'street')).toBeUndefined();
  });
});
