import { randomUUID } from 'node:crypto';
import {
  REQUEST_API,
  SESSION_COOKIE,
  type RequestForm,
  type RequestMapAnswer,
  type RequestRecord,
} from '@portal/contracts';
import { UserEntity } from '@portal/db';
import { trailingSlashProblems } from '@portal/server-kit/testing';
import {
  ADMIN,
  CLAIMS,
  OPERATOR,
  PLAIN,
  QC,
  RATES,
  call,
  env,
  signSession,
  useRequestsApp,
  userByEmail,
} from '../testing/harness';
import { create, idFrom, rveForm } from '../testing/requestForms';

// Reading requests (GET …/{id}/any, the mapping service's GET …/map) on a throwaway seeded database, the
// sessions every call needs, and every registered route answered with and without its trailing slash.

useRequestsApp();

describe('sessions', () => {
  it('answers 401 without a session on every call', async () => {
    for (const [method, url, body] of [
      ['PUT', REQUEST_API.create, rveForm()],
      ['GET', REQUEST_API.any(randomUUID())],
      ['GET', REQUEST_API.map],
    ] as const) {
      const answer = await call(null, method, url, body);
      expect([url, answer.statusCode]).toEqual([url, 401]);
      expect(answer.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    }
  });

  it('answers 401 to a deactivated account at once', async () => {
    const user = await userByEmail(RATES);
    const session = signSession(user);
    await env.db.dataSource.getRepository(UserEntity).update(user.id, { active: false });
    try {
      const answer = await env.app.inject({
        method: 'GET',
        url: REQUEST_API.map,
        cookies: { [SESSION_COOKIE]: session },
      });
      expect(answer.statusCode).toBe(401);
    } finally {
      await env.db.dataSource.getRepository(UserEntity).update(user.id, { active: true });
    }
  });
});

describe('GET /api/v1.0/request/{id}/any', () => {
  let id: string;
  let grip: string;
  beforeAll(async () => {
    const answer = await create(PLAIN, rveForm());
    id = idFrom(answer.headers.location);
    grip = String(answer.headers['x-grip-reference']);
  });

  it('answers the owner the whole request under the spec names', async () => {
    const answer = await call(PLAIN, 'GET', REQUEST_API.any(id));
    expect(answer.statusCode).toBe(200);
    const record: RequestRecord = answer.json();
    expect(record).toMatchObject({
      _id: id,
      gripReference: grip,
      requestType: 'SAVI',
      requestSubType: 'Replacement Value Estimate',
      status: 'New',
      user: { name: 'Johan Botha', email: PLAIN },
      group: { name: 'Karoo Mutual Insurance', code: 'KMI' },
      Searched_For: '12 Church Street Stellenbosch',
      coordinates: { lat: -33.9321, lng: 18.8602 },
      reference: { POLICY_NUMBER: 'KM123456', BROKER_NAME: 'Acme Brokers' },
      selected: { town: 'Stellenbosch' },
      parcel: { id: '9001', geometry: { type: 'MultiPolygon' } },
      imageUrls: { n: '/api/imagery/images/n.jpg' },
      reportPdfUrl: null,
      _reportId: null,
      RVETotal: null,
      priority: false,
      cantlocate: false,
    });
    expect((await call(PLAIN, 'GET', REQUEST_API.any(grip.toLowerCase()))).json()._id).toBe(id);
  });

  it('answers staff, refuses other users', async () => {
    for (const staff of [ADMIN, OPERATOR, QC]) {
      expect([staff, (await call(staff, 'GET', REQUEST_API.any(id))).statusCode]).toEqual([staff, 200]);
    }
    for (const other of [CLAIMS, RATES]) {
      const answer = await call(other, 'GET', REQUEST_API.any(id));
      expect([other, answer.statusCode]).toEqual([other, 403]);
      expect(answer.json().message).toBe('This request belongs to another user.');
    }
  });

  it('answers 404 for an unknown request and 400 for a malformed id', async () => {
    expect((await call(PLAIN, 'GET', REQUEST_API.any(randomUUID()))).statusCode).toBe(404);
    expect((await call(PLAIN, 'GET', REQUEST_API.any('GRP-0001-999999'))).statusCode).toBe(404);
    const bad = await call(PLAIN, 'GET', REQUEST_API.any('not-an-id'));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/must be a request id/);
  });
});

describe('GET /api/v1.0/request/map', () => {
  // A separate area (Bloemfontein), so the other tests' requests stay out of the box.
  const box = { west: 26.1, south: -29.2, east: 26.3, north: -29.0 };
  const inBox = (params: Record<string, string | number> = {}) =>
    `${REQUEST_API.map}?${new URLSearchParams(
      Object.entries({ ...box, ...params }).map(([key, value]) => [key, String(value)]),
    )}`;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const at = (lat: number, lng: number, overrides: Partial<RequestForm> = {}) =>
      rveForm({ coordinates: { lat, lng }, parcel: null, ...overrides });
    ids.plainA = idFrom((await create(PLAIN, at(-29.1, 26.2))).headers.location);
    ids.plainB = idFrom(
      (await create(PLAIN, at(-29.11, 26.21, { requestSubType: 'Building Size Calculation' }))).headers
        .location,
    );
    ids.plainIris = idFrom(
      (await create(PLAIN, at(-29.12, 26.22, { requestType: 'IRIS', requestSubType: null }))).headers
        .location,
    );
    ids.rates = idFrom((await create(RATES, at(-29.13, 26.23))).headers.location);
    ids.outside = idFrom((await create(PLAIN, at(-26.2, 28.04))).headers.location);
    // Finalised last week, so the status and date filters have something to tell apart.
    await env.db.dataSource.query(
      `UPDATE requests.requests SET status = 'Finalised', created_at = now() - interval '7 days' WHERE id = $1`,
      [ids.plainB],
    );
  });

  it("answers a user's own requests inside the box, newest first, as light points", async () => {
    const answer = await call(PLAIN, 'GET', inBox());
    expect(answer.statusCode).toBe(200);
    const body: RequestMapAnswer = answer.json();
    expect(body.points.map((point) => point.id)).toEqual([ids.plainIris, ids.plainA, ids.plainB]);
    expect(body).toMatchObject({ total: 3, truncated: false });
    expect(body.points[1]).toEqual({
      id: ids.plainA,
      gripReference: expect.stringMatching(/^GRP-/),
      requestType: 'SAVI',
      requestSubType: 'Replacement Value Estimate',
      status: 'New',
      created: expect.any(String),
      address: '12 Church Street, Stellenbosch Central, Stellenbosch, 7600',
      lat: -29.1,
      lng: 26.2,
    });
  });

  it("answers staff everyone's requests", async () => {
    for (const staff of [ADMIN, OPERATOR]) {
      const body: RequestMapAnswer = (await call(staff, 'GET', inBox())).json();
      expect(body.points.map((point) => point.id).sort()).toEqual(
        [ids.plainA, ids.plainB, ids.plainIris, ids.rates].sort(),
      );
    }
  });

  it('filters by status, type and date, and caps the points with the total', async () => {
    const ofPoints = async (params: Record<string, string | number>) =>
      ((await call(ADMIN, 'GET', inBox(params))).json() as RequestMapAnswer).points.map((point) => point.id);
    expect(await ofPoints({ status: 'Finalised' })).toEqual([ids.plainB]);
    expect(await ofPoints({ status: 'New,Query' })).toHaveLength(3);
    expect(await ofPoints({ type: 'IRIS' })).toEqual([ids.plainIris]);
    const today = new Date(Date.now() + 2 * 3600_000).toISOString().slice(0, 10);
    expect(await ofPoints({ from: today })).not.toContain(ids.plainB);
    expect(await ofPoints({ to: new Date(Date.now() - 3 * 24 * 3600_000).toISOString() })).toEqual([
      ids.plainB,
    ]);

    const capped: RequestMapAnswer = (await call(ADMIN, 'GET', inBox({ limit: 2 }))).json();
    expect(capped).toMatchObject({ total: 4, truncated: true });
    expect(capped.points).toHaveLength(2);

    const everywhere: RequestMapAnswer = (await call(PLAIN, 'GET', REQUEST_API.map)).json();
    expect(everywhere.points.map((point) => point.id)).toContain(ids.outside);
  });

  it('refuses a partial or inverted box and unknown filters', async () => {
    for (const [url, message] of [
      [`${REQUEST_API.map}?west=26&south=-29`, /The box needs all of/],
      [`${REQUEST_API.map}?west=27&south=-29&east=26&north=-28`, /The box needs all of/],
      [inBox({ status: 'Lost' }), /Unknown status 'Lost'/],
      [inBox({ type: 'FOO' }), /Unknown request type 'FOO'/],
      [inBox({ from: 'yesterday' }), /from must be a date/],
      [inBox({ from: '2026-02-01', to: '2026-01-01' }), /from must be before to/],
      [inBox({ limit: 5001 }), /limit/],
    ] as const) {
      const answer = await call(PLAIN, 'GET', url);
      expect([url, answer.statusCode]).toEqual([url, 400]);
      expect(answer.json().message).toMatch(message);
    }
  });
});

describe('paths with and without their trailing slash', () => {
  it('answers every registered route both ways, and the gateway sends both forms to requests', async () => {
    expect(await trailingSlashProblems(env.app, { service: 'requests' })).toEqual([]);
  });
});
