import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { ADMIN_API, type RateRow } from '@portal/contracts';
import {
  ADMIN,
  PLAIN,
  RATES_EDITOR,
  asAdmin,
  call,
  groupByCode,
  latestAudit,
  userByEmail,
  useServicesAdminApp,
} from '../testing/harness';

/** A group's rate table: read, saved, exported and imported. */

useServicesAdminApp();

describe('rates', () => {
  const row = (values: Partial<RateRow>): Partial<RateRow> => ({
    report: 'savi',
    category: 'Buildings',
    ...values,
  });
  let kmiId: string;

  beforeAll(async () => {
    kmiId = (await groupByCode('KMI')).id;
  });

  it('reads a group’s table in order', async () => {
    const res = await call(RATES_EDITOR, 'GET', ADMIN_API.rates(kmiId));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, groupID: kmiId });
    expect(body.rates[0]).toEqual({
      report: 'savi',
      category: 'Buildings',
      type: 'Dwelling',
      class: 'Single storey',
      quantity: 'm²',
      increase: 6.5,
      standard: 9500,
      inbetween: 13500,
      expensive: 19000,
      slope: true,
      fee: true,
      vat: true,
    });
    expect((await asAdmin('GET', ADMIN_API.rates(randomUUID()))).statusCode).toBe(404);
  });

  it('lets the report builder’s operators and QC read any group’s table, but not change it', async () => {
    const other = (await asAdmin('GET', ADMIN_API.rates(kmiId))).json().rates;
    for (const email of ['operator@portal.test', 'qc@portal.test']) {
      const read = await call(email, 'GET', ADMIN_API.rates(kmiId));
      expect(read.statusCode).toBe(200);
      expect(read.json().rates).toEqual(other);
      const save = await call(email, 'POST', ADMIN_API.saveRates, { groupID: kmiId, rates: [] });
      expect(save.statusCode).toBe(403);
    }
    expect((await call(PLAIN, 'GET', ADMIN_API.rates(kmiId))).statusCode).toBe(403);
  });

  it('replaces the table, converting amounts and filling blanks with the new-row defaults', async () => {
    const before = (await asAdmin('GET', ADMIN_API.rates(kmiId))).json().rates;
    const res = await call(RATES_EDITOR, 'POST', ADMIN_API.saveRates, {
      groupID: kmiId,
      rates: [
        row({
          type: 'Dwelling',
          class: 'Single storey',
          quantity: 'm²',
          increase: '6,5' as never,
          standard: '9 800' as never,
        }),
        { type: 'Carport' },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().rates).toEqual([
      {
        ...row({ type: 'Dwelling', class: 'Single storey', quantity: 'm²' }),
        type: 'Dwelling',
        increase: 6.5,
        standard: 9800,
        inbetween: 0,
        expensive: 0,
        slope: true,
        fee: true,
        vat: true,
      },
      {
        report: '',
        category: '',
        type: 'Carport',
        class: '',
        quantity: 'no',
        increase: 0,
        standard: 0,
        inbetween: 0,
        expensive: 0,
        slope: true,
        fee: true,
        vat: true,
      },
    ]);
    const audit = await latestAudit('rates', kmiId);
    expect(audit).toMatchObject({
      message: 'Rates of group KMI saved (2 rows)',
      actorUserId: (await userByEmail(RATES_EDITOR)).id,
    });
    expect(audit!.before).toEqual(before);
    expect(audit!.after).toEqual(res.json().rates);
    // Restore the seeded table for the tests below.
    expect((await asAdmin('POST', ADMIN_API.saveRates, { groupID: kmiId, rates: before })).statusCode).toBe(
      200,
    );
  });

  it('refuses bad amounts naming the row and column, and saves nothing', async () => {
    const before = (await asAdmin('GET', ADMIN_API.rates(kmiId))).json().rates;
    const res = await asAdmin('POST', ADMIN_API.saveRates, {
      groupID: kmiId,
      rates: [
        row({}),
        row({}),
        row({ standard: -1 }),
        row({ increase: 'soon' as never, expensive: 'R lots' as never }),
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().messages).toEqual([
      'Row 3: Standard rate must be a non-negative number.',
      'Row 4: % annual increase must be a number.',
      'Row 4: Expensive must be a non-negative number.',
    ]);
    expect(res.json().message).toBe(
      '3 problems in the rates, first: Row 3: Standard rate must be a non-negative number.',
    );
    const single = await asAdmin('POST', ADMIN_API.saveRates, {
      groupID: kmiId,
      rates: [row({ inbetween: -5 })],
    });
    expect(single.json().message).toBe('Row 1: In-between rate must be a non-negative number.');
    expect((await asAdmin('GET', ADMIN_API.rates(kmiId))).json().rates).toEqual(before);
    const unknownGroup = await asAdmin('POST', ADMIN_API.saveRates, { groupID: randomUUID(), rates: [] });
    expect(unknownGroup.statusCode).toBe(404);
    const noRates = await asAdmin('POST', ADMIN_API.saveRates, { groupID: kmiId });
    expect(noRates.json().message).toContain("must have required property 'rates'");
  });

  async function exported(groupId = kmiId) {
    const res = await asAdmin('GET', ADMIN_API.ratesExport(groupId));
    expect(res.statusCode).toBe(200);
    return res;
  }

  const multipart = (content: Buffer, field = 'file', filename = 'rates.xlsx') => {
    const boundary = `----portal${randomUUID()}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
          'Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n',
      ),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  };

  const importFile = async (content: Buffer, who = ADMIN, field?: string) => {
    const { payload, headers } = multipart(content, field);
    return call(who, 'POST', ADMIN_API.ratesImport(kmiId), payload, headers);
  };

  it('exports the table as a workbook with the editor’s columns, a frozen header and Y/N flags', async () => {
    const res = await exported();
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers['content-disposition']).toBe('attachment; filename="rates-KMI.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([
      undefined,
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
    expect(sheet.getRow(2).values).toEqual([
      undefined,
      'savi',
      'Buildings',
      'Dwelling',
      'Single storey',
      'm²',
      6.5,
      9500,
      13500,
      19000,
      'Y',
      'Y',
      'Y',
    ]);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getColumn(1).width).toBeGreaterThan(20);
  });

  it('imports an exported workbook back to the same rows, without saving', async () => {
    const rates = (await asAdmin('GET', ADMIN_API.rates(kmiId))).json().rates;
    const res = await importFile((await exported()).rawPayload);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, groupID: kmiId, rates });
    expect((await latestAudit('rates', kmiId))!.message).not.toMatch(/import/i);
  });

  /** A workbook as a quantity surveyor might make it: columns in another order, headers in any case. */
  async function workbookOf(header: string[], rows: unknown[][]): Promise<Buffer> {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('My rates');
    sheet.addRow(header);
    for (const values of rows) sheet.addRow(values);
    return Buffer.from(await workbook.xlsx.writeBuffer());
  }

  const HEADERS = [
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
  ];

  it('reads columns by header in any order and case, skipping empty rows', async () => {
    const file = await workbookOf(
      ['vat (y/n)', ...HEADERS.slice(0, 11).reverse()],
      [
        ['N', 'yes', 'n', 2000, '1 500,50', 1000, 5, 'no', 'Paving', 'Driveway', 'Improvements', 'savi'],
        [],
        ['', '', '', '', '', '', '', '', '', 'Walls', '', ''],
      ],
    );
    const imported = await importFile(file, RATES_EDITOR);
    expect(imported.statusCode).toBe(200);
    expect(imported.json().rates).toEqual([
      {
        report: 'savi',
        category: 'Improvements',
        type: 'Driveway',
        class: 'Paving',
        quantity: 'no',
        increase: 5,
        standard: 1000,
        inbetween: 1500.5,
        expensive: 2000,
        slope: false,
        fee: true,
        vat: false,
      },
      {
        report: '',
        category: '',
        type: 'Walls',
        class: '',
        quantity: 'no',
        increase: 0,
        standard: 0,
        inbetween: 0,
        expensive: 0,
        slope: true,
        fee: true,
        vat: true,
      },
    ]);
  });

  it('refuses a workbook with bad rows, naming the sheet rows, or missing columns', async () => {
    const bad = await importFile(
      await workbookOf(HEADERS, [
        ['savi', 'Buildings', 'Dwelling', 'Single storey', 'm²', 6.5, 9500, 13500, 19000, 'Y', 'Y', 'Y'],
        ['savi', 'Buildings', 'Dwelling', 'Double storey', 'm²', 'six', -1, 13500, 19000, 'Y', 'maybe', 'Y'],
      ]),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().messages).toEqual([
      'Row 3: % annual increase must be a number.',
      'Row 3: Standard rate must be a non-negative number.',
      'Row 3: Prof. fee (Y/N) must be Y or N.',
    ]);
    const missing = await importFile(await workbookOf(HEADERS.slice(0, 10), []));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(
      "The sheet has no column 'Prof. fee (Y/N)', 'VAT (Y/N)'. The first row must hold the column names of the rates editor.",
    );
  });

  it('takes only an xlsx file of at most 5 MB, sent as multipart', async () => {
    const notXlsx = await importFile(Buffer.from('report,category\nsavi,Buildings\n'));
    expect(notXlsx.statusCode).toBe(400);
    expect(notXlsx.json().message).toBe('The file is not an Excel workbook (.xlsx).');
    const zipButNotWorkbook = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100)]);
    expect((await importFile(zipButNotWorkbook)).json().message).toBe(
      'The workbook could not be read. Save it as an Excel workbook (.xlsx) and try again.',
    );
    const tooLarge = await importFile(
      Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(5 * 1024 * 1024)]),
    );
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().message).toBe('The file is larger than 5 MB.');
    // A workbook whose parts claim to unpack to 64 MB (a "zip bomb") is refused before it is unpacked.
    const bomb = Buffer.from((await exported()).rawPayload);
    const directory = bomb.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bomb.writeUInt32LE(64 * 1024 * 1024, directory + 24);
    expect((await importFile(bomb)).json().message).toBe('The workbook is too large once unpacked.');
    const wrongField = await importFile((await exported()).rawPayload, ADMIN, 'upload');
    expect(wrongField.json().message).toBe("Send the workbook as multipart/form-data, in the field 'file'.");
    const json = await asAdmin('POST', ADMIN_API.ratesImport(kmiId), { rates: [] });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe("Send the workbook as multipart/form-data, in the field 'file'.");
    expect((await importFile((await exported()).rawPayload, PLAIN)).statusCode).toBe(403);
  });
});
