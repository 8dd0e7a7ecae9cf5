import ExcelJS from 'exceljs';
import { USAGE_ROUTES, type UsageAnswer } from '@portal/contracts';
import { GROUP_ADMIN_TEXT } from '../access';
import {
  RATES_EDITOR,
  asAdmin,
  call,
  env,
  groupByCode,
  asGroupAdmin,
  makePlainAdminOfKmi,
  useServicesAdminApp,
} from '../testing/harness';

/** The usage API: who may see which group's usage, a month's rows, and the invoicing exports. */

useServicesAdminApp();

let kmi: string;
let hvv: string;

const usage = (params: Record<string, string>) => `${USAGE_ROUTES.usage}?${new URLSearchParams(params)}`;

beforeAll(async () => {
  ({ kmi, hvv } = await makePlainAdminOfKmi());
  const key = await env.db.dataSource.query(
    `INSERT INTO identity.users (name, email, password_hash, group_id, kind)
     VALUES ('Policy system', 'key-usage@keys.test', '!', $1, 'apiKey') RETURNING id`,
    [kmi],
  );
  const [{ id: keyId }] = await env.db.dataSource.query(
    `INSERT INTO identity.api_keys (group_id, user_id, name, prefix, secret_hash, services, scope)
     VALUES ($1, $2, 'Policy system', 'ppk_AbCdEfGh', 'hash-usage', '{avs}', 'read') RETURNING id`,
    [kmi, key[0].id],
  );
  const rows: [string | null, string, string, string, string, number][] = [
    [kmi, 'locator', '2026-03-01', 'geocode', 'session', 5],
    [kmi, 'locator', '2026-03-01', 'geocode', keyId, 120],
    [kmi, 'locator', '2026-03-31', 'validation_row', keyId, 1000],
    [kmi, 'iris', '2026-03-15', 'iris_report', 'session', 2],
    [hvv, 'locator', '2026-03-02', 'search', 'session', 7],
    [null, 'locator', '2026-03-02', 'reverse', 'session', 3],
    [kmi, 'locator', '2026-04-01', 'geocode', 'session', 9],
    [kmi, 'locator', '2026-02-28', 'geocode', 'session', 11],
  ];
  for (const row of rows)
    await env.db.dataSource.query(
      `INSERT INTO metering.usage_daily (group_id, service, day, metric, source, count)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      row,
    );
});

describe('usage', () => {
  it("answers a group's month per day, service, metric and source, with totals and every day", async () => {
    const res = await asAdmin('GET', usage({ groupId: kmi, month: '2026-03' }));
    expect(res.statusCode).toBe(200);
    const body = res.json<UsageAnswer>();
    expect(body.days).toHaveLength(31);
    expect(body.days[0]).toBe('2026-03-01');
    expect(body.rows.map((r) => [r.day, r.service, r.metric, r.sourceName ?? r.source, r.count])).toEqual([
      ['2026-03-01', 'locator', 'geocode', 'Policy system (ppk_AbCdEfGh)', 120],
      ['2026-03-01', 'locator', 'geocode', 'session', 5],
      ['2026-03-15', 'iris', 'iris_report', 'session', 2],
      ['2026-03-31', 'locator', 'validation_row', 'Policy system (ppk_AbCdEfGh)', 1000],
    ]);
    expect(body.totals).toMatchObject({ geocode: 125, validation_row: 1000, iris_report: 2, search: 0 });
  });

  it('gives administrators every group (callers without a group too) when no group is named', async () => {
    const body = (await asAdmin('GET', usage({ month: '2026-03' }))).json<UsageAnswer>();
    expect(body.groupId).toBeNull();
    expect(body.totals).toMatchObject({ geocode: 125, search: 7, reverse: 3 });
    expect(body.rows.filter((r) => r.groupId === null)).toHaveLength(1);
  });

  it("lets a group's admin see their own group only", async () => {
    const own = await asGroupAdmin('GET', usage({ month: '2026-03' }));
    expect(own.statusCode).toBe(200);
    expect(own.json<UsageAnswer>()).toMatchObject({ groupId: kmi, totals: { geocode: 125, search: 0 } });
    const other = await asGroupAdmin('GET', usage({ groupId: hvv, month: '2026-03' }));
    expect([other.statusCode, other.json().message]).toEqual([403, GROUP_ADMIN_TEXT.ownGroupOnly]);
    expect((await asGroupAdmin('GET', `${USAGE_ROUTES.exportCsv}?groupId=${hvv}`)).statusCode).toBe(403);
  });

  it('refuses people who are neither administrators nor a group admin, and bad months', async () => {
    expect((await call(RATES_EDITOR, 'GET', usage({ month: '2026-03' }))).statusCode).toBe(403);
    expect((await call(null, 'GET', usage({ month: '2026-03' }))).statusCode).toBe(401);
    expect((await asAdmin('GET', usage({ month: '2026-13' }))).statusCode).toBe(400);
    expect((await asAdmin('GET', usage({ groupId: 'kmi' }))).statusCode).toBe(400);
  });

  it('defaults to the current month', async () => {
    const body = (await asAdmin('GET', usage({ groupId: kmi }))).json<UsageAnswer>();
    expect(body.month).toMatch(/^\d{4}-\d{2}$/);
  });

  it('exports the month per group, service, metric and source as CSV for invoicing', async () => {
    const res = await asAdmin('GET', `${USAGE_ROUTES.exportCsv}?month=2026-03`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="usage-all-groups-2026-03.csv"');
    const [header, ...lines] = res.body.trim().split('\r\n');
    expect(header).toBe('Group,Group code,Month,Service,Metric,Source (API key or session),Count');
    const hvvName = (await groupByCode('HVV')).name;
    const kmiName = (await groupByCode('KMI')).name;
    expect(lines.sort()).toEqual(
      [
        `${hvvName},HVV,2026-03,locator,search,session,7`,
        `${kmiName},KMI,2026-03,iris,iris_report,session,2`,
        `${kmiName},KMI,2026-03,locator,geocode,Policy system (ppk_AbCdEfGh),120`,
        `${kmiName},KMI,2026-03,locator,geocode,session,5`,
        `${kmiName},KMI,2026-03,locator,validation_row,Policy system (ppk_AbCdEfGh),1000`,
        ',,2026-03,locator,reverse,session,3',
      ].sort(),
    );
  });

  it('exports the same rows as an Excel workbook', async () => {
    const res = await asAdmin('GET', `${USAGE_ROUTES.exportXlsx}?groupId=${kmi}&month=2026-03`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="usage-KMI-2026-03.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Usage')!;
    const values = sheet
      .getSheetValues()
      .slice(1)
      .map((row) => (row as unknown[]).slice(1));
    expect(values[0]).toEqual([
      'Group',
      'Group code',
      'Month',
      'Service',
      'Metric',
      'Source (API key or session)',
      'Count',
    ]);
    expect(values.slice(1).map((row) => [row[3], row[4], row[5], row[6]])).toEqual([
      ['iris', 'iris_report', 'session', 2],
      ['locator', 'geocode', 'Policy system (ppk_AbCdEfGh)', 120],
      ['locator', 'geocode', 'session', 5],
      ['locator', 'validation_row', 'Policy system (ppk_AbCdEfGh)', 1000],
    ]);
  });
});
