import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { DataSource } from 'typeorm';
import {
  AVS_API,
  AVS_EDITOR_API,
  requestUpdatedChannel,
  SESSION_COOKIE,
  type AddressEditAnswer,
  type AvsEditorSettings,
  type DequeueParcelAnswer,
  type DequeueRequestAnswer,
  type DisplayDataAnswer,
  type EditorEditsAnswer,
  type ParcelEditAnswer,
  type PoiEditAnswer,
  type PointDataAnswer,
  type ResolveCantLocateAnswer,
  type ReverseAnswer,
  type SearchAnswer,
} from '@portal/contracts';
import { UserEntity, createTestDatabase, type TestDatabase } from '@portal/db';
import { generateGeodata } from '@portal/geo';
import { createRedis, ensureKeyPair, findWorkspaceRoot } from '@portal/server-kit';
import { signTestSessionFor, trailingSlashProblems } from '@portal/server-kit/testing';
import { buildApp } from './app';
import { loadAvsEditorConfig } from './config';
import { openDatabase } from './database';
import { EDIT_TEXT } from './editor/edits';
import { READ_TEXT } from './editor/read';
import { ROUTE_TEXT } from './routes/editor';

/**
 * services/avs-editor on a throwaway PostgreSQL + PostGIS database with generated geodata (a small
 * Stellenbosch), real Redis, and — for "found at once" — the locator service itself, started from its
 * build on the same database, asked through HTTP as a user would. One file over 500 lines: that database
 * and locator process are costly to start, and every case (reads, queues, edits, can't-locate) works on
 * them, each edit checked through the locator's answers.
 */

jest.setTimeout(120_000);

const WORKSPACE = findWorkspaceRoot();
const varDir = mkdtempSync(join(tmpdir(), 'avs-editor-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const publicKeyFile = join(varDir, 'keys/jwt-public.pem');
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = createRedis(redisUrl, 'avs-editor-test');
let db: TestDatabase;
let appDatabase: DataSource;
let app: FastifyInstance;
let locator: ChildProcess | undefined;
let locatorUrl = '';

const OPERATOR = 'operator@portal.test';
const QC = 'qc@portal.test';
const ADMIN = 'admin@portal.test';
const PLAIN = 'user@portal.test';
/** Operators beside the demo ones, for the concurrency test. */
const CROWD = Array.from({ length: 20 }, (_, i) => `operator${i + 1}@editor.test`);

const freePort = () =>
  new Promise<number>((resolvePort) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });

async function startLocator(): Promise<void> {
  const entry = join(WORKSPACE, 'services/locator/dist/main.js');
  if (!existsSync(entry))
    throw new Error(`${entry} is not built: run \`npx nx build @portal/locator\` first.`);
  const port = await freePort();
  locator = spawn(process.execPath, [entry], {
    stdio: 'ignore',
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl,
      PORT: String(port),
      VAR_DIR: varDir,
      JWT_PUBLIC_KEY_FILE: publicKeyFile,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
    },
  });
  locatorUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    const ready = await fetch(`${locatorUrl}/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the locator did not start');
}

beforeAll(async () => {
  ensureKeyPair(privateKeyFile, publicKeyFile);
  db = await createTestDatabase({ seed: true });
  await generateGeodata(db.dataSource, { scale: 3000, seed: 'avs-editor-test', towns: ['Stellenbosch'] });
  await db.dataSource
    .getRepository(UserEntity)
    .insert(
      CROWD.map((email, i) => ({ name: `Operator ${i + 1}`, email, passwordHash: 'x', saviOperator: true })),
    );
  const config = {
    ...loadAvsEditorConfig({
      VAR_DIR: varDir,
      NODE_ENV: 'test',
      JWT_PUBLIC_KEY_FILE: publicKeyFile,
      AVS_EDITOR_VALIDATOR_PREFIXES: 'qc@, gis.',
      AVS_EDITOR_HOLD_SECONDS: '600',
    }),
    logLevel: 'silent',
  };
  appDatabase = await openDatabase(db.url);
  app = await buildApp(config, { ds: appDatabase, redis });
  await app.ready();
  await startLocator();
});

afterAll(async () => {
  locator?.kill();
  await app?.close();
  await appDatabase?.destroy();
  await db?.drop();
  await redis.quit();
});

const sql = <T>(text: string, params: unknown[] = []) => db.dataSource.query(text, params) as Promise<T[]>;
const users = new Map<string, UserEntity>();
async function session(email: string) {
  if (!users.has(email))
    users.set(email, await db.dataSource.getRepository(UserEntity).findOneByOrFail({ email }));
  return signTestSessionFor(privateKeyFile, users.get(email)!);
}

async function call(email: string | null, method: InjectOptions['method'], url: string, payload?: object) {
  const cookies = email ? { [SESSION_COOKIE]: await session(email) } : undefined;
  return app.inject({ method, url, payload, cookies });
}

async function locatorPost<T>(url: string, body: object): Promise<T> {
  const response = await fetch(`${locatorUrl}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `${SESSION_COOKIE}=${await session(PLAIN)}` },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

interface ParcelSample {
  id: string;
  lat: number;
  lng: number;
  version: number;
  address_count: number;
}

/** An empty parcel with a road within 100 m (a vacant erf), where an address can go. */
const EMPTY_NEAR_ROAD = `address_count = 0 AND parcel_type_id = 1 AND data_quality_id >= 0
  AND EXISTS (SELECT 1 FROM geo.streets s WHERE ST_DWithin(s.geom, geo.parcels.geom, 0.001))`;

/** A parcel of the data with a point inside it. */
async function parcelWhere(condition: string): Promise<ParcelSample> {
  const [row] = await sql<ParcelSample>(
    `SELECT id::text AS id, ST_Y(ST_PointOnSurface(geom)) AS lat, ST_X(ST_PointOnSurface(geom)) AS lng, version,
            address_count
     FROM geo.parcels WHERE ${condition} AND held_until IS NULL ORDER BY id LIMIT 1`,
  );
  if (!row) throw new Error(`no parcel with ${condition}`);
  return row;
}

const releaseAll = () =>
  sql('UPDATE geo.parcels SET held_by = NULL, held_by_email = NULL, held_until = NULL');

// ---------------------------------------------------------------------------------------------------

describe('who may use it', () => {
  it('needs a session (401) and an operator (403)', async () => {
    const url = AVS_EDITOR_API.settings;
    expect((await call(null, 'GET', url)).statusCode).toBe(401);
    const plain = await call(PLAIN, 'GET', url);
    expect(plain.statusCode).toBe(403);
    expect(plain.json().message).toBe(ROUTE_TEXT.operators);
    expect((await call(OPERATOR, 'GET', url)).statusCode).toBe(200);
    expect((await call(ADMIN, 'GET', `${url}/`)).statusCode).toBe(200);
    // Every edit too: the server holds the line, not only the screen.
    const edit = await call(PLAIN, 'POST', AVS_EDITOR_API.investigate('1'), { version: 1 });
    expect(edit.statusCode).toBe(403);
  });

  it("offers 'Validate Parcel' by the configured e-mail prefixes only", async () => {
    const settings = (await call(QC, 'GET', AVS_EDITOR_API.settings)).json<AvsEditorSettings>();
    expect(settings).toMatchObject({ canValidate: true, holdSeconds: 600, zoom: 18 });
    expect(settings.qualities.map((q) => `${q.code} ${q.value}`)).toEqual([
      'CNF 25',
      'EST 30',
      'DDS 40',
      'VR 50',
      'SV 60',
    ]);
    expect((await call(OPERATOR, 'GET', AVS_EDITOR_API.settings)).json().canValidate).toBe(false);
    const refused = await call(OPERATOR, 'GET', AVS_EDITOR_API.dequeueValidateParcel);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(ROUTE_TEXT.validators);
  });
});

describe('paths with and without their trailing slash', () => {
  it('answers every registered route both ways, and the gateway sends both forms to avs-editor', async () => {
    expect(await trailingSlashProblems(app, { service: 'avs-editor' })).toEqual([]);
  });
});

describe('display_data and get_point_data (spec 03 §7)', () => {
  it('answers the parcels, voronoi areas, addresses and POIs around a point, each as data.features', async () => {
    const parcel = await parcelWhere('address_count > 2');
    const response = await call(OPERATOR, 'GET', AVS_EDITOR_API.displayData(parcel.lat, parcel.lng));
    expect(response.statusCode).toBe(200);
    const answer = response.json<DisplayDataAnswer>();
    expect(answer.parcelId).toBe(parcel.id);
    for (const layer of [answer.voronoiData, answer.parcelData, answer.addressData, answer.poiData])
      expect(Array.isArray(layer.data.features)).toBe(true);
    const selected = answer.parcelData.data.features.filter((f) => f.properties.selected);
    expect(selected.map((f) => f.id)).toEqual([parcel.id]);
    expect(answer.parcelData.data.features.length).toBeGreaterThan(1);
    const onParcel = answer.addressData.data.features.filter((f) => f.properties.parcelId === parcel.id);
    expect(onParcel).toHaveLength(parcel.address_count);
    expect(onParcel[0].properties).toMatchObject({
      qualityCode: expect.stringMatching(/^(CNF|EST|DDS|VR|SV)$/),
    });
    // With and without the trailing slash.
    const slash = await call(OPERATOR, 'GET', `${AVS_EDITOR_API.displayData(parcel.lat, parcel.lng)}/`);
    expect(slash.statusCode).toBe(200);
  });

  it('makes one valid voronoi area per address point, inside its parcel, covering it without overlaps', async () => {
    const parcel = await parcelWhere('address_count > 2');
    const answer = (
      await call(OPERATOR, 'GET', AVS_EDITOR_API.displayData(parcel.lat, parcel.lng))
    ).json<DisplayDataAnswer>();
    const areas = answer.voronoiData.data.features.filter((f) => f.properties.parcelId === parcel.id);
    const [{ points }] = await sql<{ points: number }>(
      `SELECT ST_NumGeometries(ST_UnaryUnion(ST_Collect(point)))::int AS points FROM geo.addresses WHERE parcel_id = $1`,
      [parcel.id],
    );
    expect(areas).toHaveLength(points);
    // Every address of the parcel has exactly one area, and lies in it.
    const ids = areas.flatMap((f) => f.properties.addressIds).sort();
    expect(ids).toEqual(
      answer.addressData.data.features
        .filter((f) => f.properties.parcelId === parcel.id)
        .map((f) => f.id)
        .sort(),
    );
    const [check] = await sql<{
      valid: boolean;
      outside: number;
      area: number;
      parcel_area: number;
      overlap: number;
      own_point: boolean;
    }>(
      `WITH cells AS (
         SELECT ST_SetSRID(ST_GeomFromGeoJSON(c->>'geometry'), 4326) AS g, c->'properties'->'addressIds'->>0 AS address_id
         FROM jsonb_array_elements($1::jsonb) c
       ), parcel AS (SELECT geom FROM geo.parcels WHERE id = $2)
       SELECT bool_and(ST_IsValid(g)) AS valid,
              sum(ST_Area(ST_Difference(g, (SELECT geom FROM parcel)))) AS outside,
              sum(ST_Area(g)) AS area,
              (SELECT ST_Area(geom) FROM parcel) AS parcel_area,
              (SELECT coalesce(sum(ST_Area(ST_Intersection(a.g, b.g))), 0) FROM cells a, cells b
               WHERE a.address_id < b.address_id AND ST_Intersects(a.g, b.g)) AS overlap,
              bool_and(ST_DWithin(g, (SELECT point FROM geo.addresses WHERE id = address_id::bigint), 1e-6)) AS own_point
       FROM cells`,
      [JSON.stringify(areas), parcel.id],
    );
    expect(check.valid).toBe(true);
    expect(check.own_point).toBe(true);
    // Inside the parcel and covering it, up to the answer's 7-decimal precision (~1 cm).
    expect(check.outside / check.parcel_area).toBeLessThan(1e-3);
    expect(Math.abs(check.area - check.parcel_area) / check.parcel_area).toBeLessThan(1e-3);
    expect(check.overlap / check.parcel_area).toBeLessThan(1e-3);
    // A parcel with one address is one area: the parcel itself.
    const single = answer.voronoiData.data.features.find(
      (f) => f.properties.addressIds.length === 1 && f.properties.parcelId !== parcel.id,
    );
    expect(single).toBeDefined();
  });

  it('answers the address editor data of a point: parcel, closest roads, area, 4-digit codes, addresses', async () => {
    const parcel = await parcelWhere('address_count = 1');
    const response = await call(OPERATOR, 'GET', AVS_EDITOR_API.pointData(parcel.lat, parcel.lng));
    expect(response.statusCode).toBe(200);
    const { data } = response.json<PointDataAnswer>();
    expect(data).toMatchObject({
      parcelId: parcel.id,
      parcelVersion: parcel.version,
      lat: parcel.lat,
      lng: parcel.lng,
      town: 'Stellenbosch',
    });
    expect(data.parcelNo).toMatch(/^\d+$/);
    expect(data.addresses).toHaveLength(1);
    expect(data.closestRoads.length).toBeGreaterThan(0);
    expect(data.closestRoads[0].closest).toBe(true);
    expect(data.closestRoads.slice(1).every((road) => !road.closest)).toBe(true);
    expect(data.road).toBe(data.closestRoads[0].roadNameEng);
    const distances = data.closestRoads.map((road) => road.distance);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(data.streetCode).toMatch(/^\d{4}$/);
    expect(data.addresses[0].streetCode).toMatch(/^\d{4}$/);
    expect(data.centre.lat).toBeCloseTo(parcel.lat, 2);
    const slash = await call(OPERATOR, 'GET', `${AVS_EDITOR_API.pointData(parcel.lat, parcel.lng)}/`);
    expect(slash.statusCode).toBe(200);
  });

  it('refuses points outside South Africa and coordinates that are not numbers (400)', async () => {
    const outside = await call(OPERATOR, 'GET', AVS_EDITOR_API.pointData(51.5, -0.12));
    expect(outside.statusCode).toBe(400);
    expect(outside.json().message).toBe(READ_TEXT.outside);
    expect((await call(OPERATOR, 'GET', AVS_EDITOR_API.displayData(51.5, -0.12))).statusCode).toBe(400);
    const junk = await call(OPERATOR, 'GET', '/api/v1.0/addaddress/get_point_data/abc/18.8');
    expect(junk.statusCode).toBe(400);
    expect(junk.json().message).toMatch(/lat/);
    expect((await call(OPERATOR, 'GET', '/api/v1.0/addresseditor/display_data/-95/18.8')).statusCode).toBe(
      400,
    );
  });
});

describe('queues', () => {
  beforeEach(releaseAll);

  it('gives the next multi-address parcel, held for the operator; another operator gets another one', async () => {
    const first = (await call(OPERATOR, 'GET', AVS_EDITOR_API.multiParcel)).json<DequeueParcelAnswer>();
    expect(first.parcel).not.toBeNull();
    const [row] = await sql<{ address_count: number; held_by_email: string; held_until: Date }>(
      'SELECT address_count, held_by_email, held_until FROM geo.parcels WHERE id = $1',
      [first.parcel!.parcelId],
    );
    expect(row.address_count).toBeGreaterThan(1);
    expect(row.held_by_email).toBe(OPERATOR);
    expect(new Date(row.held_until).getTime()).toBeGreaterThan(Date.now() + 500_000);
    const second = (await call(QC, 'GET', `${AVS_EDITOR_API.multiParcel}/`)).json<DequeueParcelAnswer>();
    expect(second.parcel!.parcelId).not.toBe(first.parcel!.parcelId);
    expect(second.remaining).toBe(first.remaining - 1);
    // The map goes to a point inside the parcel.
    const [{ inside }] = await sql<{ inside: boolean }>(
      'SELECT ST_Contains(geom, ST_SetSRID(ST_MakePoint($2, $3), 4326)) AS inside FROM geo.parcels WHERE id = $1',
      [first.parcel!.parcelId, first.parcel!.lng, first.parcel!.lat],
    );
    expect(inside).toBe(true);
  });

  it('gives back the held parcel when the operator takes the next one, skips it, or releases it', async () => {
    const first = (await call(OPERATOR, 'GET', AVS_EDITOR_API.noAddressParcel)).json<DequeueParcelAnswer>();
    const next = (
      await call(OPERATOR, 'GET', `${AVS_EDITOR_API.noAddressParcel}?skip=${first.parcel!.parcelId}`)
    ).json<DequeueParcelAnswer>();
    expect(next.parcel!.parcelId).not.toBe(first.parcel!.parcelId);
    const held = await sql<{ id: string }>(
      `SELECT id::text AS id FROM geo.parcels WHERE held_by_email = $1`,
      [OPERATOR],
    );
    expect(held.map((r) => r.id)).toEqual([next.parcel!.parcelId]);
    // Another operator now gets the first one, given back.
    const other = (await call(QC, 'GET', AVS_EDITOR_API.noAddressParcel)).json<DequeueParcelAnswer>();
    expect(other.parcel!.parcelId).toBe(first.parcel!.parcelId);
    const release = await call(QC, 'POST', AVS_EDITOR_API.release, {
      kind: 'parcel',
      id: other.parcel!.parcelId,
    });
    expect(release.json()).toEqual({ success: true, message: 'Released.' });
    // Nobody releases someone else's hold.
    const notMine = await call(QC, 'POST', AVS_EDITOR_API.release, {
      kind: 'parcel',
      id: next.parcel!.parcelId,
    });
    expect(notMine.json().message).toBe('Nothing of yours to release.');
  });

  it('releases an abandoned hold when it expires', async () => {
    const taken = (await call(OPERATOR, 'GET', AVS_EDITOR_API.noAddressParcel)).json<DequeueParcelAnswer>();
    await sql(`UPDATE geo.parcels SET held_until = now() - interval '1 second' WHERE id = $1`, [
      taken.parcel!.parcelId,
    ]);
    const again = (await call(QC, 'GET', AVS_EDITOR_API.noAddressParcel)).json<DequeueParcelAnswer>();
    expect(again.parcel!.parcelId).toBe(taken.parcel!.parcelId);
  });

  it('gives 20 operators dequeuing at once 20 different parcels', async () => {
    for (const url of [AVS_EDITOR_API.noAddressParcel, AVS_EDITOR_API.multiParcel]) {
      await releaseAll();
      const answers = await Promise.all(
        CROWD.map(async (email) => (await call(email, 'GET', url)).json<DequeueParcelAnswer>()),
      );
      const ids = answers.map((answer) => answer.parcel?.parcelId).filter(Boolean);
      const [{ queued }] = await sql<{ queued: number }>(
        `SELECT count(*)::int AS queued FROM geo.parcels WHERE ${
          url === AVS_EDITOR_API.multiParcel
            ? 'address_count > 1 AND reviewed_at IS NULL'
            : 'address_count = 0'
        } AND parcel_type_id NOT IN (90, 100) AND data_quality_id NOT IN (-10, -90)`,
      );
      expect(ids).toHaveLength(Math.min(20, queued));
      expect(new Set(ids).size).toBe(ids.length);
      const holders = await sql<{ n: number }>(
        `SELECT count(DISTINCT held_by)::int AS n FROM geo.parcels WHERE id = ANY($1::bigint[])`,
        [ids],
      );
      expect(holders[0].n).toBe(ids.length);
    }
  });

  it('answers an empty queue with no parcel', async () => {
    await sql(
      "UPDATE geo.parcels SET held_until = now() + interval '1 hour', held_by = gen_random_uuid() WHERE address_count > 1",
    );
    const answer = (await call(OPERATOR, 'GET', AVS_EDITOR_API.multiParcel)).json<DequeueParcelAnswer>();
    expect(answer).toEqual({ success: true, parcel: null, remaining: 0 });
  });
});

describe('edits', () => {
  beforeEach(releaseAll);

  async function lowQualityAddress() {
    const [row] = await sql<{ id: string; version: number; parcel_id: string }>(
      `SELECT id::text AS id, version, parcel_id::text AS parcel_id FROM geo.addresses
       WHERE quality < 25 AND review IS NULL AND parcel_id IS NOT NULL ORDER BY id LIMIT 1`,
    );
    return row;
  }

  it('accepts an address with a quality, with an audit row (who, when, before → after)', async () => {
    const address = await lowQualityAddress();
    const response = await call(OPERATOR, 'POST', AVS_EDITOR_API.accept(address.id), {
      version: address.version,
      quality: 'DDS',
    });
    expect(response.statusCode).toBe(200);
    const { address: after } = response.json<AddressEditAnswer>();
    expect(after).toMatchObject({
      quality: 40,
      qualityCode: 'DDS',
      review: 'accepted',
      version: address.version + 1,
      editedBy: OPERATOR,
    });
    const [audit] = await sql<{
      user_email: string;
      action: string;
      before: { quality: number };
      after: { quality: number };
      at: Date;
    }>(
      `SELECT user_email, action, before, after, at FROM avs_editor.edits WHERE entity = 'address' AND entity_id = $1`,
      [address.id],
    );
    expect(audit).toMatchObject({ user_email: OPERATOR, action: 'accept' });
    expect(audit.before.quality).toBeLessThan(25);
    expect(audit.after.quality).toBe(40);
    expect(Date.now() - new Date(audit.at).getTime()).toBeLessThan(60_000);
    const edits = (
      await call(OPERATOR, 'GET', AVS_EDITOR_API.edits(address.parcel_id))
    ).json<EditorEditsAnswer>();
    expect(edits.edits[0]).toMatchObject({ action: 'accept', entity: 'address', entityId: address.id });
  });

  it('refuses Accept once the quality is 25 or more (409 with the address as it is)', async () => {
    const [address] = await sql<{ id: string; version: number }>(
      `SELECT id::text AS id, version FROM geo.addresses WHERE quality >= 25 ORDER BY id LIMIT 1`,
    );
    const response = await call(OPERATOR, 'POST', AVS_EDITOR_API.accept(address.id), {
      version: address.version,
      quality: 'SV',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      message: EDIT_TEXT.acceptDisabled,
      current: { addressId: address.id },
    });
    // Reject takes any quality.
    const rejected = await call(OPERATOR, 'POST', AVS_EDITOR_API.reject(address.id), {
      version: address.version,
      quality: 'CNF',
    });
    expect(rejected.json<AddressEditAnswer>().address).toMatchObject({ review: 'rejected', quality: 25 });
    const bad = await call(OPERATOR, 'POST', AVS_EDITOR_API.reject(address.id), {
      version: 2,
      quality: 'XX',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('answers a stale edit with 409 and the current state, never overwriting', async () => {
    const address = await lowQualityAddress();
    const first = await call(OPERATOR, 'POST', AVS_EDITOR_API.official(address.id), {
      version: address.version,
    });
    expect(first.json<AddressEditAnswer>().address.official).toBe(true);
    const stale = await call(QC, 'POST', AVS_EDITOR_API.reject(address.id), {
      version: address.version,
      quality: 'CNF',
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      message: EDIT_TEXT.stale('address', address.version + 1),
      current: { addressId: address.id, official: true, version: address.version + 1 },
    });
    const [row] = await sql<{ review: string | null; quality: number }>(
      'SELECT review, quality FROM geo.addresses WHERE id = $1',
      [address.id],
    );
    expect(row.review).toBeNull();
    const again = await call(OPERATOR, 'POST', AVS_EDITOR_API.official(address.id), {
      version: address.version + 1,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(EDIT_TEXT.alreadyOfficial);
  });

  it("refuses edits of a parcel another operator holds, and keeps the holder's hold alive", async () => {
    const held = (await call(OPERATOR, 'GET', AVS_EDITOR_API.multiParcel)).json<DequeueParcelAnswer>()
      .parcel!;
    const [address] = await sql<{ id: string; version: number }>(
      'SELECT id::text AS id, version FROM geo.addresses WHERE parcel_id = $1 ORDER BY id LIMIT 1',
      [held.parcelId],
    );
    const refused = await call(QC, 'POST', AVS_EDITOR_API.official(address.id), { version: address.version });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(new RegExp(`^Erf \\d+ is being worked on by ${OPERATOR} until`));
    await sql(`UPDATE geo.parcels SET held_until = now() + interval '1 minute' WHERE id = $1`, [
      held.parcelId,
    ]);
    await call(OPERATOR, 'POST', AVS_EDITOR_API.reject(address.id), {
      version: address.version,
      quality: 'EST',
    });
    const [{ held_until }] = await sql<{ held_until: Date }>(
      'SELECT held_until FROM geo.parcels WHERE id = $1',
      [held.parcelId],
    );
    expect(new Date(held_until).getTime()).toBeGreaterThan(Date.now() + 500_000);
  });

  it('adds a street number that the address service finds at once by search and reverse', async () => {
    const parcel = await parcelWhere(EMPTY_NEAR_ROAD);
    const { data } = (
      await call(OPERATOR, 'GET', AVS_EDITOR_API.pointData(parcel.lat, parcel.lng))
    ).json<PointDataAnswer>();
    const road = data.closestRoads[0];
    const [{ number }] = await sql<{ number: number }>(
      `SELECT coalesce(max(number_value), 0) + 401 AS number FROM geo.addresses WHERE street_id = $1`,
      [road.roadId],
    );
    const body = {
      parcelId: parcel.id,
      parcelVersion: parcel.version,
      lat: parcel.lat,
      lng: parcel.lng,
      roadId: road.roadId,
      houseNumber: `${number}b`,
    };
    const response = await call(OPERATOR, 'POST', AVS_EDITOR_API.addAddress, body);
    expect(response.statusCode).toBe(200);
    const { address } = response.json<AddressEditAnswer>();
    expect(address).toMatchObject({
      houseNumber: `${number}B`,
      streetName: road.roadNameEng,
      parcelId: parcel.id,
      quality: 25,
      editedBy: OPERATOR,
    });

    const search = await locatorPost<SearchAnswer>(AVS_API.search, {
      query: `${number}B ${road.roadNameEng}, ${road.town}`,
    });
    expect(search.result[0]).toMatchObject({ id: address.addressId, type: 'address' });
    const reverse = await locatorPost<ReverseAnswer>(AVS_API.reverse, { lat: parcel.lat, lng: parcel.lng });
    expect(reverse.result.parcel?.id).toBe(parcel.id);
    expect(reverse.result.address?.id).toBe(address.addressId);
    expect(reverse.result.parcel?.addresses.map((a) => a.id)).toEqual([address.addressId]);

    // The parcel moved on: a second add naming the old version is stale, the same number is refused.
    const stale = await call(OPERATOR, 'POST', AVS_EDITOR_API.addAddress, {
      ...body,
      houseNumber: `${number + 2}`,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({
      parcelId: parcel.id,
      version: parcel.version + 1,
      addressCount: 1,
    });
    const duplicate = await call(OPERATOR, 'POST', AVS_EDITOR_API.addAddress, {
      ...body,
      parcelVersion: parcel.version + 1,
    });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().message).toBe(
      EDIT_TEXT.duplicate(`${number}B`, null, road.roadNameEng, road.suburb),
    );
    const [audit] = await sql<{ action: string; before: unknown; after: { houseNumber: string } }>(
      `SELECT action, before, after FROM avs_editor.edits WHERE entity = 'address' AND entity_id = $1`,
      [address.addressId],
    );
    expect(audit).toMatchObject({
      action: 'add-address',
      before: null,
      after: { houseNumber: `${number}B` },
    });
    // The parcel has an address now: it has left the empty-parcel queue.
    const [{ address_count }] = await sql<{ address_count: number }>(
      'SELECT address_count FROM geo.parcels WHERE id = $1',
      [parcel.id],
    );
    expect(address_count).toBe(1);
  });

  it('refuses bad numbers, points off the parcel or outside South Africa, and far roads (400)', async () => {
    const parcel = await parcelWhere(EMPTY_NEAR_ROAD);
    const { data } = (
      await call(OPERATOR, 'GET', AVS_EDITOR_API.pointData(parcel.lat, parcel.lng))
    ).json<PointDataAnswer>();
    const body = {
      parcelId: parcel.id,
      parcelVersion: parcel.version,
      lat: parcel.lat,
      lng: parcel.lng,
      roadId: data.closestRoads[0].roadId,
      houseNumber: '7',
    };
    const bad = await call(OPERATOR, 'POST', AVS_EDITOR_API.addAddress, { ...body, houseNumber: '7-9' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^The street number must be 1 to 5 digits/);
    const off = await call(OPERATOR, 'POST', AVS_EDITOR_API.addAddress, { ...body, lat: parcel.lat + 0.01 });
    expect(off.statusCode).toBe(400);
    expect(off.json().message).toMatch(/^The point is not inside Erf \d+/);
    const abroad = await call(OPERATOR, 'POST', AVS_EDITOR_API.addAddress, {
      ...body,
      lat: 51.5,
      lng: -0.12,
    });
    expect(abroad.json().message).toBe(READ_TEXT.outside);
    const [far] = await sql<{ id: string }>(
      `SELECT id::text AS id FROM geo.streets
       WHERE ST_Distance(geom::geography, ST_SetSRID(ST_MakePoint($1, $2), 4326)::geography) > 2000 LIMIT 1`,
      [parcel.lng, parcel.lat],
    );
    const farRoad = await call(OPERATOR, 'POST', AVS_EDITOR_API.addAddress, { ...body, roadId: far.id });
    expect(farRoad.statusCode).toBe(400);
    expect(farRoad.json().message).toMatch(/m from the point: pick one of the roads near it/);
    const missing = await call(OPERATOR, 'POST', AVS_EDITOR_API.addAddress, { lat: 1 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().messages.length).toBeGreaterThan(3);
  });

  it('adds POIs (a unit needs an estate) and detaches them', async () => {
    const estateParcel = await parcelWhere('parcel_type_id = 2 AND address_count > 1');
    const [address] = await sql<{ id: string }>(
      'SELECT id::text AS id FROM geo.addresses WHERE parcel_id = $1 ORDER BY id LIMIT 1',
      [estateParcel.id],
    );
    const unit = await call(OPERATOR, 'POST', AVS_EDITOR_API.addPoi, {
      parcelId: estateParcel.id,
      parcelVersion: estateParcel.version,
      lat: estateParcel.lat,
      lng: estateParcel.lng,
      name: 'Clubhouse',
      poiType: 11000,
      addressId: address.id,
    });
    expect(unit.statusCode).toBe(200);
    const poi = unit.json<PoiEditAnswer>().poi;
    expect(poi).toMatchObject({ name: 'Clubhouse', poiType: 11000, addressId: address.id });
    expect(poi.parentId).not.toBeNull();
    const found = await locatorPost<SearchAnswer>(AVS_API.search, { query: 'Clubhouse Stellenbosch' });
    expect(found.result.some((item) => item.id === poi.poiId && item.type === 'poi')).toBe(true);
    const detached = await call(OPERATOR, 'POST', AVS_EDITOR_API.detachPoi(poi.poiId), {
      version: poi.version,
    });
    expect(detached.json<PoiEditAnswer>().poi).toMatchObject({ addressId: null, parentId: null });
    const again = await call(OPERATOR, 'POST', AVS_EDITOR_API.detachPoi(poi.poiId), {
      version: poi.version + 1,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(EDIT_TEXT.notAttached);

    const plain = await parcelWhere(EMPTY_NEAR_ROAD);
    const noEstate = await call(OPERATOR, 'POST', AVS_EDITOR_API.addPoi, {
      parcelId: plain.id,
      parcelVersion: plain.version,
      lat: plain.lat,
      lng: plain.lng,
      name: 'Unit 4',
      poiType: 11000,
    });
    expect(noEstate.statusCode).toBe(400);
    expect(noEstate.json().message).toBe(EDIT_TEXT.estateMissing);
    const badType = await call(OPERATOR, 'POST', AVS_EDITOR_API.addPoi, {
      parcelId: plain.id,
      parcelVersion: plain.version,
      lat: plain.lat,
      lng: plain.lng,
      name: 'Farm stall',
      poiType: 12000,
    });
    expect(badType.statusCode).toBe(400);
  });

  it('applies the Investigate and Un-Addressable disable rules on the server; validators validate', async () => {
    const parcel = await parcelWhere(EMPTY_NEAR_ROAD);
    const investigated = await call(OPERATOR, 'POST', AVS_EDITOR_API.investigate(parcel.id), {
      version: parcel.version,
    });
    expect(investigated.json<ParcelEditAnswer>().parcel).toMatchObject({
      parcelTypeId: 90,
      dataQualityId: -10,
    });
    const twice = await call(OPERATOR, 'POST', AVS_EDITOR_API.investigate(parcel.id), {
      version: parcel.version + 1,
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(EDIT_TEXT.investigateDisabled);

    // Investigated, it waits for a validator: the validators' queue hands it out.
    const queue = (await call(QC, 'GET', AVS_EDITOR_API.dequeueValidateParcel)).json<DequeueParcelAnswer>();
    expect(queue.parcel).not.toBeNull();
    const [{ first }] = await sql<{ first: string }>(
      'SELECT min(id)::text AS first FROM geo.parcels WHERE parcel_type_id = 90 OR data_quality_id = -10',
    );
    expect(queue.parcel!.parcelId).toBe(first);
    await call(QC, 'POST', AVS_EDITOR_API.release, { kind: 'parcel', id: queue.parcel!.parcelId });

    const notValidator = await call(OPERATOR, 'POST', AVS_EDITOR_API.validateParcel(parcel.id), {
      version: parcel.version + 1,
      parcelTypeId: 1,
    });
    expect(notValidator.statusCode).toBe(403);
    const wrongType = await call(QC, 'POST', AVS_EDITOR_API.validateParcel(parcel.id), {
      version: parcel.version + 1,
      parcelTypeId: 90,
    });
    expect(wrongType.statusCode).toBe(400);
    const validated = await call(QC, 'POST', AVS_EDITOR_API.validateParcel(parcel.id), {
      version: parcel.version + 1,
      parcelTypeId: 1,
    });
    expect(validated.json<ParcelEditAnswer>().parcel).toMatchObject({ parcelTypeId: 1, dataQualityId: 1 });

    const unaddressable = await call(OPERATOR, 'POST', AVS_EDITOR_API.unaddressable(parcel.id), {
      version: parcel.version + 2,
    });
    expect(unaddressable.json<ParcelEditAnswer>().parcel).toMatchObject({
      parcelTypeId: 100,
      dataQualityId: -90,
    });
    const refused = await call(OPERATOR, 'POST', AVS_EDITOR_API.unaddressable(parcel.id), {
      version: parcel.version + 3,
    });
    expect(refused.json().message).toBe(EDIT_TEXT.unAddressableDisabled);
    // Un-addressable: no address goes on it, and it is out of the empty-parcel queue.
    const { data } = (
      await call(OPERATOR, 'GET', AVS_EDITOR_API.pointData(parcel.lat, parcel.lng))
    ).json<PointDataAnswer>();
    const add = await call(OPERATOR, 'POST', AVS_EDITOR_API.addAddress, {
      parcelId: parcel.id,
      parcelVersion: parcel.version + 3,
      lat: parcel.lat,
      lng: parcel.lng,
      roadId: data.closestRoads[0].roadId,
      houseNumber: '3',
    });
    expect(add.statusCode).toBe(409);
    expect(add.json().message).toMatch(/is un-addressable/);
    const audit = await sql<{ action: string }>(
      `SELECT action FROM avs_editor.edits WHERE entity = 'parcel' AND entity_id = $1 ORDER BY id`,
      [parcel.id],
    );
    expect(audit.map((row) => row.action)).toEqual(['investigate', 'validate', 'unaddressable']);
  });

  it("takes a parcel marked done out of the multi-address queue ('Parcel done')", async () => {
    const taken = (await call(OPERATOR, 'GET', AVS_EDITOR_API.multiParcel)).json<DequeueParcelAnswer>()
      .parcel!;
    const done = await call(OPERATOR, 'POST', AVS_EDITOR_API.reviewed(taken.parcelId), {
      version: taken.version,
    });
    expect(done.json<ParcelEditAnswer>().parcel).toMatchObject({ reviewed: true, heldBy: null });
    await releaseAll();
    const next = (await call(OPERATOR, 'GET', AVS_EDITOR_API.multiParcel)).json<DequeueParcelAnswer>()
      .parcel!;
    expect(next.parcelId).not.toBe(taken.parcelId);
  });
});

describe("can't-locate requests", () => {
  async function cantLocate(query: string, status = 'New'): Promise<string> {
    const user = await db.dataSource.getRepository(UserEntity).findOneByOrFail({ email: PLAIN });
    const [row] = await sql<{ id: string }>(
      `INSERT INTO requests.requests (request_type, request_sub_type, status, user_id, user_name, user_email, address,
         query, additional, cant_locate)
       VALUES ('AVS', 'Can''t Locate', $1, $2, $3, $4, '', $5, 'Behind the school', true)
       RETURNING id::text AS id`,
      [status, user.id, user.name, user.email, query],
    );
    return row.id;
  }

  beforeAll(async () => {
    await sql(`DELETE FROM requests.requests`);
  });

  it('hands each operator a different request, and resolves one with an address: Finalised, history, audit, event', async () => {
    const first = await cantLocate('Plot 12, Vaalbank road');
    const second = await cantLocate('The old mill, Jonkershoek');
    await cantLocate('Somewhere', 'Finalised');
    const mine = (await call(OPERATOR, 'GET', AVS_EDITOR_API.cantLocate)).json<DequeueRequestAnswer>();
    expect(mine.request).toMatchObject({ requestId: first, query: 'Plot 12, Vaalbank road', status: 'New' });
    expect(mine.request!.comments).toBe('Behind the school');
    const theirs = (await call(QC, 'GET', `${AVS_EDITOR_API.cantLocate}/`)).json<DequeueRequestAnswer>();
    expect(theirs.request!.requestId).toBe(second);
    const none = (await call(ADMIN, 'GET', AVS_EDITOR_API.cantLocate)).json<DequeueRequestAnswer>();
    expect(none).toEqual({ success: true, request: null, remaining: 0 });

    const [address] = await sql<{ id: string; house_number: string; street_name: string }>(
      `SELECT id::text AS id, house_number, street_name FROM geo.addresses WHERE unit IS NULL ORDER BY id LIMIT 1`,
    );
    const subscriber = createRedis(redisUrl, 'avs-editor-test-events');
    const heard: string[] = [];
    await subscriber.subscribe(requestUpdatedChannel('portal'));
    subscriber.on('message', (_channel, message) => heard.push(message));

    const held = await call(QC, 'POST', AVS_EDITOR_API.resolveCantLocate(first), {
      version: 1,
      addressId: address.id,
    });
    expect(held.statusCode).toBe(409);
    expect(held.json().message).toBe(`This request is being worked on by ${OPERATOR}.`);
    const noPlace = await call(OPERATOR, 'POST', AVS_EDITOR_API.resolveCantLocate(first), { version: 1 });
    expect(noPlace.statusCode).toBe(400);
    const resolved = await call(OPERATOR, 'POST', AVS_EDITOR_API.resolveCantLocate(first), {
      version: 1,
      addressId: address.id,
    });
    expect(resolved.statusCode).toBe(200);
    const answer = resolved.json<ResolveCantLocateAnswer>();
    expect(answer).toMatchObject({ requestId: first, status: 'Finalised', version: 2 });
    expect(answer.address).toContain(`${address.house_number} ${address.street_name}`);
    const [request] = await sql<{
      status: string;
      lat: number;
      selected: { no: string; name: string; streetcode: string };
      date_finalised: Date | null;
      parcel_id: string | null;
    }>('SELECT status, lat, selected, date_finalised, parcel_id FROM requests.requests WHERE id = $1', [
      first,
    ]);
    expect(request.status).toBe('Finalised');
    expect(request.date_finalised).not.toBeNull();
    expect(request.selected).toMatchObject({ no: address.house_number, name: address.street_name });
    expect(request.selected.streetcode).toMatch(/^\d{4}$/);
    const history = await sql<{ field: string; to_value: string; user_name: string }>(
      'SELECT field, to_value, user_name FROM requests.request_history WHERE request_id = $1 ORDER BY id',
      [first],
    );
    expect(history.map((h) => `${h.field} → ${h.to_value}`)).toEqual([
      `address → ${answer.address}`,
      'status → Finalised',
    ]);
    const [audit] = await sql<{ action: string; user_email: string }>(
      `SELECT action, user_email FROM avs_editor.edits WHERE entity = 'request' AND entity_id = $1`,
      [first],
    );
    expect(audit).toEqual({ action: 'resolve-cant-locate', user_email: OPERATOR });
    await new Promise((r) => setTimeout(r, 200));
    expect(heard.map((m) => JSON.parse(m))).toContainEqual({ ids: [first], userIds: [expect.any(String)] });
    await subscriber.quit();

    // Stale, then already resolved.
    const stale = await call(OPERATOR, 'POST', AVS_EDITOR_API.resolveCantLocate(first), {
      version: 1,
      addressId: address.id,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ requestId: first, status: 'Finalised', version: 2 });
    const done = await call(OPERATOR, 'POST', AVS_EDITOR_API.resolveCantLocate(first), {
      version: 2,
      addressId: address.id,
    });
    expect(done.json().message).toBe("This request is already 'Finalised': there is nothing to resolve.");

    // A point placed without an address: the parcel under it names the place.
    const parcel = await parcelWhere(EMPTY_NEAR_ROAD);
    const byPoint = await call(QC, 'POST', AVS_EDITOR_API.resolveCantLocate(second), {
      version: 1,
      lat: parcel.lat,
      lng: parcel.lng,
    });
    expect(byPoint.json<ResolveCantLocateAnswer>().address).toMatch(/^Erf \d+/);
  });

  it('gives 20 operators dequeuing at once 20 different requests', async () => {
    const ids = await Promise.all(Array.from({ length: 25 }, (_, i) => cantLocate(`Request ${i}`)));
    const answers = await Promise.all(
      CROWD.map(async (email) =>
        (await call(email, 'GET', AVS_EDITOR_API.cantLocate)).json<DequeueRequestAnswer>(),
      ),
    );
    const taken = answers.map((answer) => answer.request?.requestId);
    expect(taken.every((id) => id && ids.includes(id))).toBe(true);
    expect(new Set(taken).size).toBe(20);
  });
});
