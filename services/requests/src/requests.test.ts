import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { DataSource } from 'typeorm';
import {
  REQUEST_API,
  REQUEST_CREATED_CHANNEL,
  SESSION_COOKIE,
  type RequestCreatedEvent,
  type RequestForm,
  type RequestMapAnswer,
  type RequestRecord,
} from '@portal/contracts';
import { GroupEntity, UserEntity, createTestDatabase, type TestDatabase } from '@portal/db';
import { createRedis, ensureKeyPair } from '@portal/server-kit';
import { signTestSessionFor, trailingSlashProblems } from '@portal/server-kit/testing';
import { buildApp } from './app';
import { loadRequestsConfig } from './config';
import { openDatabase } from './database';

jest.setTimeout(60_000);

const varDir = mkdtempSync(join(tmpdir(), 'requests-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const publicKeyFile = join(varDir, 'keys/jwt-public.pem');
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = createRedis(redisUrl, 'requests-test');
let db: TestDatabase;
let appDatabase: DataSource;
let app: FastifyInstance;

const ADMIN = 'admin@portal.test';
const OPERATOR = 'operator@portal.test';
const QC = 'qc@portal.test';
const PLAIN = 'user@portal.test';
const CLAIMS = 'claims@portal.test';
const RATES = 'rates@portal.test';
/** A user of Highveld Valuers, whose group has savi and iris but not avs. */
const HVV_USER = 'valuer@hvv.test';

beforeAll(async () => {
  ensureKeyPair(privateKeyFile, publicKeyFile);
  db = await createTestDatabase({ seed: true });
  const hvv = await db.dataSource.getRepository(GroupEntity).findOneByOrFail({ code: 'HVV' });
  await db.dataSource.getRepository(UserEntity).insert({
    name: 'Karin Smit',
    email: HVV_USER,
    passwordHash: 'not-a-hash',
    groupId: hvv.id,
  });
  const config = { ...loadRequestsConfig({ VAR_DIR: varDir, NODE_ENV: 'test' }), logLevel: 'silent' };
  appDatabase = await openDatabase(db.url);
  app = await buildApp(config, { ds: appDatabase, redis });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await appDatabase?.destroy();
  await db?.drop();
  await redis.quit();
});

// ---------------------------------------------------------------------------------------------------
// Sessions: signed here with the throwaway private key, with the claims identity would put in them.

const signSession = (user: UserEntity) => signTestSessionFor(privateKeyFile, user);

const userByEmail = (email: string) => db.dataSource.getRepository(UserEntity).findOneByOrFail({ email });

async function call(
  email: string | null,
  method: InjectOptions['method'],
  url: string,
  payload?: InjectOptions['payload'],
  headers?: InjectOptions['headers'],
) {
  const cookies = email ? { [SESSION_COOKIE]: signSession(await userByEmail(email)) } : undefined;
  return app.inject({ method, url, payload, cookies, headers });
}

const create = (email: string | null, form: object, headers?: InjectOptions['headers']) =>
  call(email, 'PUT', REQUEST_API.create, form, headers);

/** A square parcel around a point, as the locator answers it (GeoJSON Polygon). */
const square = (lat: number, lng: number, d = 0.0002) => ({
  type: 'Polygon',
  coordinates: [
    [
      [lng - d, lat - d],
      [lng + d, lat - d],
      [lng + d, lat + d],
      [lng - d, lat + d],
      [lng - d, lat - d],
    ],
  ],
});

/** A Replacement Value Estimate from the request tool, as a KMI user fills it in (Stellenbosch). */
function rveForm(overrides: Partial<RequestForm> = {}): RequestForm {
  const lat = -33.9321;
  const lng = 18.8602;
  return {
    requestType: 'SAVI',
    requestSubType: 'Replacement Value Estimate',
    Searched_For: '12 Church Street Stellenbosch',
    mode: 'address',
    Selected_Address: {
      formatted_address: '12 Church Street, Stellenbosch Central, Stellenbosch, 7600',
      id: '42',
      type: 'address',
      location: { lat, lng },
    },
    Alternative_Addresses: ['12A Church Street, Stellenbosch Central, Stellenbosch, 7600'],
    coordinates: { lat, lng },
    coordinateArray: [lat, lng],
    map: { lat, lng, zoom: 18 },
    reference: { POLICY_NUMBER: 'KM123456', BROKER_NAME: 'Acme Brokers' },
    additional: 'Gate code 1234',
    needsUpdate: false,
    selected: {
      formatted_address: '12 Church Street, Stellenbosch Central, Stellenbosch, 7600',
      suburb: 'Stellenbosch Central',
      town: 'Stellenbosch',
      no: '12',
      name: 'Church Street',
      streetcode: '7600',
      boxcode: '7599',
    },
    parcel: {
      id: '9001',
      formatted_address: '12 Church Street, Stellenbosch Central, Stellenbosch, 7600',
      addresses: [{ id: '42', short_formatted_address: '12 Church Street' }],
      geometry: square(lat, lng),
    },
    query: '12 CHURCH STREET STELLENBOSCH',
    usedIdan: true,
    imageUrls: { n: '/api/imagery/images/n.jpg', e: null, s: '/api/imagery/images/s.jpg', o: '/o.jpg' },
    ...overrides,
  };
}

const rowOf = async (id: string) =>
  (
    await db.dataSource.query(
      `SELECT *, ST_X(point) AS x, ST_Y(point) AS y, GeometryType(parcel_geom) AS parcel_type,
              ST_SRID(parcel_geom) AS parcel_srid
       FROM requests.requests WHERE id = $1`,
      [id],
    )
  )[0];

const idFrom = (location: unknown) => String(location).split('/').at(-2)!;
const countRows = async () =>
  Number((await db.dataSource.query('SELECT count(*) FROM requests.requests'))[0].count);

// ---------------------------------------------------------------------------------------------------

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
    await db.dataSource.getRepository(UserEntity).update(user.id, { active: false });
    try {
      const answer = await app.inject({
        method: 'GET',
        url: REQUEST_API.map,
        cookies: { [SESSION_COOKIE]: session },
      });
      expect(answer.statusCode).toBe(401);
    } finally {
      await db.dataSource.getRepository(UserEntity).update(user.id, { active: true });
    }
  });
});

describe('PUT /api/v1.0/request/', () => {
  it("writes the request with every field and answers 'created' with its id and GRiP reference", async () => {
    const before = await countRows();
    const answer = await create(PLAIN, rveForm());
    expect(answer.statusCode).toBe(201);
    expect(answer.body).toBe('created');
    expect(answer.headers['content-type']).toMatch(/^text\/plain/);
    expect(answer.headers.location).toMatch(/^\/api\/v1\.0\/request\/[0-9a-f-]{36}\/any$/);
    const grip = answer.headers['x-grip-reference'];
    expect(grip).toMatch(/^GRP-\d{4}-\d{6}$/);
    expect(await countRows()).toBe(before + 1);

    const user = await userByEmail(PLAIN);
    const row = await rowOf(idFrom(answer.headers.location));
    expect(row).toMatchObject({
      grip_reference: grip,
      request_type: 'SAVI',
      request_sub_type: 'Replacement Value Estimate',
      status: 'New',
      user_id: user.id,
      user_name: 'Johan Botha',
      user_email: PLAIN,
      group_id: user.groupId,
      group_name: 'Karoo Mutual Insurance',
      group_code: 'KMI',
      for_group_id: user.groupId,
      claims_user: false,
      address: '12 Church Street, Stellenbosch Central, Stellenbosch, 7600',
      searched_for: '12 Church Street Stellenbosch',
      mode: 'address',
      lat: -33.9321,
      lng: 18.8602,
      x: 18.8602,
      y: -33.9321,
      coordinate_array: [-33.9321, 18.8602],
      cant_locate: false,
      map_view: { lat: -33.9321, lng: 18.8602, zoom: 18 },
      reference: { POLICY_NUMBER: 'KM123456', BROKER_NAME: 'Acme Brokers' },
      reference_string: JSON.stringify({ POLICY_NUMBER: 'KM123456', BROKER_NAME: 'Acme Brokers' }),
      additional: 'Gate code 1234',
      needs_update: false,
      parcel_id: '9001',
      parcel_type: 'MULTIPOLYGON',
      parcel_srid: 4326,
      used_idan: true,
      image_urls: { n: '/api/imagery/images/n.jpg', e: null, s: '/api/imagery/images/s.jpg', o: '/o.jpg' },
      query: '12 CHURCH STREET STELLENBOSCH',
      priority: false,
      report_pdf_url: null,
      report_id: null,
      date_finalised: null,
      rve_total: null,
      property_type: null,
      idempotency_key: null,
    });
    expect(row.selected).toMatchObject({
      suburb: 'Stellenbosch Central',
      streetcode: '7600',
      boxcode: '7599',
    });
    expect(row.selected_address).toMatchObject({ id: '42', type: 'address' });
    expect(row.alternative_addresses).toEqual([
      '12A Church Street, Stellenbosch Central, Stellenbosch, 7600',
    ]);
    expect(row.parcel).toEqual({
      id: '9001',
      formatted_address: '12 Church Street, Stellenbosch Central, Stellenbosch, 7600',
      addresses: [{ id: '42', short_formatted_address: '12 Church Street' }],
    });
    expect(Date.now() - new Date(row.created_at).getTime()).toBeLessThan(60_000);
  });

  it('numbers GRiP references in order, unique', async () => {
    const grips: string[] = [];
    for (let i = 0; i < 3; i++)
      grips.push(String((await create(PLAIN, rveForm())).headers['x-grip-reference']));
    expect(new Set(grips).size).toBe(3);
    expect([...grips].sort()).toEqual(grips);
  });

  it('takes the form as the request tool builds it (locator result items and parcels as answered)', async () => {
    const lat = -33.9321;
    const lng = 18.8602;
    const item = {
      id: '42',
      type: 'address',
      formatted_address: '12 Church Street, Stellenbosch Central, Stellenbosch, 7600',
      short_formatted_address: '12 Church Street',
      location: { lat, lng },
      confidence: 0.97,
      parcelId: '9001',
      suburb: 'Stellenbosch Central',
      town: 'Stellenbosch',
      postalCode: '7600',
    };
    const parcel = {
      id: '9001',
      formatted_address: item.formatted_address,
      addresses: [{ id: '42', short_formatted_address: '12 Church Street' }],
      geometry: { type: 'MultiPolygon', coordinates: [square(lat, lng).coordinates] },
      parcelNumber: '1234',
      portion: 0,
      sgKey: null,
      parcelTypeId: 1,
      dataQualityId: 60,
    };
    const answer = await create(PLAIN, {
      Searched_For: '12 Church Street Stellenbosch',
      mode: 'address',
      Selected_Address: item.formatted_address,
      Alternative_Addresses: [],
      coordinates: { lat, lng },
      coordinateArray: [lat, lng],
      cantlocate: false,
      geojson: parcel.geometry,
      map: { lat, lng },
      requestType: 'SAVI',
      requestSubType: 'Building Size Calculation',
      reference: { POLICY_NUMBER: 'KM123456' },
      referenceString: '{"POLICY_NUMBER":"KM123456"}',
      additional: '',
      type: 'SAVI',
      needsUpdate: false,
      selected: item,
      parcel,
      query: '12 CHURCH STREET STELLENBOSCH',
      usedIdan: false,
      imageUrls: {},
      comments: '',
    });
    expect(answer.statusCode).toBe(201);
    const row = await rowOf(idFrom(answer.headers.location));
    expect(row).toMatchObject({
      address: item.formatted_address,
      selected: { id: '42', suburb: 'Stellenbosch Central', confidence: 0.97 },
      parcel: { id: '9001', sgKey: null, parcelNumber: '1234' },
      parcel_type: 'MULTIPOLYGON',
      geojson: { type: 'MultiPolygon' },
      form_type: 'SAVI',
    });

    const cantLocate = await create(PLAIN, {
      requestType: 'SAVI',
      requestSubType: "Can't Locate",
      mode: 'cantlocate',
      Searched_For: '',
      Selected_Address: '',
      coordinates: { lat, lng },
      cantlocate: true,
      reference: { POLICY_NUMBER: 'KM123456' },
    });
    expect(cantLocate.statusCode).toBe(201);
  });

  it('takes a detailed parcel outline beyond the default 1 MB body limit', async () => {
    const lat = -33.95;
    const lng = 18.86;
    // A circle of 60 000 vertices: about 2.3 MB of GeoJSON.
    const ring = Array.from({ length: 60_000 }, (_, i) => {
      const angle = (2 * Math.PI * i) / 60_000;
      return [lng + 0.01 * Math.cos(angle), lat + 0.01 * Math.sin(angle)];
    });
    ring.push(ring[0]);
    const answer = await create(
      PLAIN,
      rveForm({ parcel: { id: '77', geometry: { type: 'Polygon', coordinates: [ring] } } }),
    );
    expect(answer.statusCode).toBe(201);
    const [row] = await db.dataSource.query(
      'SELECT ST_NPoints(parcel_geom) AS points FROM requests.requests WHERE id = $1',
      [idFrom(answer.headers.location)],
    );
    expect(row.points).toBe(60_001);
  });

  it('makes a SAVI request without a subtype a Report (the earlier reading)', async () => {
    const answer = await create(PLAIN, rveForm({ requestSubType: undefined }));
    expect(answer.statusCode).toBe(201);
    expect((await rowOf(idFrom(answer.headers.location))).request_sub_type).toBe('Report');
  });

  it('refuses wrong type and subtype combinations', async () => {
    for (const [requestType, requestSubType, message] of [
      [
        'IRIS',
        'Replacement Value Estimate',
        "A IRIS request cannot have the subtype 'Replacement Value Estimate'.",
      ],
      [
        'AVS',
        'Building Size Calculation',
        "A AVS request cannot have the subtype 'Building Size Calculation'.",
      ],
    ] as const) {
      const answer = await create(PLAIN, rveForm({ requestType, requestSubType }));
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toBe(message);
    }
  });

  it('refuses unknown types, subtypes and malformed fields, listing every problem', async () => {
    const answer = await create(PLAIN, {
      ...rveForm(),
      requestType: 'VALUATION',
      coordinates: { lat: 'south', lng: 18.8 },
      imageUrls: { n: 5 },
    });
    expect(answer.statusCode).toBe(400);
    const { messages } = answer.json();
    expect(messages.length).toBeGreaterThanOrEqual(3);
    expect(messages.join('\n')).toMatch(/requestType/);
    expect(messages.join('\n')).toMatch(/coordinates\/lat/);
  });

  it('needs coordinates, inside South Africa, unless the property could not be located', async () => {
    const missing = await create(PLAIN, rveForm({ coordinates: undefined }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().messages).toEqual(['The location (coordinates) of the property is required.']);

    const london = await create(PLAIN, rveForm({ coordinates: { lat: 51.5, lng: -0.12 } }));
    expect(london.statusCode).toBe(400);
    expect(london.json().messages).toEqual(['The location 51.5, -0.12 is outside South Africa.']);
  });

  it('collects form problems together for the form to show', async () => {
    const answer = await create(
      PLAIN,
      rveForm({ coordinates: null, cantlocate: true, reference: { BROKER_NAME: 'x' } }),
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      messages: [
        "cantlocate may only be set on a Can't Locate request.",
        'The location (coordinates) of the property is required.',
        'Policy number must be two letters followed by six digits, e.g. KM123456',
      ],
    });
  });

  it('refuses a parcel outline that is not a closed polygon', async () => {
    const open = square(-33.9, 18.8);
    open.coordinates[0].pop();
    for (const geometry of [open, { type: 'Point', coordinates: [18.8, -33.9] }]) {
      const parcel = { id: '1', geometry };
      const answer = await create(PLAIN, rveForm({ parcel }));
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toBe(
        'The parcel geometry must be a GeoJSON Polygon or MultiPolygon of closed rings.',
      );
    }
  });

  it("refuses a request type whose service is not active for the user's account", async () => {
    const answer = await create(HVV_USER, {
      requestType: 'AVS',
      query: '12 Church Street',
      reference: { VALUATION_REFERENCE: 'HV-12345' },
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toBe('The avs service is not active for your account.');
  });
});

describe('references', () => {
  const withReference = (reference: RequestForm['reference']) => rveForm({ reference });

  it("checks a required reference against its pattern with the group's own message", async () => {
    for (const reference of [{}, { POLICY_NUMBER: '   ' }, { POLICY_NUMBER: 'KM12' }] as Record<
      string,
      string
    >[]) {
      const answer = await create(PLAIN, withReference(reference));
      expect(answer.statusCode).toBe(400);
      expect(answer.json().messages).toEqual([
        'Policy number must be two letters followed by six digits, e.g. KM123456',
      ]);
    }
  });

  it('leaves optional references optional and keeps only what was filled in', async () => {
    const answer = await create(PLAIN, withReference({ POLICY_NUMBER: ' KM654321 ', BROKER_NAME: '' }));
    expect(answer.statusCode).toBe(201);
    expect((await rowOf(idFrom(answer.headers.location))).reference).toEqual({ POLICY_NUMBER: 'KM654321' });
  });

  it('refuses hidden and unknown references', async () => {
    const answer = await create(
      PLAIN,
      withReference({ POLICY_NUMBER: 'KM123456', UNDERWRITING_BATCH: 'B7', NOT_A_REFERENCE: 'x' }),
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.json().messages).toEqual([
      "'UNDERWRITING_BATCH' is not a reference of your group.",
      "'NOT_A_REFERENCE' is not a reference of your group.",
    ]);
  });

  it('takes a plain text reference as the first reference', async () => {
    const answer = await create(PLAIN, withReference('KM111222'));
    expect(answer.statusCode).toBe(201);
    expect((await rowOf(idFrom(answer.headers.location))).reference).toEqual({ POLICY_NUMBER: 'KM111222' });
    expect((await create(PLAIN, withReference('nope'))).json().messages).toEqual([
      'Policy number must be two letters followed by six digits, e.g. KM123456',
    ]);
  });

  it("checks a claims user's form against the group's claims references", async () => {
    const policy = await create(CLAIMS, withReference({ POLICY_NUMBER: 'KM123456' }));
    expect(policy.statusCode).toBe(400);
    expect(policy.json().messages).toEqual([
      "'POLICY_NUMBER' is not a reference of your group.",
      'Claim number must look like CLM123456',
    ]);

    const claim = await create(CLAIMS, withReference({ CLAIM_NUMBER: 'CLM000777' }));
    expect(claim.statusCode).toBe(201);
    const row = await rowOf(idFrom(claim.headers.location));
    expect(row).toMatchObject({ claims_user: true, reference: { CLAIM_NUMBER: 'CLM000777' } });
  });
});

describe('idempotency', () => {
  it('writes a retried submission once and answers created again', async () => {
    const key = randomUUID();
    const before = await countRows();
    const first = await create(PLAIN, rveForm(), { 'idempotency-key': key });
    const retry = await create(PLAIN, rveForm(), { 'idempotency-key': key });
    expect([first.statusCode, first.body, retry.statusCode, retry.body]).toEqual([
      201,
      'created',
      201,
      'created',
    ]);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['x-grip-reference']).toBe(first.headers['x-grip-reference']);
    expect(retry.headers.location).toBe(first.headers.location);
    expect(await countRows()).toBe(before + 1);
  });

  it('takes the key from the form too, and writes once under concurrent retries', async () => {
    const form = rveForm({ idempotencyKey: randomUUID() });
    const before = await countRows();
    const answers = await Promise.all([1, 2, 3, 4].map(() => create(PLAIN, form)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.headers['x-grip-reference'])).size).toBe(1);
    expect(await countRows()).toBe(before + 1);
  });

  it('keeps keys apart per user and refuses a key reused for a different request', async () => {
    const key = randomUUID();
    const mine = await create(PLAIN, rveForm(), { 'idempotency-key': key });
    const theirs = await create(RATES, rveForm(), { 'idempotency-key': key });
    expect([mine.statusCode, theirs.statusCode]).toEqual([201, 201]);
    expect(theirs.headers['x-grip-reference']).not.toBe(mine.headers['x-grip-reference']);

    const other = await create(PLAIN, rveForm({ additional: 'Another house' }), { 'idempotency-key': key });
    expect(other.statusCode).toBe(409);
    expect(other.json().message).toMatch(/already used for a different request/);
  });

  it('refuses a malformed key', async () => {
    const answer = await create(PLAIN, rveForm(), { 'idempotency-key': 'short' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toBe('The Idempotency-Key header must be 8 to 200 visible characters.');
  });
});

describe("Can't Locate", () => {
  it('needs no coordinates or address from the request tool (SAVI) or the can’t-locate screen (AVS)', async () => {
    const fromTool = await create(PLAIN, {
      requestType: 'SAVI',
      requestSubType: "Can't Locate",
      Searched_For: 'Plot 7 Vlakfontein',
      cantlocate: true,
      reference: { POLICY_NUMBER: 'KM123456' },
    });
    expect(fromTool.statusCode).toBe(201);
    expect(await rowOf(idFrom(fromTool.headers.location))).toMatchObject({
      request_type: 'SAVI',
      request_sub_type: "Can't Locate",
      cant_locate: true,
      lat: null,
      point: null,
      address: 'Plot 7 Vlakfontein',
    });

    const fromAvs = await create(PLAIN, {
      requestType: 'AVS',
      requestSubType: "Can't Locate",
      query: 'PLOT 7 VLAKFONTEIN',
      additional: 'Near the dam',
      reference: { POLICY_NUMBER: 'KM123456' },
    });
    expect(fromAvs.statusCode).toBe(201);
    expect(await rowOf(idFrom(fromAvs.headers.location))).toMatchObject({
      request_type: 'AVS',
      request_sub_type: "Can't Locate",
      cant_locate: true,
      query: 'PLOT 7 VLAKFONTEIN',
    });
  });

  it('needs something that describes the property', async () => {
    const answer = await create(PLAIN, {
      requestType: 'AVS',
      requestSubType: "Can't Locate",
      reference: { POLICY_NUMBER: 'KM123456' },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().messages).toEqual([
      "A Can't Locate request needs a description of the property: what was searched for, the address, a comment or a location.",
    ]);
  });
});

describe('request-created event', () => {
  it('is published on Redis after the request is written, once per request', async () => {
    const subscriber = createRedis(redisUrl, 'requests-test-subscriber');
    const events: RequestCreatedEvent[] = [];
    try {
      await subscriber.subscribe(REQUEST_CREATED_CHANNEL);
      subscriber.on('message', (_channel, message) => events.push(JSON.parse(message)));
      const key = randomUUID();
      const answer = await create(PLAIN, rveForm(), { 'idempotency-key': key });
      await create(PLAIN, rveForm(), { 'idempotency-key': key });
      const id = idFrom(answer.headers.location);
      for (let waited = 0; waited < 2000 && !events.some((event) => event.id === id); waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      const mine = events.filter((event) => event.id === id);
      const user = await userByEmail(PLAIN);
      const row = await rowOf(id);
      expect(mine).toEqual([
        {
          id,
          gripReference: answer.headers['x-grip-reference'],
          requestType: 'SAVI',
          requestSubType: 'Replacement Value Estimate',
          status: 'New',
          userId: user.id,
          groupId: user.groupId,
          createdAt: new Date(row.created_at).toISOString(),
        },
      ]);
    } finally {
      await subscriber.quit();
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
    await db.dataSource.query(
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
    expect(await trailingSlashProblems(app, { service: 'requests' })).toEqual([]);
  });
});
