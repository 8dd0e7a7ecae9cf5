/** Spec 02 §4.5: rate tiers and the rate table, section categories, construction types. */
import {
  BOUNDARY_IMPROVEMENTS,
  CONSTRUCTION_TYPES,
  classWithoutTier,
  rateFor,
  rateTierOf,
  sectionCategory,
} from './rates';
import { type RateTable } from './types';

describe('spec 02 §4.5: rates, categories, construction types', () => {
  it('picks the rate tier by the class suffix', () => {
    expect(rateTierOf('A-s')).toBe('standard');
    expect(rateTierOf('A-i')).toBe('inbetween');
    expect(rateTierOf('A-e')).toBe('expensive');
    expect(rateTierOf('B-E')).toBe('expensive');
    expect(rateTierOf('A')).toBeNull();
    expect(rateTierOf('A-x')).toBeNull();
    expect(rateTierOf('As')).toBeNull();
    expect(classWithoutTier('A-s')).toBe('A');
  });

  it('finds a rate in the group table by category, type and class', () => {
    const rows: RateTable[] = [
      {
        category: 'buildings',
        type: 'dwelling',
        class: 'A',
        standard: 8500,
        inbetween: 10500,
        expensive: 14000,
      },
      { category: 'buildings', type: 'dwelling', class: 'B-e', standard: 1, inbetween: 2, expensive: 3 },
    ];
    const pick = (cls: string) => rateFor(rows, { category: 'Buildings', type: 'dwelling', class: cls });
    expect(pick('A-s')).toBe(8500);
    expect(pick('A-i')).toBe(10500);
    expect(pick('a-e')).toBe(14000);
    expect(pick('B-e')).toBe(3);
    expect(pick('C-s')).toBeNull();
    expect(pick('A')).toBeNull();
  });

  it('names a section category by its type', () => {
    expect(sectionCategory('residential')).toBe('Residential');
    expect(sectionCategory('main HOUSE')).toBe('Main house');
    expect(sectionCategory('Perimeter')).toBe(BOUNDARY_IMPROVEMENTS);
    expect(sectionCategory(' perimeter ')).toBe('Boundary Improvements');
    expect(sectionCategory('')).toBe('');
  });

  it('lists the ten construction types verbatim', () => {
    expect(CONSTRUCTION_TYPES).toEqual([
      'Brick and Plaster',
      'Brick and Steel Framework',
      'Facebrick',
      'Facebrick and Plaster',
      'Reinforced Concrete and Plaster',
      'Steel Frame',
      'Timber Frame',
      'Nutec',
      'Thatch, Brick & Plaster',
      'Thatch, Timber Frame',
    ]);
  });
});
