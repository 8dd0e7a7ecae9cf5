import { NEW_RATE_ROW } from '@portal/contracts';
import {
  newRateRow,
  parseRateNumber,
  RATE_COLUMNS,
  rateProblems,
  toEditableRows,
  toRateRows,
  type EditableRateRow,
} from './rateRows';

const row = (overrides: Partial<EditableRateRow> = {}): EditableRateRow => ({
  ...newRateRow(1),
  report: 'Main building',
  category: 'Residential',
  type: 'Dwelling',
  class: 'Standard',
  quantity: 'm2',
  standard: 9800,
  inbetween: 12500,
  expensive: 17400,
  ...overrides,
});

describe('rate rows', () => {
  it('has the spec’s twelve columns with their headers, in order', () => {
    expect(RATE_COLUMNS.map((column) => column.headerName)).toEqual([
      'Primary category (report)',
      'Category',
      'Type',
      'Class',
      'Units (quantity)',
      '% annual increase',
      'Standard rate',
      'In-between rate',
      'Expensive',
      'Slope(%)',
      'Prof. fee (Y/N)',
      'VAT (Y/N)',
    ]);
  });

  it('starts a new row with slope, fee and vat on, increase and rates 0, quantity "no" (spec 03 §5)', () => {
    expect(newRateRow(7)).toEqual({ ...NEW_RATE_ROW, id: 7 });
    expect(newRateRow(7)).toMatchObject({
      slope: true,
      fee: true,
      vat: true,
      increase: 0,
      standard: 0,
      inbetween: 0,
      expensive: 0,
      quantity: 'no',
    });
  });

  it('converts typed numbers, with spaces or a decimal comma; anything else stays text', () => {
    expect(parseRateNumber('5')).toBe(5);
    expect(parseRateNumber(' 12 500,50 ')).toBe(12500.5);
    expect(parseRateNumber('-2.5')).toBe(-2.5);
    expect(parseRateNumber('.5')).toBe(0.5);
    expect(parseRateNumber('ten')).toBe('ten');
    expect(parseRateNumber('1e3')).toBe('1e3');
    expect(parseRateNumber('')).toBe('');
  });

  it('wants every rate a number of 0 or more; the increase may be negative', () => {
    expect(rateProblems([row({ increase: -3 })])).toEqual([]);
    expect(rateProblems([row(), row({ id: 2, standard: -1, inbetween: 'abc', increase: '' })])).toEqual([
      { id: 2, rowNumber: 2, field: 'increase', message: '% annual increase must be a number.' },
      { id: 2, rowNumber: 2, field: 'standard', message: 'Standard rate must be 0 or more.' },
      { id: 2, rowNumber: 2, field: 'inbetween', message: 'In-between rate must be a number.' },
    ]);
  });

  it('gives the rows back without their grid ids, text trimmed, numbers as numbers', () => {
    const [saved] = toRateRows([row({ report: ' Main building ', increase: 6 })]);
    expect(saved).toEqual({
      report: 'Main building',
      category: 'Residential',
      type: 'Dwelling',
      class: 'Standard',
      quantity: 'm2',
      increase: 6,
      standard: 9800,
      inbetween: 12500,
      expensive: 17400,
      slope: true,
      fee: true,
      vat: true,
    });
    expect(toEditableRows([saved], 10)[0].id).toBe(10);
  });
});
