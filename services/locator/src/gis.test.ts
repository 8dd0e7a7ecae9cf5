import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { DataSource } from 'typeorm';
import MVT from 'ol/format/MVT';
import type RenderFeature from 'ol/render/Feature';
import {
  OGC_API,
  OGC_COLLECTIONS,
  OGC_MAX_LIMIT,
  SESSION_COOKIE,
  TILE_LAYERS,
  TILES_API,
  type OgcCollection,
  type OgcCollections,
  type OgcFeature,
  type OgcFeatureCollection,
  type OgcLink,
  type TileJson,
  type TileLayer,
} from '@portal/contracts';
import { createTestDatabase, insertApiKeyRows, type TestDatabase } from '@portal/db';
import { generateGeodata } from '@portal/geo';
import { createRedis, ensureKeyPair, newApiKey } from '@portal/server-kit';
import { signTestSession } from '@portal/server-kit/testing';
import { buildApp } from './app';
import { loadLocatorConfig } from './config';
import { openDatabase } from './database';
import { TILE_LAYER_DEFINITIONS } from './tiles/layers';

/**
 * The portal opened to GIS tools (issue 23) over generated geodata: TileJSON for each vector tile layer
 * (its fields are what the tiles really carry), OGC API – Features (landing, conformance, collections,
 * paged items with bbox and datetime, single items), the route gate (session or API key), and GDAL's own
 * ogrinfo reading the listening portal with an API key.
 */

jest.setTimeout(120_000);

const run = promisify(execFile);
const varDir = mkdtempSync(join(tmpdir(), 'locator-gis-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'locator-gis-test');
let db: TestDatabase;
let appDatabase: DataSource;
let app: FastifyInstance;
let publicUrl: string;
let spatialKey: string;
let avsOnlyKey: string;
let staffKey: string;

const session = () =>
  signTestSession(privateKeyFile, { sub: '00000000-0000-4000-8000-000000000002', email: 'user@portal.test' });

const staffSession = () =>
  signTestSession(privateKeyFile, {
    sub: '00000000-0000-4000-8000-000000000003',
    email: 'operator@portal.test',
    roles: ['authenticated', 'saviOperator'],
  });

const get = (url: string, options: Partial<InjectOptions> = {}) =>
  app.inject({ method: 'GET', url, cookies: { [SESSION_COOKIE]: session() }, ...options });

/** A port nobody listens on now, so PUBLIC_URL can name it before the app is built. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function makeKey(services: string[], roles: string[] = []): Promise<string> {
  const made = newApiKey();
  const [group] = (await db.dataSource.query(`SELECT id FROM identity.groups WHERE code = 'KMI'`)) as {
    id: string;
  }[];
  await insertApiKeyRows(db.dataSource, {
    groupId: group.id,
    name: 'gis client',
    prefix: made.prefix,
    secretHash: made.secretHash,
    services,
    scope: 'read',
    roles,
  });
  return made.key;
}

beforeAll(async () => {
  ensureKeyPair(privateKeyFile, join(varDir, 'keys/jwt-public.pem'));
  db = await createTestDatabase({ seed: true });
  await generateGeodata(db.dataSource, { scale: 600, seed: 'gis-test', towns: ['Stellenbosch'] });
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  const config = {
    ...loadLocatorConfig({ VAR_DIR: varDir, NODE_ENV: 'test', PUBLIC_URL: publicUrl }),
    logLevel: 'silent' as const,
    imageryStorageDir: join(varDir, 'imagery'),
  };
  appDatabase = await openDatabase(db.url);
  app = await buildApp(config, { ds: appDatabase, redis });
  await app.listen({ port, host: '127.0.0.1' });
  spatialKey = await makeKey(['spatialkey']);
  avsOnlyKey = await makeKey(['avs']);
  staffKey = await makeKey(['spatialkey'], ['saviOperator']);
  // Three requests in Stellenbosch (one logged at 01:00 South African time, the day before in UTC) and one
  // that could not be located.
  const [user] = (await db.dataSource.query(`SELECT id FROM identity.users LIMIT 1`)) as { id: string }[];
  for (const [created, lng, lat] of [
    ['2025-03-01T10:00:00+02:00', 18.86, -33.93],
    ['2025-03-04T01:00:00+02:00', 18.861, -33.931],
    ['2025-03-05T08:00:00+02:00', 18.862, -33.932],
    ['2025-03-05T09:00:00+02:00', null, null],
  ] as const)
    await db.dataSource.query(
      `INSERT INTO requests.requests (request_type, user_id, user_name, user_email, lat, lng, point, created_at)
       VALUES ('SAVI', $1, 'Test', 'user@portal.test', $2::float8, $3::float8,
               CASE WHEN $2::float8 IS NULL THEN NULL ELSE ST_SetSRID(ST_MakePoint($2, $3), 4326) END, $4)`,
      [user.id, lng, lat, created],
    );
});

afterAll(async () => {
  await app?.close();
  await appDatabase?.destroy();
  await db?.drop();
  await redis.quit();
});

const one = async <T>(sql: string, params: unknown[] = []) =>
  ((await db.dataSource.query(sql, params)) as T[])[0];

/** The tile of zoom z over a point. */
function tileAt(lng: number, lat: number, z: number): { z: number; x: number; y: number } {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  return {
    z,
    x: Math.floor(((lng + 180) / 360) * n),
    y: Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n),
  };
}

/** A point of each layer's table, to ask for a tile with features in it. */
const LAYER_POINTS: Record<TileLayer, string> = {
  places: `SELECT ST_X(point) AS lng, ST_Y(point) AS lat FROM geo.places WHERE kind = 'town' LIMIT 1`,
  roads: `SELECT ST_X(p) AS lng, ST_Y(p) AS lat FROM (SELECT ST_PointOnSurface(geom) p FROM geo.streets LIMIT 1) s`,
  parcels: `SELECT ST_X(p) AS lng, ST_Y(p) AS lat FROM (SELECT ST_PointOnSurface(geom) p FROM geo.parcels LIMIT 1) s`,
  addresses: `SELECT ST_X(point) AS lng, ST_Y(point) AS lat FROM geo.addresses LIMIT 1`,
};

describe('TileJSON', () => {
  it.each(TILE_LAYERS)('describes the %s layer as its tiles carry it', async (layer) => {
    const answer = await get(`${TILES_API.prefix}${layer}.json`);
    expect(answer.statusCode).toBe(200);
    const doc = answer.json<TileJson>();
    expect(doc).toMatchObject({
      tilejson: '3.0.0',
      tiles: [`${publicUrl}${TILES_API.template(layer)}`],
      minzoom: TILE_LAYER_DEFINITIONS[layer].minZoom,
      maxzoom: 22,
    });
    const [west, south, east, north] = doc.bounds;
    // The generated Stellenbosch lies within these (18.8 E, 33.9 S); the places layer holds the country.
    expect(west).toBeLessThan(18.9);
    expect(east).toBeGreaterThan(18.8);
    expect(south).toBeLessThan(-33.9);
    expect(north).toBeGreaterThan(-34.0);
    expect(doc.vector_layers).toHaveLength(1);
    expect(doc.vector_layers[0].id).toBe(layer);

    // A real tile of the layer carries exactly the fields the document names, with their types.
    const point = await one<{ lng: number; lat: number }>(LAYER_POINTS[layer]);
    const { z, x, y } = tileAt(point.lng, point.lat, Math.max(doc.minzoom, layer === 'places' ? 10 : 16));
    const tile = await get(TILES_API.tile(layer, z, x, y));
    expect(tile.statusCode).toBe(200);
    const features = new MVT().readFeatures(new Uint8Array(tile.rawPayload).buffer, {
      extent: [0, 0, 4096, 4096],
    } as never) as RenderFeature[];
    expect(features.length).toBeGreaterThan(0);
    const seen: Record<string, string> = {};
    for (const feature of features) {
      const { layer: _layer, ...properties } = feature.getProperties();
      for (const [key, value] of Object.entries(properties))
        seen[key] = typeof value === 'number' ? 'Number' : typeof value === 'boolean' ? 'Boolean' : 'String';
    }
    expect(seen).toEqual(doc.vector_layers[0].fields);
  });

  it('does not clash with the tile routes: both answer, and an unknown layer is a 404', async () => {
    const parcel = await one<{ lng: number; lat: number }>(LAYER_POINTS.parcels);
    const { x, y } = tileAt(parcel.lng, parcel.lat, 16);
    expect((await get(TILES_API.tile('parcels', 16, x, y))).statusCode).toBe(200);
    expect((await get(`${TILES_API.prefix}parcels.json`)).statusCode).toBe(200);
    expect((await get(`${TILES_API.prefix}satellite/10/0/0.jpg`)).statusCode).toBe(204);
    const unknown = await get(`${TILES_API.prefix}rivers.json`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toContain('parcels');
  });
});

describe('OGC API – Features', () => {
  it('has a landing page, conformance and the collections with their extents', async () => {
    const landing = await get(OGC_API.landing);
    expect(landing.statusCode).toBe(200);
    expect(landing.headers['content-type']).toMatch(/^application\/json/);
    const rels = Object.fromEntries(landing.json<{ links: OgcLink[] }>().links.map((l) => [l.rel, l.href]));
    expect(rels).toEqual({
      self: `${publicUrl}/ogc`,
      'service-desc': `${publicUrl}/api/openapi.json`,
      conformance: `${publicUrl}/ogc/conformance`,
      data: `${publicUrl}/ogc/collections`,
    });
    const conformance = await get(`${OGC_API.conformance}?f=json`);
    expect(conformance.json().conformsTo).toContain(
      'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
    );
    expect((await get(`${OGC_API.landing}?f=html`)).statusCode).toBe(400);

    const collections = (await get(OGC_API.collections)).json<OgcCollections>().collections;
    expect(collections.map((c) => c.id)).toEqual([...OGC_COLLECTIONS]);
    const byId = Object.fromEntries(collections.map((c) => [c.id, c]));
    expect(byId.parcels.extent.temporal).toBeUndefined();
    const [west, south, east, north] = byId.parcels.extent.spatial.bbox[0];
    expect(west).toBeLessThan(east);
    expect(south).toBeLessThan(north);
    const surveys = await one<{ first: string; last: string }>(
      `SELECT to_char(min(captured_on), 'YYYY-MM-DD') AS first, to_char(max(captured_on), 'YYYY-MM-DD') AS last
       FROM geo.imagery_coverage`,
    );
    expect(byId.surveys.extent.temporal?.interval).toEqual([[surveys.first, surveys.last]]);
    expect(byId.buildings.extent.temporal?.interval[0][1]).toBeNull();

    const single = await get(OGC_API.collection('buildings'));
    expect(single.json<OgcCollection>().links.map((l) => l.rel)).toEqual(['self', 'items']);
    expect((await get(OGC_API.collection('requests'))).statusCode).toBe(404);
  });

  it('pages the parcels in a box with next links until the last page, each parcel once', async () => {
    const box = await one<{ w: number; s: number; e: number; n: number }>(
      `SELECT ST_XMin(b) w, ST_YMin(b) s, ST_XMax(b) e, ST_YMax(b) n
       FROM (SELECT ST_Expand(ST_Centroid(ST_Extent(geom)), 0.003) b FROM geo.parcels) x`,
    );
    const bbox = [box.w, box.s, box.e, box.n];
    const expected = (
      (await db.dataSource.query(
        'SELECT p.id::text AS id FROM geo.parcels p WHERE geom && ST_MakeEnvelope($1, $2, $3, $4, 4326) ORDER BY p.id',
        bbox,
      )) as { id: string }[]
    ).map((row) => row.id);
    expect(expected.length).toBeGreaterThan(12);

    const ids: string[] = [];
    let url: string | undefined = `${OGC_API.items('parcels')}?bbox=${bbox.join(',')}&limit=5`;
    let pages = 0;
    while (url) {
      const answer = await get(url.replace(publicUrl, ''));
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^application\/geo\+json/);
      const page = answer.json<OgcFeatureCollection>();
      expect(page.numberReturned).toBe(page.features.length);
      expect(page.features.length).toBeLessThanOrEqual(5);
      ids.push(...page.features.map((f) => f.id));
      const next = page.links.find((l) => l.rel === 'next');
      if (!next) expect(page.numberMatched).toBe(expected.length);
      else expect(page.numberMatched).toBeUndefined();
      if (pages > 0) expect(page.links.some((l) => l.rel === 'prev')).toBe(true);
      url = next?.href;
      pages += 1;
    }
    expect(ids).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 5));
  });

  it('clamps a limit over the maximum, refuses bad parameters and serves single items', async () => {
    const clamped = (await get(`${OGC_API.items('addresses')}?limit=50000`)).json<OgcFeatureCollection>();
    expect(clamped.numberReturned).toBeLessThanOrEqual(OGC_MAX_LIMIT);
    const next = clamped.links.find((l) => l.rel === 'next');
    if (next) expect(next.href).toContain(`limit=${OGC_MAX_LIMIT}`);
    const bads = ['bbox=1,2,3', 'bbox=a,b,c,d', 'bbox=19,-33,18,-34', 'limit=0', 'offset=-1', 'bbx=1,2,3,4'];
    for (const bad of [...bads, 'bbox-crs=http://www.opengis.net/def/crs/EPSG/0/3857'])
      expect((await get(`${OGC_API.items('parcels')}?${bad}`)).statusCode).toBe(400);
    expect((await get(`${OGC_API.items('parcels')}?datetime=2020-01-01`)).statusCode).toBe(400);
    const crs84 = encodeURIComponent('http://www.opengis.net/def/crs/OGC/1.3/CRS84');
    expect((await get(`${OGC_API.items('parcels')}?limit=1&bbox-crs=${crs84}&f=json`)).statusCode).toBe(200);

    const [first] = (await get(`${OGC_API.items('addresses')}?limit=1`)).json<OgcFeatureCollection>()
      .features;
    const item = await get(OGC_API.item('addresses', first.id));
    expect(item.statusCode).toBe(200);
    expect(item.headers['content-type']).toMatch(/^application\/geo\+json/);
    const feature = item.json<OgcFeature>();
    expect(feature).toMatchObject({ type: 'Feature', id: first.id, geometry: { type: 'Point' } });
    expect(feature.properties).toHaveProperty('street_name');
    expect((await get(OGC_API.item('addresses', '999999999'))).statusCode).toBe(404);
    expect((await get(OGC_API.item('addresses', 'abc'))).statusCode).toBe(404);
  });

  it('selects buildings standing at a date and surveys captured in an interval', async () => {
    const dated = await one<{ day: string }>(
      `SELECT to_char(max(built_on), 'YYYY-MM-DD') AS day FROM geo.buildings WHERE built_on IS NOT NULL`,
    );
    expect(dated.day).not.toBeNull();
    const standing = await one<{ count: number }>(
      `SELECT count(*)::int AS count FROM geo.buildings
       WHERE (built_on IS NULL OR built_on <= $1::date - 1) AND (demolished_on IS NULL OR demolished_on > $1::date - 1)`,
      [dated.day],
    );
    const dayBefore = new Date(Date.parse(`${dated.day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const ids = new Set<string>();
    let url: string | undefined =
      `${OGC_API.items('buildings')}?datetime=${dayBefore}&limit=${OGC_MAX_LIMIT}`;
    while (url) {
      const page: OgcFeatureCollection = (await get(url.replace(publicUrl, ''))).json();
      for (const feature of page.features) ids.add(feature.id);
      url = page.links.find((l) => l.rel === 'next')?.href;
    }
    expect(ids.size).toBe(standing.count);
    const built = await one<{ id: string }>(
      `SELECT id::text FROM geo.buildings WHERE built_on = $1 LIMIT 1`,
      [dated.day],
    );
    expect(ids.has(built.id)).toBe(false);

    const survey = await one<{ day: string; count: number }>(
      `SELECT to_char(max(captured_on), 'YYYY-MM-DD') AS day,
              count(*) FILTER (WHERE captured_on = (SELECT max(captured_on) FROM geo.imagery_coverage))::int AS count
       FROM geo.imagery_coverage`,
    );
    const newest = (
      await get(`${OGC_API.items('surveys')}?datetime=${survey.day}T12:00:00Z/..`)
    ).json<OgcFeatureCollection>();
    expect(newest.numberReturned).toBe(survey.count);
    expect(newest.features.every((f) => f.properties.captured_on === survey.day)).toBe(true);
    expect((await get(`${OGC_API.items('surveys')}?datetime=2020-13-40`)).statusCode).toBe(400);
    expect((await get(`${OGC_API.items('surveys')}?datetime=../..`)).statusCode).toBe(400);
  });

  it('shows the requests collection to the operations team only', async () => {
    const staff = { cookies: { [SESSION_COOKIE]: staffSession() } };
    const ids = (answer: { json: () => unknown }) =>
      (answer.json() as OgcCollections).collections.map((collection) => collection.id);
    expect(ids(await get(OGC_API.collections))).not.toContain('requests');
    expect((await get(OGC_API.collection('requests'))).statusCode).toBe(404);
    expect((await get(OGC_API.items('requests'))).statusCode).toBe(404);
    expect(ids(await get(OGC_API.collections, staff))).toContain('requests');
    const keyed = { cookies: {}, headers: { authorization: `Bearer ${staffKey}` } };
    expect((await get(OGC_API.items('requests'), keyed)).statusCode).toBe(200);

    const collection = (await get(OGC_API.collection('requests'), staff)).json<OgcCollection>();
    expect(collection.extent.temporal?.interval).toEqual([['2025-03-01', null]]);
    const all = (await get(OGC_API.items('requests'), staff)).json<OgcFeatureCollection>();
    expect(all.numberReturned).toBe(4);
    expect(all.features.filter((f) => f.geometry === null)).toHaveLength(1);
    const inBox = (
      await get(`${OGC_API.items('requests')}?bbox=18.855,-33.935,18.8615,-33.925`, staff)
    ).json<OgcFeatureCollection>();
    expect(inBox.numberReturned).toBe(2);
    // 01:00 on the 4th in South Africa is the 3rd in UTC: the portal's days are South African.
    const fourth = (
      await get(`${OGC_API.items('requests')}?datetime=2025-03-04`, staff)
    ).json<OgcFeatureCollection>();
    expect(fourth.features.map((f) => f.properties.created_on)).toEqual(['2025-03-04']);
    const third = await get(`${OGC_API.items('requests')}?datetime=2025-03-03`, staff);
    expect(third.json<OgcFeatureCollection>().numberReturned).toBe(0);
    const fromFourth = (
      await get(`${OGC_API.items('requests')}?datetime=2025-03-04/..`, staff)
    ).json<OgcFeatureCollection>();
    expect(fromFourth.numberReturned).toBe(3);
    const item = await get(OGC_API.item('requests', fourth.features[0].id), staff);
    expect(item.json<OgcFeature>().properties).toMatchObject({ request_type: 'SAVI', status: 'New' });
    expect((await get(OGC_API.item('requests', fourth.features[0].id))).statusCode).toBe(404);
    expect((await get(OGC_API.item('requests', '12'), staff)).statusCode).toBe(404);
  });

  it('is behind the route gate: a session or a key holding spatialkey', async () => {
    const items = OGC_API.items('parcels');
    expect((await app.inject({ method: 'GET', url: items })).statusCode).toBe(401);
    const bearer = (key: string) => ({ cookies: {}, headers: { authorization: `Bearer ${key}` } });
    expect((await get(items, bearer(spatialKey))).statusCode).toBe(200);
    expect((await get(`${TILES_API.prefix}roads.json`, bearer(spatialKey))).statusCode).toBe(200);
    expect((await get(items, bearer(avsOnlyKey))).statusCode).toBe(403);
  });
});

/** GDAL's command-line reader, installed by the prepare step (Debian gdal-bin); absent only off CI. */
const OGRINFO = ['/usr/bin/ogrinfo', '/usr/local/bin/ogrinfo'].find((path) => existsSync(path));
if (!OGRINFO && process.env.CI)
  throw new Error('ogrinfo is missing on CI: the prepare step installs gdal-bin.');
const describeGdal = OGRINFO ? describe : describe.skip;
if (!OGRINFO)
  console.warn(
    'gis.test.ts: ogrinfo (GDAL) is not installed here, so the GDAL tests are skipped: apt-get install gdal-bin',
  );

describeGdal('GDAL reads the portal', () => {
  const ogrinfo = (args: string[]) =>
    run(OGRINFO as string, args, {
      env: {
        ...process.env,
        GDAL_HTTP_HEADERS: `Authorization: Bearer ${spatialKey}`,
        // No proxy between the test and the local app, and no GDAL cache between runs.
        NO_PROXY: '127.0.0.1',
        GDAL_HTTP_TIMEOUT: '30',
      },
      maxBuffer: 10_000_000,
    });

  it('lists the OGC API collections and counts the parcels in a box', async () => {
    const listing = await ogrinfo(['-ro', '-q', `OAPIF:${publicUrl}${OGC_API.landing}`]);
    for (const id of OGC_COLLECTIONS) expect(listing.stdout).toContain(id);

    const box = await one<{ w: number; s: number; e: number; n: number; count: number }>(
      `SELECT w, s, e, n, (SELECT count(*)::int FROM geo.parcels WHERE geom && ST_MakeEnvelope(w, s, e, n, 4326)) AS count
       FROM (SELECT ST_XMin(b) w, ST_YMin(b) s, ST_XMax(b) e, ST_YMax(b) n
             FROM (SELECT ST_Expand(ST_Centroid(ST_Extent(geom)), 0.004) b FROM geo.parcels) x) y`,
    );
    expect(box.count).toBeGreaterThan(0);
    const parcels = await ogrinfo([
      '-ro',
      '-so',
      '-spat',
      ...[box.w, box.s, box.e, box.n].map(String),
      `OAPIF:${publicUrl}${OGC_API.landing}`,
      'parcels',
    ]);
    expect(parcels.stdout).toContain('Feature Count');
    // GDAL counts by reading every page of the box (the next links), or trusts numberMatched.
    const counted = /Feature Count: (\d+)/.exec(parcels.stdout);
    expect(Number(counted?.[1])).toBe(box.count);
    expect(parcels.stdout).toMatch(/parcel_number: String/);
  });

  it('reads a vector tile of the parcels layer with the MVT driver', async () => {
    const parcel = await one<{ lng: number; lat: number }>(LAYER_POINTS.parcels);
    const { x, y } = tileAt(parcel.lng, parcel.lat, 16);
    const tile = await get(TILES_API.tile('parcels', 16, x, y), {
      cookies: {},
      headers: { authorization: `Bearer ${spatialKey}` },
    });
    expect(tile.statusCode).toBe(200);
    const file = join(varDir, `${y}.pbf`);
    writeFileSync(file, tile.rawPayload);
    const read = await ogrinfo([
      '-ro',
      '-so',
      '-oo',
      `X=${x}`,
      '-oo',
      `Y=${y}`,
      '-oo',
      'Z=16',
      `MVT:${file}`,
      'parcels',
    ]);
    expect(read.stdout).toMatch(/Feature Count: [1-9]/);
    expect(read.stdout).toMatch(/parcel_number: String/);
  });
});
