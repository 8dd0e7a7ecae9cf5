import {
  csvCell,
  CsvFileError,
  detectDelimiter,
  readAddressCsv,
  readAddressFile,
  RESULT_COLUMNS,
  resultsCsv,
  resultsFileName,
  toCsv,
} from './csv';
import { MAX_ROWS } from '../../config';
import { notFound, validChurchStreet } from '../../testing/places';
import { CSV_TEXT } from '../../texts';

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a CsvFileError');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(CsvFileError);
      return (error as Error).message;
    },
  );

describe('reading an address file', () => {
  it('takes the column named address from a header row, quoted fields with commas, quotes and line breaks', async () => {
    const text =
      '\uFEFFRef,Address,Owner\r\n' +
      'A1,"12 Church Street, Stellenbosch",Mr "Bob" Smith\r\n' +
      'A2,"5 Long Road,\nPaarl",""\r\n' +
      '\r\n' +
      'A3,7 Dorp Street\r\n';
    const table = await readAddressCsv(text);
    expect(table).toEqual({
      columns: ['Ref', 'Address', 'Owner'],
      rows: [
        ['A1', '12 Church Street, Stellenbosch', 'Mr "Bob" Smith'],
        ['A2', '5 Long Road,\nPaarl', ''],
        ['A3', '7 Dorp Street', ''],
      ],
      addressColumn: 1,
      hasHeader: true,
    });
  });

  it('takes the first column when no column is named address, every row being data', async () => {
    const table = await readAddressCsv('"12 Church Street, Stellenbosch",x\n7 Dorp Street\n');
    expect(table.hasHeader).toBe(false);
    expect(table.addressColumn).toBe(0);
    expect(table.columns).toEqual(['address', 'column 2']);
    expect(table.rows).toEqual([
      ['12 Church Street, Stellenbosch', 'x'],
      ['7 Dorp Street', ''],
    ]);
  });

  it('reads semicolon and tab separated files (spreadsheets in other locales)', async () => {
    expect(detectDelimiter('ref;address\n1;"a, b"')).toBe(';');
    expect(detectDelimiter('ref\taddress, with comma\n')).toBe('\t');
    expect(detectDelimiter('"a; b", c\n')).toBe(',');
    const table = await readAddressCsv('id;ADDRESS\n1;12 Church Street, Stellenbosch\n');
    expect(table.rows).toEqual([['1', '12 Church Street, Stellenbosch']]);
    expect(table.addressColumn).toBe(1);
  });

  it('refuses empty, binary, header-only, address-less, malformed and oversized files with a clear message', async () => {
    expect(await rejection(readAddressCsv(''))).toBe(CSV_TEXT.empty);
    expect(await rejection(readAddressCsv('\n\n \n'))).toBe(CSV_TEXT.empty);
    expect(await rejection(readAddressCsv('PK\u0003\u0004\u0000\u0000binary'))).toBe(CSV_TEXT.notCsv);
    expect(await rejection(readAddressCsv('ref,address\n'))).toBe(CSV_TEXT.empty);
    expect(await rejection(readAddressCsv('ref,address\n1,\n2, \n'))).toBe(CSV_TEXT.noAddresses);
    expect(await rejection(readAddressCsv('address\n"12 Church Street\n'))).toMatch(
      /^The file could not be read as CSV: .*quote/i,
    );
    const tooMany = `address\n${'1 A Street\n'.repeat(MAX_ROWS + 1)}`;
    expect(await rejection(readAddressCsv(tooMany))).toBe(CSV_TEXT.tooManyRows(MAX_ROWS));
    const huge = new File(['x'.repeat(5 * 1024 * 1024 + 1)], 'huge.csv');
    expect(await rejection(readAddressFile(huge))).toBe(CSV_TEXT.tooBig(5));
    expect(await rejection(readAddressFile(new File([], 'none.csv')))).toBe(CSV_TEXT.empty);
  });

  it('reads a chosen file', async () => {
    const file = new File(['address\n12 Church Street\n'], 'list.csv', { type: 'text/csv' });
    expect((await readAddressFile(file)).rows).toEqual([['12 Church Street']]);
  });
});

describe('writing the results', () => {
  it('quotes what needs quoting and defuses spreadsheet formulas, not negative numbers', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('-33.93')).toBe('-33.93');
    expect(csvCell('-cmd')).toBe("'-cmd");
    expect(csvCell(null)).toBe('');
    expect(
      toCsv([
        ['a', 'b'],
        ['c', 'd, e'],
      ]),
    ).toBe('\uFEFFa,b\r\nc,"d, e"\r\n');
  });

  it('writes the input columns and the results per row, blank where a row is not done yet', async () => {
    const table = await readAddressCsv('Ref,Address\nA1,12 church st stellenbosch\nA2,nowhere\nA3,later\n');
    const valid = validChurchStreet({
      confidence: 0.973,
      location: { lat: -33.9366123456, lng: 18.8612987654 },
      parcel: { id: '41', number: '1234', portion: 2, title: 'Erf 1234/2' },
    });
    const lines = resultsCsv(table, [valid, notFound('nowhere'), undefined])
      .replace(/^\uFEFF/, '')
      .split('\r\n');
    expect(lines).toEqual([
      ['Ref', 'Address', ...RESULT_COLUMNS].join(','),
      'A1,12 church st stellenbosch,"12 Church Street, Stellenbosch Central, Stellenbosch, 7600",Stellenbosch Central,Stellenbosch,7600,-33.936612,18.861299,Erf 1234/2,0.973,valid',
      'A2,nowhere,,,,,,,,0.000,not found',
      'A3,later,,,,,,,,,',
      '',
    ]);
    expect(resultsFileName('Clients May.csv')).toBe('Clients May-validated.csv');
    expect(resultsFileName('.csv')).toBe('addresses-validated.csv');
  });
});
