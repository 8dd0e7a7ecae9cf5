import Fastify from 'fastify';
import { REQUEST_ADMIN_API, RequestPagerAnswer, type NearAnswer, type RequestRow } from '@portal/contracts';
import {
  ADMIN,
  CLAIMS,
  OPERATOR,
  PLAIN,
  QC,
  call,
  env,
  useRequestsApp,
  userByEmail,
} from '../../testing/harness';
import { pager, requestsMade, seedRequest } from '../../testing/queueRequests';

// The queue's reads (spec 02 §7.2, spec 03 §7) on a throwaway PostgreSQL/PostGIS database: the pager, the
// stream and the counts, the duplicate check, the settings and saved views. Requests are written straight
// into the table (their creation is routes/requestCreation.test.ts's).

useRequestsApp();

describe('the pager', () => {
  let own: string[];
  beforeAll(async () => {
    own = [await seedRequest(PLAIN), await seedRequest(PLAIN, { status: 'Query' }), await seedRequest(PLAIN)];
    await seedRequest(CLAIMS, { priority: true });
    await seedRequest(CLAIMS, { request_type: 'AVS', cant_locate: true });
  });

  it('gives a plain user their own requests, oldest first, whatever user_id they name', async () => {
    const answer = await pager(PLAIN, { limit: '100' });
    expect(answer.docs.map((row) => row.requestID)).toEqual(own);
    expect(answer.total).toBe(3);
    const claims = await userByEmail(CLAIMS);
    expect((await pager(PLAIN, { user_id: claims.id })).total).toBe(0);
  });

  it('gives staff every request, priority first then newest, with the grid row of spec 02 §3', async () => {
    const answer = await pager(ADMIN, { limit: '100' });
    expect(answer.total).toBeGreaterThanOrEqual(5);
    expect(answer.docs[0].priority).toBe('Yes');
    const rest = answer.docs.slice(1).map((row) => row.created);
    expect(rest).toEqual([...rest].sort().reverse());
    const row = answer.docs.find((doc) => doc.requestID === own[0])!;
    expect(row).toMatchObject({
      type: 'SAVI',
      priority: 'No',
      status: 'New',
      user: 'Johan Botha',
      cantlocate: 'No',
      downloaded: 'No',
      disputed: 'No',
      clientReference: 'Policy Number: KM123456',
      reportFee: null,
      version: 1,
    });
    expect(Number.isInteger(row.timeInQueue)).toBe(true);
    expect(row.timeInQueue).toBeGreaterThan(24 * 300);
  });

  it('filters (type, can’t locate, status, address, dates) and sorts, pages without overlap', async () => {
    const savi = await pager(ADMIN, { request_type: 'SAVI', cantlocate: 'No', limit: '100' });
    expect(savi.docs.every((row) => row.type === 'SAVI' && row.cantlocate === 'No')).toBe(true);
    expect((await pager(ADMIN, { status: 'Query' })).docs.map((row) => row.requestID)).toContain(own[1]);
    expect((await pager(ADMIN, { filters: JSON.stringify({ status: 'Query' }) })).total).toBe(
      (await pager(ADMIN, { status: 'Query' })).total,
    );
    const address = (await pager(ADMIN, { address: `${requestsMade()} church`, limit: '100' })).docs;
    expect(address.every((row) => row.address.toLowerCase().includes(`${requestsMade()} church`))).toBe(true);
    const day = await pager(ADMIN, { start_date: '2026-01-01', end_date: '2026-01-01', limit: '100' });
    expect(day.total).toBe(5);
    const all = await pager(ADMIN, { sort_object: JSON.stringify({ address: 1 }), limit: '100' });
    const pages = [];
    for (let page = 1; page <= Math.ceil(all.total / 2); page++)
      pages.push(
        ...(
          await pager(ADMIN, { sort_object: JSON.stringify({ address: 1 }), limit: '2', page: String(page) })
        ).docs,
      );
    expect(pages.map((row) => row.requestID)).toEqual(all.docs.map((row) => row.requestID));
  });

  it('answers bad pages, sorts and filters with a clear 400', async () => {
    for (const [query, message] of [
      [{ page: '0' }, /page/],
      [{ limit: '5000' }, /limit/],
      [{ sort_object: '{"password":1}' }, /Cannot sort by 'password'/],
      [{ sort_object: 'not json' }, /sort_object must be/],
      [{ status: 'Lost' }, /Unknown status 'Lost'/],
      [{ start_date: 'yesterday' }, /start_date must be/],
      [{ filters: '{"colour":"red"}' }, /Unknown filter 'colour'/],
    ] as const) {
      const answer = await call(ADMIN, 'GET', `${REQUEST_ADMIN_API.pager}?${new URLSearchParams(query)}`);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toMatch(message);
    }
    expect((await call(null, 'GET', REQUEST_ADMIN_API.pager)).statusCode).toBe(401);
  });

  it('answers the path with and without its trailing slash', async () => {
    expect((await call(PLAIN, 'GET', REQUEST_ADMIN_API.pager.replace(/\/$/, ''))).statusCode).toBe(200);
    expect((await call(PLAIN, 'GET', `${REQUEST_ADMIN_API.statusCounts}/`)).statusCode).toBe(200);
  });

  it('streams every match to the console (the same rows as the pager), and refuses plain users', async () => {
    const answer = await call(OPERATOR, 'GET', `${REQUEST_ADMIN_API.all}?request_type=SAVI`);
    expect(answer.statusCode).toBe(200);
    const rows = answer.json<RequestRow[]>();
    expect(rows.length).toBe((await pager(OPERATOR, { request_type: 'SAVI' })).total);
    expect((await call(PLAIN, 'GET', REQUEST_ADMIN_API.all)).statusCode).toBe(403);
  });

  it('counts per status for the filters, scoped like the pager', async () => {
    const mine = (await call(PLAIN, 'GET', REQUEST_ADMIN_API.statusCounts)).json();
    expect(mine).toEqual({ total: 3, counts: { New: 2, Query: 1 } });
  });
});

describe('the duplicate check, saved views and settings', () => {
  it('finds the requests near a request, nearest first, within the radius', async () => {
    const centre = await seedRequest(PLAIN, {
      lat: -25.7479,
      lng: 28.2293,
      rve_total: 1_500_000,
      status: 'Finalised',
      date_finalised: '2026-02-01T10:00:00Z',
    });
    const near = await seedRequest(CLAIMS, { lat: -25.7485, lng: 28.2299 });
    const nearer = await seedRequest(PLAIN, { lat: -25.748, lng: 28.2294 });
    await seedRequest(PLAIN, { lat: -26.2041, lng: 28.0473 }); // Johannesburg, ~54 km
    const answer = await call(OPERATOR, 'GET', REQUEST_ADMIN_API.near(centre, 1000));
    expect(answer.statusCode).toBe(200);
    const body = answer.json<NearAnswer>();
    expect(body.centre).toMatchObject({ requestID: centre, finalRve: 1_500_000, dateKind: 'finalised' });
    expect(body.requests.map((row) => row.requestID)).toEqual([nearer, near]);
    expect(body.requests[0].distance).toBeLessThan(body.requests[1].distance);
    const wide = (await call(OPERATOR, 'GET', REQUEST_ADMIN_API.near(centre, 100000))).json<NearAnswer>();
    expect(wide.requests.length).toBe(3);
    // A plain user sees only their own requests around their own request.
    const own = (await call(PLAIN, 'GET', REQUEST_ADMIN_API.near(centre, 1000))).json<NearAnswer>();
    expect(own.requests.map((row) => row.requestID)).toEqual([nearer]);
    expect((await call(CLAIMS, 'GET', REQUEST_ADMIN_API.near(centre, 1000))).statusCode).toBe(403);
    expect((await call(OPERATOR, 'GET', REQUEST_ADMIN_API.near(centre, 0))).statusCode).toBe(400);
    expect((await call(OPERATOR, 'GET', `${REQUEST_ADMIN_API.near(centre, 1000)}/`)).statusCode).toBe(200);
  });

  it('keeps saved views per user, a name saved again replacing the view', async () => {
    const save = (name: string, state: object) =>
      call(OPERATOR, 'POST', REQUEST_ADMIN_API.views, { name, state });
    await save('Queries', { status: 'Query' });
    const views = (await save('queries', { status: 'Query', priority: 'Yes' })).json().views;
    expect(views).toEqual([
      expect.objectContaining({ name: 'queries', state: { status: 'Query', priority: 'Yes' } }),
    ]);
    expect((await call(QC, 'GET', REQUEST_ADMIN_API.views)).json().views).toEqual([]);
    expect((await call(QC, 'DELETE', REQUEST_ADMIN_API.view(views[0].id))).statusCode).toBe(404);
    expect((await call(OPERATOR, 'DELETE', REQUEST_ADMIN_API.view(views[0].id))).statusCode).toBe(204);
  });

  it('numbers GRiP references past the millionth request without repeating one', async () => {
    await env.db.dataSource.query("SELECT setval('requests.grip_reference_seq', 999998)");
    const ids = [await seedRequest(PLAIN), await seedRequest(PLAIN)];
    const rows = (await env.db.dataSource.query(
      'SELECT grip_reference FROM requests.requests WHERE id = ANY($1::uuid[]) ORDER BY grip_reference',
      [ids],
    )) as { grip_reference: string }[];
    expect(rows.map((row) => row.grip_reference.replace(/^GRP-\d{4}-/, ''))).toEqual(['1000000', '999999']);
  });

  it('serves the console settings (ageing targets, statuses, page sizes)', async () => {
    const settings = (await call(PLAIN, 'GET', REQUEST_ADMIN_API.settings)).json();
    expect(settings.pageSizes).toEqual([10, 20, 50, 100, 500, 1000]);
    expect(settings.ageingTargets['QC check']).toBeGreaterThan(0);
  });
});

describe('the pager’s answer, written without the response schema’s serializer', () => {
  // The route writes its answer with JSON.stringify (routes/queue/reads.ts): the contract is still the
  // response schema, so the text must be what Fastify's serializer of that schema writes (fast-json-stringify
  // drops fields it does not know, orders them as the schema does and writes numbers and dates its way).
  const schemaSerializer = async () => {
    const app = Fastify({ bodyLimit: 16 * 1024 * 1024 });
    app.post('/', { schema: { response: { 200: RequestPagerAnswer } } }, async (request) => request.body);
    await app.ready();
    return {
      serialize: async (answer: RequestPagerAnswer) =>
        (await app.inject({ method: 'POST', url: '/', payload: answer })).body,
      close: () => app.close(),
    };
  };

  beforeAll(async () => {
    // 1 000 SAVI requests with every kind of value a grid row carries: NULLs and values in each nullable
    // column, both Yes and No, decimals, times in queue (delivered or not), the three kinds of reference and
    // text that needs escaping in JSON.
    await env.db.dataSource.query(
      `INSERT INTO requests.requests
         (request_type, request_sub_type, status, user_id, user_name, user_email, group_id, group_name, address,
          lat, lng, priority, created_at, cant_locate, first_user_id, first_user_name, additional,
          report_pdf_downloaded, report_invoice_number, report_disputed, reference, reference_string, rve_total,
          preliminary_rve, property_type, number_of_buildings, unit_price, report_pdf_url, report_id,
          date_finalised, delivered_at, version)
       SELECT 'SAVI', CASE WHEN i % 2 = 0 THEN 'Replacement Value Estimate' END, 'QC check', u.id,
              'Zoë "Z" O''Neil \\ ' || i, u.email, g.id, CASE WHEN i % 5 <> 0 THEN g.name END,
              i || E' Kloof Street,\\tCape Town\\n', CASE WHEN i % 7 <> 0 THEN -33.9 - i / 1e4 END,
              CASE WHEN i % 7 <> 0 THEN 18.4 + i / 3e4 END, i % 3 = 0,
              timestamptz '2024-02-29 23:59:59.999999+00' - i * interval '1 hour 1.000123 second', false,
              CASE WHEN i % 4 = 0 THEN u.id END, CASE WHEN i % 4 = 0 THEN 'Operator ✓ ' || i END,
              CASE WHEN i % 6 = 0 THEN E'a comment with "quotes", a \\u0001 control and \\u2028 ' || i ELSE '' END,
              i % 8 = 0, CASE WHEN i % 9 = 0 THEN 'INV-' || i END, i % 10 = 0,
              CASE WHEN i % 3 = 1 THEN jsonb_build_object('POLICY_NUMBER', 'KM' || i, 'extra', ' x ') ELSE '{}' END,
              CASE i % 3 WHEN 0 THEN 'KM' || i WHEN 2 THEN '{"POLICY_NUMBER":"P' || i || '"}' ELSE '' END,
              CASE WHEN i % 2 = 0 THEN 1000000.05 + i END, CASE WHEN i % 3 = 0 THEN 0.1 * i END,
              CASE WHEN i % 4 = 1 THEN 'RESIDENTIAL' END, CASE WHEN i % 5 <> 1 THEN 1 + i % 4 END,
              CASE WHEN i % 6 <> 1 THEN 1234.57 + i END, CASE WHEN i % 11 = 0 THEN '/reports/' || i || '.pdf' END,
              CASE WHEN i % 11 = 0 THEN 'rep-' || i END,
              CASE WHEN i % 12 = 0 THEN timestamptz '2024-03-01 10:00:00.5+02' + i * interval '1 minute' END,
              CASE WHEN i % 13 = 0 THEN timestamptz '2024-03-02 00:00:00+00' END, 1 + i % 3
         FROM generate_series(1, 1000) AS i,
              identity.users u LEFT JOIN identity.groups g ON g.id = u.group_id
        WHERE u.email = $1`,
      [CLAIMS],
    );
  });

  afterAll(() => env.db.dataSource.query(`DELETE FROM requests.requests WHERE status = 'QC check'`));

  it('is the response schema’s serialization, byte for byte, for a 1 000-row page', async () => {
    const { serialize, close } = await schemaSerializer();
    try {
      for (const query of [
        { status: 'QC check', limit: '1000' },
        { status: 'QC check', limit: '1000', sort_object: JSON.stringify({ rve: 1 }) },
        { limit: '20', page: '3' },
      ] as Record<string, string>[]) {
        const answer = await call(ADMIN, 'GET', `${REQUEST_ADMIN_API.pager}?${new URLSearchParams(query)}`);
        expect(answer.statusCode).toBe(200);
        expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
        const page = answer.json<RequestPagerAnswer>();
        if (query.limit === '1000') expect(page.docs).toHaveLength(1000);
        expect(answer.body).toBe(await serialize(page));
      }
    } finally {
      await close();
    }
  });

  it('labels each row’s references with its group’s list, read again once the list changes', async () => {
    const page = async () =>
      (await pager(ADMIN, { status: 'QC check', limit: '1000' })).docs.map((row) => [
        Number(row.user.split(' ').pop()),
        row.clientReference,
      ]);
    const expected = (label: string) =>
      Array.from({ length: 1000 }, (_, index) => {
        const i = index + 1;
        return [i, [`KM${i}`, `${label}: KM${i}, extra: x`, `${label}: P${i}`][i % 3]];
      });
    const byNumber = (rows: (string | number)[][]) => [...rows].sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(byNumber(await page())).toEqual(expected('Policy Number'));
    const claims = await userByEmail(CLAIMS);
    const relabel = (from: string, to: string) =>
      env.db.dataSource.query(
        `UPDATE identity.groups SET "references" = replace("references"::text, $2, $3)::jsonb WHERE id = $1`,
        [claims.groupId, from, to],
      );
    await relabel('"Policy Number"', '"Policy No."');
    try {
      expect(byNumber(await page())).toEqual(expected('Policy No.'));
    } finally {
      await relabel('"Policy No."', '"Policy Number"');
    }
  });
});
