import { RATES } from '../testing/fetchAnswers';
import { categoryOptions, classOptions, rateOption, saviRows, typeOptions, unitOption } from './rateOptions';

describe('the cascading rate dropdowns’ options (spec 02 §4.4, §4.5)', () => {
  const rows = saviRows([...RATES, { ...RATES[0]!, report: 'iris', category: 'other' }]);
  it('lists categories, their types and the classes with their tier suffixes', () => {
    expect(categoryOptions(rows)).toEqual(['buildings', 'outbuildings']);
    expect(typeOptions(rows, 'Buildings')).toEqual(['dwelling', 'garage']);
    expect(classOptions(rows, 'buildings', 'dwelling')).toEqual(['A-s', 'A-i', 'A-e', 'B-s', 'B-i', 'B-e']);
  });
  it('gives the rate of the tier and the row’s unit', () => {
    expect(rateOption(rows, { category: 'buildings', type: 'dwelling', class: 'A-i' })).toBe(9500);
    expect(rateOption(rows, { category: 'buildings', type: 'dwelling', class: 'C-s' })).toBeNull();
    expect(unitOption(rows, { category: 'outbuildings', type: 'carport', class: 'A-e' })).toBe('bay');
  });
});
