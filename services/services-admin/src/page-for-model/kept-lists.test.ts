import { keptListCount, pageForModel, parsePageQuery, settleKeptLists } from './index';
import { ADMIN, env, useServicesAdminApp } from '../testing/harness';
import { addPagingPeople, pagingFilter } from '../testing/paging-people';

/** page-for-model's ways of reading a page (walks, sorted matches, kept checkpoints and matches) agree. */

useServicesAdminApp();

describe('page-for-model', () => {
  beforeAll(addPagingPeople);

  it('reads pages the same whichever way it takes (walk from either end, or sorting the matches)', async () => {
    const ids = (docs: { _id: string }[]) => docs.map((doc) => doc._id);
    const ways = [
      { concurrentWalkLimit: 0, sortedMatchesLimit: 0, checkpointStep: 0 },
      {
        concurrentWalkLimit: 1_000_000,
        sortedMatchesLimit: 1_000_000,
        checkpointStep: 0,
        keepMatches: false,
      },
      // Kept lists: checkpoints every 3 rows, a filter's sorted matches (read on the first page).
      { checkpointStep: 3, waitForKeptLists: true },
      // As requests go: the plain way until the kept lists read in the background are there.
      {},
    ];
    for (const [sort, filter] of [
      [[['createdAt', 'desc']], {}],
      [[['name', 'asc']], pagingFilter],
      [[['email', 'desc']], { groupName: { compareBy: 'contains', compareTo: 'a' } }],
      [[['groupName', 'asc']], {}],
      [[['groupName', 'desc']], { active: { compareBy: 'is', compareTo: 'true' } }],
      [[['groupName', 'asc']], pagingFilter],
      [[['groupName', 'desc']], { email: { compareBy: 'contains', compareTo: 'example' } }],
    ] as const) {
      const query = (pageNumber: number, pageSize: number) =>
        parsePageQuery({
          modelName: 'users',
          pageNumber: String(pageNumber),
          pageSize: String(pageSize),
          sort: JSON.stringify(sort),
          ...Object.fromEntries(
            Object.entries(filter).map(([field, value]) => [field, JSON.stringify(value)]),
          ),
        });
      const all = await pageForModel(env.appDatabase.manager, query(1, 1000));
      for (const way of ways) {
        for (let pageNumber = 1; pageNumber <= Math.ceil(all.total / 7) + 1; pageNumber++) {
          const page = await pageForModel(env.appDatabase.manager, query(pageNumber, 7), way);
          expect(page.total).toBe(all.total);
          expect([sort, way, pageNumber, ids(page.docs)]).toEqual([
            sort,
            way,
            pageNumber,
            ids(all.docs).slice((pageNumber - 1) * 7, pageNumber * 7),
          ]);
        }
      }
    }
  });

  it('reads pages from kept lists (checkpoints, sorted matches) as the plain way does, also after users and groups change', async () => {
    const ids = (docs: { _id: string }[]) => docs.map((doc) => doc._id);
    const query = (
      sort: [string, string],
      filter: Record<string, unknown>,
      pageNumber: number,
      pageSize: number,
    ) =>
      parsePageQuery({
        modelName: 'users',
        pageNumber: String(pageNumber),
        pageSize: String(pageSize),
        sort: JSON.stringify([sort]),
        ...Object.fromEntries(Object.entries(filter).map(([field, value]) => [field, JSON.stringify(value)])),
      });
    const active = { compareBy: 'is', compareTo: 'true' };
    const cases = [
      [['name', 'asc'], {}],
      [['name', 'desc'], { active }],
      [['email', 'asc'], { active: { compareBy: 'not', compareTo: 'true' } }],
      [['email', 'desc'], {}],
      [['createdAt', 'asc'], { active, admin: { compareBy: 'is', compareTo: 'false' } }],
      [['createdAt', 'desc'], {}],
      // Kept sorted matches of a filter.
      [['name', 'asc'], { name: { compareBy: 'contains', compareTo: 'o' } }],
      [['groupName', 'desc'], { email: { compareBy: 'contains', compareTo: 'example' } }],
      [['createdAt', 'asc'], { groupName: { compareBy: 'contains', compareTo: 'alpha' } }],
      [['groupName', 'asc'], { groupName: { compareBy: 'isNotEmpty', compareTo: '' }, active }],
    ] as const;
    const compare = async (when: string) => {
      for (const [sort, filter] of cases) {
        // The plain way, without kept lists, in one page: what every smaller page must be a slice of.
        const all = await pageForModel(env.appDatabase.manager, query([...sort], filter, 1, 1000), {
          checkpointStep: 0,
          keepMatches: false,
        });
        for (const step of [1, 4]) {
          for (let pageNumber = 1; pageNumber <= Math.ceil(all.total / 7) + 1; pageNumber++) {
            const page = await pageForModel(
              env.appDatabase.manager,
              query([...sort], filter, pageNumber, 7),
              {
                checkpointStep: step,
                waitForKeptLists: true,
              },
            );
            expect([when, sort, filter, step, pageNumber, page.total, ids(page.docs)]).toEqual([
              when,
              sort,
              filter,
              step,
              pageNumber,
              all.total,
              ids(all.docs).slice((pageNumber - 1) * 7, pageNumber * 7),
            ]);
          }
        }
      }
    };
    await env.db.dataSource.query(
      `INSERT INTO identity.users (name, email, password_hash, created_at)
       VALUES ('Checkpoint Mover', 'cp-mover@example.co.za', 'x', timestamptz '2025-03-10 10:00+02')`,
    );
    await compare('at first');
    // Each change moves users past the kept checkpoints: the revision makes them be read again.
    await env.db.dataSource.query(
      `UPDATE identity.users SET name = 'AAA Moved', email = 'zzz-moved@example.co.za',
              created_at = timestamptz '2001-01-01', active = NOT active
       WHERE email = 'cp-mover@example.co.za'`,
    );
    await compare('after an update');
    await env.db.dataSource.query(
      `INSERT INTO identity.users (name, email, password_hash) VALUES ('Checkpoint New', 'cp-new@example.co.za', 'x')`,
    );
    await compare('after an insert');
    await env.db.dataSource.query(
      `DELETE FROM identity.users WHERE email IN ('cp-new@example.co.za', 'zzz-moved@example.co.za')`,
    );
    await compare('after a delete');
    // A group's name places its users in the groupName sort and filters.
    await env.db.dataSource.query(`UPDATE identity.groups SET name = 'Aardvark Brokers' WHERE code = 'ZUL'`);
    await compare('after a group is renamed');
    await env.db.dataSource.query(`UPDATE identity.groups SET name = 'Zulu Assessors' WHERE code = 'ZUL'`);
    // A login (last_login_at) moves nobody: the revision stays.
    const revision = async () =>
      (await env.db.dataSource.query('SELECT revision::text AS r FROM identity.user_list_revision'))[0].r;
    const before = await revision();
    await env.db.dataSource.query(`UPDATE identity.users SET last_login_at = now() WHERE email = '${ADMIN}'`);
    expect(await revision()).toBe(before);
  });

  it('never waits for a kept list: the plain way answers while it is read, and after any change', async () => {
    const ids = (docs: { _id: string }[]) => docs.map((doc) => doc._id);
    const query = (pageNumber: number) =>
      parsePageQuery({
        modelName: 'users',
        pageNumber: String(pageNumber),
        pageSize: '7',
        sort: JSON.stringify([['name', 'desc']]),
        name: JSON.stringify({ compareBy: 'contains', compareTo: 'paging person' }),
      });
    const plain = async (pageNumber: number) =>
      ids((await pageForModel(env.appDatabase.manager, query(pageNumber), { keepMatches: false })).docs);

    await settleKeptLists(env.appDatabase);
    const before = keptListCount(env.appDatabase);
    const first = await pageForModel(env.appDatabase.manager, query(2));
    expect(ids(first.docs)).toEqual(await plain(2));
    // The sorted matches were read meanwhile and are kept.
    await settleKeptLists(env.appDatabase);
    expect(keptListCount(env.appDatabase)).toBe(before + 1);
    expect(ids((await pageForModel(env.appDatabase.manager, query(2))).docs)).toEqual(await plain(2));

    // A user moves to the front of the sort: the kept matches are out of date, the page is right at once.
    await env.db.dataSource.query(
      `UPDATE identity.users SET name = 'Paging Person 99' WHERE email = 'paging3@example.co.za'`,
    );
    const moved = await pageForModel(env.appDatabase.manager, query(1));
    expect(moved.docs[0].name).toBe('Paging Person 99');
    expect(ids(moved.docs)).toEqual(await plain(1));
    await settleKeptLists(env.appDatabase);
    expect(ids((await pageForModel(env.appDatabase.manager, query(1))).docs)).toEqual(await plain(1));
    await env.db.dataSource.query(
      `UPDATE identity.users SET name = 'Paging Person 03' WHERE email = 'paging3@example.co.za'`,
    );
    await settleKeptLists(env.appDatabase);
  });
});
