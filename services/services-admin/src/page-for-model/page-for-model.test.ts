import type { AdminGroup, AdminUser } from '@portal/contracts';
import { env, page, users, useServicesAdminApp } from '../testing/harness';
import { addPagingPeople, pagingFilter } from '../testing/paging-people';

/** GET page-for-model through the app: paging, sorts, filters, totals, groups, and the 400s. */

useServicesAdminApp();

describe('page-for-model', () => {
  beforeAll(addPagingPeople);

  it('pages, with the total of the filter', async () => {
    const first = await page({ ...pagingFilter, pageSize: 20 });
    expect(first.statusCode).toBe(200);
    expect(first.json().total).toBe(45);
    expect(
      first
        .json()
        .docs.map((u: AdminUser) => u.name)
        .slice(0, 3),
    ).toEqual(['Paging Person 01', 'Paging Person 02', 'Paging Person 03']);
    const third = (await page({ ...pagingFilter, pageSize: 20, pageNumber: 3 })).json();
    expect(third.docs.map((u: AdminUser) => u.name)).toEqual(
      ['41', '42', '43', '44', '45'].map((n) => `Paging Person ${n}`),
    );
    expect((await page({ ...pagingFilter, pageSize: 20, pageNumber: 4 })).json()).toEqual({
      docs: [],
      total: 45,
    });
    expect(first.json().docs[0]).toEqual({
      _id: expect.any(String),
      name: 'Paging Person 01',
      email: 'paging1@example.co.za',
      group: expect.any(String),
      groupName: 'Zulu Assessors',
      active: true,
      admin: false,
      ratesEditor: false,
      saviOperator: false,
      saviQC: false,
      claimsUser: false,
      services: [],
      createdAt: '2025-03-02T08:00:00.000Z',
    });
  });

  it('gives every page of every sort in the same order as one big page (pages past the middle included)', async () => {
    for (const sort of [
      [['name', 'asc']],
      [['name', 'desc']],
      [['email', 'desc']],
      [['groupName', 'asc']],
      [['groupName', 'desc']],
      [['createdAt', 'desc']],
      [['active', 'asc']],
    ]) {
      const all = (await page({ ...pagingFilter, sort, pageSize: 45 }))
        .json()
        .docs.map((u: AdminUser) => u._id);
      const paged: string[] = [];
      for (let pageNumber = 1; pageNumber <= 5; pageNumber++) {
        const res = await page({ ...pagingFilter, sort, pageSize: 10, pageNumber });
        paged.push(...res.json().docs.map((u: AdminUser) => u._id));
      }
      expect([sort, paged]).toEqual([sort, all]);
    }
  });

  it('sorts by group name, users without a group last, and by name case-insensitively', async () => {
    const byGroup = (await page({ ...pagingFilter, sort: [['groupName', 'asc']], pageSize: 45 })).json().docs;
    const names = byGroup.map((u: AdminUser) => u.groupName);
    expect(names[0]).toBe('Alpha Brokers');
    expect(names[names.length - 1]).toBe('');
    expect(names.indexOf('Zulu Assessors')).toBeGreaterThan(names.lastIndexOf('Alpha Brokers'));
    const alpha = byGroup
      .filter((u: AdminUser) => u.groupName === 'Alpha Brokers')
      .map((u: AdminUser) => u.name);
    expect(alpha).toEqual([...alpha].sort());
    const descending = (await page({ ...pagingFilter, sort: [['groupName', 'desc']], pageSize: 45 })).json()
      .docs;
    expect(descending[0].groupName).toBe('');
    expect(descending.map((u: AdminUser) => u._id)).toEqual(byGroup.map((u: AdminUser) => u._id).reverse());

    await users().insert({ name: 'aardvark Lowercase', email: 'aardvark@example.co.za', passwordHash: 'x' });
    const byName = (await page({ sort: [['name', 'asc']], pageSize: 1 })).json().docs;
    expect(byName[0].name).toBe('aardvark Lowercase');
    // A single pair is read as a list of one.
    expect((await page({ sort: ['name', 'desc'], pageSize: 1 })).json().docs[0].name).not.toBe(
      'aardvark Lowercase',
    );
  });

  it('filters with each operator', async () => {
    const total = async (filters: Record<string, unknown>, modelName = 'users') =>
      (await page({ modelName, ...filters })).json().total;
    const within = (filter: object) => ({ ...pagingFilter, ...filter });

    expect(await total(within({ email: { compareBy: 'contains', compareTo: 'PAGING4' } }))).toBe(7);
    expect(await total({ name: { compareBy: 'equals', compareTo: 'paging person 07' } })).toBe(1);
    expect(await total({ name: { compareBy: '=', compareTo: 'Paging Person 07' } })).toBe(1);
    expect(await total(within({ name: { compareBy: 'endsWith', compareTo: '5' } }))).toBe(5);
    expect(
      await total({ email: { compareBy: 'endsWith', compareTo: '@example.co.za' } }),
    ).toBeGreaterThanOrEqual(45);
    expect(await total(within({ groupName: { compareBy: 'equals', compareTo: 'alpha brokers' } }))).toBe(21);
    expect(await total(within({ groupName: { compareBy: 'contains', compareTo: 'ssess' } }))).toBe(21);
    expect(await total(within({ groupName: { compareBy: 'isEmpty' } }))).toBe(3);
    expect(await total(within({ groupName: { compareBy: 'isNotEmpty' } }))).toBe(42);
    expect(await total(within({ groupName: { compareBy: '!=', compareTo: 'Alpha Brokers' } }))).toBe(21);
    expect(await total(within({ active: { compareBy: 'is', compareTo: 'false' } }))).toBe(15);
    expect(await total(within({ active: { compareBy: 'is', compareTo: true } }))).toBe(30);
    expect(await total(within({ active: { compareBy: 'not', compareTo: true } }))).toBe(15);
    expect(await total(within({ admin: { compareBy: '=', compareTo: 'true' } }))).toBe(0);
    // A filter the grid has not filled in yet applies nothing.
    expect(await total(within({ active: { compareBy: 'is', compareTo: '' } }))).toBe(45);
    expect(await total(within({ email: { compareBy: 'contains' } }))).toBe(45);

    // Dates are South African calendar days: paging1 was created 2025-03-02 10:00 SAST.
    expect(await total(within({ createdAt: { compareBy: 'is', compareTo: '2025-03-02' } }))).toBe(1);
    expect(await total(within({ createdAt: { compareBy: 'not', compareTo: '2025-03-02' } }))).toBe(44);
    expect(await total(within({ createdAt: { compareBy: '>', compareTo: '2025-04-10' } }))).toBe(5);
    expect(await total(within({ createdAt: { compareBy: '>=', compareTo: '2025-04-10' } }))).toBe(6);
    expect(await total(within({ createdAt: { compareBy: '<', compareTo: '2025-03-04' } }))).toBe(2);
    expect(await total(within({ createdAt: { compareBy: '<=', compareTo: '2025-03-04' } }))).toBe(3);
    expect(await total(within({ createdAt: { compareBy: '<', compareTo: '2025-03-03T08:00:00Z' } }))).toBe(1);

    expect(await total({ professionalFeePercentage: { compareBy: '>', compareTo: 12.5 } }, 'groups')).toBe(1);
    expect(await total({ professionalFeePercentage: { compareBy: '>=', compareTo: '12.5' } }, 'groups')).toBe(
      2,
    );
    expect(await total({ professionalFeePercentage: { compareBy: '<', compareTo: 10 } }, 'groups')).toBe(2);
    expect(await total({ professionalFeePercentage: { compareBy: '<=', compareTo: 10 } }, 'groups')).toBe(3);
    expect(await total({ professionalFeePercentage: { compareBy: '!=', compareTo: 0 } }, 'groups')).toBe(4);
    expect(await total({ code: { compareBy: 'startsWith', compareTo: 'k' } }, 'groups')).toBe(1);
    expect(await total({ active: { compareBy: 'is', compareTo: 'false' } }, 'groups')).toBe(1);
    expect(await total({ reportNameFormat: { compareBy: 'isEmpty' } }, 'groups')).toBe(5);
  });

  it('reads the totals of no filter or one flag from the kept counts, exactly', async () => {
    const count = async (where: string) =>
      (await env.db.dataSource.query(`SELECT count(*)::int AS n FROM identity.users WHERE ${where}`))[0].n;
    expect((await page({})).json().total).toBe(await count('true'));
    const columns = { active: 'active', admin: 'is_admin', saviQC: 'savi_qc', claimsUser: 'claims_user' };
    for (const [field, column] of Object.entries(columns)) {
      for (const [compareBy, compareTo, where] of [
        ['is', 'true', column],
        ['is', false, `NOT ${column}`],
        ['not', true, `NOT ${column}`],
        ['!=', 'false', column],
      ] as const) {
        const res = await page({ [field]: { compareBy, compareTo } });
        expect([field, compareBy, compareTo, res.json().total]).toEqual([
          field,
          compareBy,
          compareTo,
          await count(where),
        ]);
      }
    }
  });

  it('answers groups with their admin, services and member count', async () => {
    const res = await page({ modelName: 'groups', code: { compareBy: 'equals', compareTo: 'KMI' } });
    expect(res.statusCode).toBe(200);
    const [kmi] = res.json().docs as AdminGroup[];
    expect(kmi).toMatchObject({
      name: 'Karoo Mutual Insurance',
      code: 'KMI',
      adminLabel: 'Lerato Mokoena (claims@portal.test)',
      professionalFeePercentage: 12.5,
      services: ['avs', 'iris', 'savi', 'spatialkey'],
      userCount: 4,
    });
    expect(kmi.references[0][1]).toBe('POLICY_NUMBER');
    const sorted = (
      await page({ modelName: 'groups', sort: [['professionalFeePercentage', 'desc']] })
    ).json();
    expect(sorted.docs.map((g: AdminGroup) => g.code).slice(0, 2)).toEqual(['ZUL', 'KMI']);
  });

  it.each([
    [{ modelName: 'requests' }, 'modelName must be one of users, groups'],
    [{ pageNumber: '0' }, 'pageNumber must be a positive integer'],
    [{ pageNumber: '-1' }, 'pageNumber must be a positive integer'],
    [{ pageNumber: '1.5' }, 'pageNumber must be a positive integer'],
    [{ pageNumber: 'abc' }, 'pageNumber must be a positive integer'],
    [{ pageSize: '0' }, 'pageSize must be a positive integer no greater than 1000'],
    [{ pageSize: '1001' }, 'pageSize must be a positive integer no greater than 1000'],
    [
      { password_hash: { compareBy: 'contains', compareTo: 'a' } },
      "Unknown filter field 'password_hash' for users.",
    ],
    [{ name: '{"compareBy":' }, "The filter of 'name' is not valid JSON"],
    [{ name: { compareBy: 'like', compareTo: 'a' } }, "Unknown operator 'like' in the filter of 'name'."],
    [{ name: { compareBy: '>', compareTo: 'a' } }, "The operator '>' does not apply to 'name'."],
    [{ active: { compareBy: 'is', compareTo: 'maybe' } }, "The filter of 'active' needs true or false."],
    [{ name: { compareBy: 'contains', compareTo: { $ne: 1 } } }, "The filter of 'name' needs text."],
    [
      { modelName: 'groups', professionalFeePercentage: { compareBy: '>', compareTo: 'lots' } },
      "The filter of 'professionalFeePercentage' needs a number.",
    ],
    [{ createdAt: { compareBy: 'is', compareTo: 'yesterday' } }, "The filter of 'createdAt' needs a date"],
    [{ sort: [['password_hash', 'asc']] }, "Cannot sort users by 'password_hash'."],
    [{ sort: [['name', 'sideways']] }, "The sort direction of 'name' must be asc or desc."],
    [{ sort: 'name asc' }, 'sort is not valid JSON'],
    [{ sort: { name: 'asc' } }, 'sort must be a JSON list'],
  ])('refuses %j with a 400 that says why', async (params, message) => {
    const res = await page(params);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
  });

  it('keeps SQL out: field names only through the table, values always bound', async () => {
    for (const field of ['name;DROP TABLE identity.users', 'u.name', '"name"', '1=1--']) {
      expect((await page({ [field]: { compareBy: 'contains', compareTo: 'a' } })).statusCode).toBe(400);
      expect((await page({ sort: [[field, 'asc']] })).statusCode).toBe(400);
    }
    for (const value of ["'; DROP TABLE identity.users; --", "x' OR '1'='1", '%', '_']) {
      const res = await page({ name: { compareBy: 'contains', compareTo: value } });
      expect([value, res.statusCode, res.json().total]).toEqual([value, 200, 0]);
    }
    const sorted = await page({ sort: [['name', 'asc; DROP TABLE identity.users']] });
    expect(sorted.statusCode).toBe(400);
    expect(await users().count()).toBeGreaterThan(45);
  });
});
