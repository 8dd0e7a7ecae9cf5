import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import MVT from 'ol/format/MVT';
import type RenderFeature from 'ol/render/Feature';
import { SESSION_COOKIE, TILES_API, type TileLayer } from '@portal/contracts';
import { createTestDatabase, type TestDatabase } from '@portal/db';
import { createRedis, ensureKeyPair } from '@portal/server-kit';
import { signTestSession } from '@portal/server-kit/testing';
import { buildApp } from './app';
import { loadLocatorConfig } from './config';
import { openDatabase } from './database';
import { MVT_CONTENT_TYPE, TILE_CACHE_CONTROL } from './routes/tiles';
import { tileBoundsDegrees } from './tiles/render';

jest.setTimeout(60_000);

const varDir = mkdtempSync(join(tmpdir(), 'locator-tiles-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const publicKeyFile = join(varDir, 'keys/jwt-public.pem');
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'locator-tiles-test');
let db: TestDatabase;
let appDatabase: DataSource;
let app: FastifyInstance;

/** Centre of the fixture town (Cape Town's city bowl). */
const CENTRE = { lat: -33.9249, lng: 18.4241 };

/** [lng, lat] of a point `east` and `north` metres from CENTRE (small distances: a local flat frame). */
function offset(east: number, north: number): [number, number] {
  const lat = CENTRE.lat + north / 110_574;
  const lng = CENTRE.lng + east / (111_320 * Math.cos((CENTRE.lat * Math.PI) / 180));
  return [lng, lat];
}
const wktPoint = ([lng, lat]: [number, number]) => `POINT(${lng} ${lat})`;
const ring = (corners: [number, number][]) =>
  [...corners, corners[0]].map(([lng, lat]) => `${lng} ${lat}`).join(', ');

const PARCEL_COLUMNS = 4;
const PARCEL_ROWS = 3;

async function insertFixtures(ds: DataSource): Promise<void> {
  // A rough outline of South Africa, the places a street map labels, three streets, a block of erven
  // (20 m x 30 m) with one address each.
  await ds.query(
    `INSERT INTO geo.places (kind, name, code, population, importance, point, geom, source, source_id) VALUES
      ('country', 'South Africa', 'ZA', 60000000, 1, ST_GeomFromText('POINT(24.7 -29.0)', 4326),
        ST_Multi(ST_GeomFromText('POLYGON((16.4 -28.6, 20.0 -24.7, 25.3 -25.7, 31.3 -22.4, 32.9 -26.9,
          30.0 -31.3, 27.0 -33.7, 22.0 -34.2, 20.0 -34.9, 18.3 -34.3, 16.4 -28.6))', 4326)), 'test', 'za'),
      ('province', 'Western Cape', 'WC', 7000000, 0.9, ST_GeomFromText('POINT(20.5 -33.2)', 4326), NULL,
        'test', 'wc'),
      ('town', 'Cape Town', NULL, 4700000, 0.95, ST_GeomFromText($1, 4326), NULL, 'test', 'cpt'),
      ('suburb', 'Gardens', NULL, 12000, 0.3, ST_GeomFromText($2, 4326), NULL, 'test', 'gardens')`,
    [wktPoint(offset(0, 0)), wktPoint(offset(-150, -120))],
  );
  const streets: [string, [number, number][]][] = [
    ['Kloof Street', [offset(-200, -10), offset(200, -10)]],
    ['Long Street', [offset(-200, 100), offset(200, 100)]],
    ['Bree Street', [offset(-10, -200), offset(-10, 200)]],
  ];
  for (const [index, [name, points]] of streets.entries()) {
    await ds.query(
      `INSERT INTO geo.streets (name, suburb, town, search_text, geom, source, source_id)
       VALUES ($1, 'Gardens', 'Cape Town', lower($1), ST_Multi(ST_GeomFromText($2, 4326)), 'test', $3)`,
      [name, `LINESTRING(${points.map(([lng, lat]) => `${lng} ${lat}`).join(', ')})`, `street-${index}`],
    );
  }
  for (let row = 0; row < PARCEL_ROWS; row++) {
    for (let column = 0; column < PARCEL_COLUMNS; column++) {
      const west = column * 20;
      const south = row * 30;
      const number = row * PARCEL_COLUMNS + column + 1;
      const [parcel] = (await ds.query(
        `INSERT INTO geo.parcels (parcel_number, portion, town, suburb, geom, source, source_id)
         VALUES ($1, $2, 'Cape Town', 'Gardens', ST_Multi(ST_GeomFromText($3, 4326)), 'test', $1)
         RETURNING id`,
        [
          String(1000 + number),
          column % 2,
          `POLYGON((${ring([offset(west, south), offset(west + 20, south), offset(west + 20, south + 30), offset(west, south + 30)])}))`,
        ],
      )) as { id: string }[];
      await ds.query(
        `INSERT INTO geo.addresses (house_number, number_value, street_name, suburb, town, postal_code, point,
                                    parcel_id, source, source_id)
         VALUES ($1, $2, 'Kloof Street', 'Gardens', 'Cape Town', '8001', ST_GeomFromText($3, 4326), $4, 'test', $1)`,
        [String(number), number, wktPoint(offset(west + 10, south + 15)), parcel.id],
      );
    }
  }
}

// Sessions are signed here with the throwaway private key, as identity would sign them.
function sessionCookie(): Record<string, string> {
  return {
    [SESSION_COOKIE]: signTestSession(privateKeyFile, { sub: randomUUID(), email: 'user@portal.test' }),
  };
}

beforeAll(async () => {
  ensureKeyPair(privateKeyFile, publicKeyFile);
  db = await createTestDatabase();
  await insertFixtures(db.dataSource);
  const config = { ...loadLocatorConfig({ VAR_DIR: varDir, NODE_ENV: 'test' }), logLevel: 'silent' };
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

/** The XYZ tile holding a point at zoom z. */
function tileOf(z: number, [lng, lat]: [number, number]): { z: number; x: number; y: number } {
  const tiles = 2 ** z;
  const x = Math.floor(((lng + 180) / 360) * tiles);
  const radians = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(radians) + 1 / Math.cos(radians)) / Math.PI) / 2) * tiles);
  return { z, x, y };
}

const centreTile = (z: number) => tileOf(z, offset(40, 45));

function getTile(layer: string, { z, x, y }: { z: number; x: number; y: number }, headers = {}) {
  return app.inject({
    method: 'GET',
    url: TILES_API.tile(layer as TileLayer, z, x, y),
    cookies: sessionCookie(),
    headers,
  });
}

/** The tile's features, read by OpenLayers' MVT reader (what the web map uses). */
function decode(body: Buffer): RenderFeature[] {
  const bytes = new Uint8Array(body).buffer;
  return new MVT().readFeatures(bytes) as RenderFeature[];
}

const namesOf = (features: RenderFeature[], property: string) =>
  features.map((feature) => String(feature.get(property))).sort();

describe('GET /api/v1.0/tiles/{layer}/{z}/{x}/{y}.mvt', () => {
  it('answers 401 without a session, before looking at the tile', async () => {
    const { z, x, y } = centreTile(16);
    for (const url of [TILES_API.tile('parcels', z, x, y), '/api/v1.0/tiles/nope/99/0/0.mvt']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(401);
    }
  });

  it('serves the parcels of a z16 tile with their ids (as feature ids), numbers and portions', async () => {
    const res = await getTile('parcels', centreTile(16));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(MVT_CONTENT_TYPE);
    expect(res.headers['cache-control']).toBe(TILE_CACHE_CONTROL);
    const features = decode(res.rawPayload);
    expect(features).toHaveLength(PARCEL_COLUMNS * PARCEL_ROWS);
    expect(new Set(features.map((feature) => feature.get('layer')))).toEqual(new Set(['parcels']));
    expect(features.every((feature) => feature.getType() === 'Polygon')).toBe(true);
    expect(namesOf(features, 'parcel_number')).toEqual(
      Array.from({ length: PARCEL_COLUMNS * PARCEL_ROWS }, (_, i) => String(1001 + i)).sort(),
    );
    const ids = (await db.dataSource.query('SELECT id::text AS id FROM geo.parcels')) as { id: string }[];
    expect(features.map((feature) => String(feature.getId())).sort()).toEqual(
      ids.map((row) => row.id).sort(),
    );
    expect(new Set(features.map((feature) => feature.get('portion')))).toEqual(new Set([0, 1]));
  });

  it('leaves parcels out below zoom 14 and in empty country (204, no body)', async () => {
    for (const tile of [centreTile(13), centreTile(6), tileOf(16, [25.5, -30.5])]) {
      const res = await getTile('parcels', tile);
      expect(res.statusCode).toBe(204);
      expect(res.rawPayload).toHaveLength(0);
    }
  });

  it('serves addresses with house numbers from zoom 16', async () => {
    const res = await getTile('addresses', centreTile(17));
    expect(res.statusCode).toBe(200);
    const features = decode(res.rawPayload);
    expect(namesOf(features, 'house_number')).toEqual(
      Array.from({ length: PARCEL_COLUMNS * PARCEL_ROWS }, (_, i) => String(i + 1)).sort(),
    );
    expect(features.every((feature) => feature.getType() === 'Point' && Number(feature.getId()) > 0)).toBe(
      true,
    );
    expect((await getTile('addresses', centreTile(15))).statusCode).toBe(204);
  });

  it('serves named roads from zoom 11, none below', async () => {
    for (const z of [11, 14, 18]) {
      const res = await getTile('roads', tileOf(z, offset(-10, -10)));
      expect(res.statusCode).toBe(200);
      const features = decode(res.rawPayload);
      expect(namesOf(features, 'name')).toEqual(['Bree Street', 'Kloof Street', 'Long Street']);
      expect(features.every((feature) => feature.getType() === 'LineString')).toBe(true);
    }
    expect((await getTile('roads', centreTile(10))).statusCode).toBe(204);
  });

  it('labels the country at low zoom, provinces and towns in between, suburbs from zoom 12', async () => {
    const labelsAt = async (z: number, point: [number, number]) => {
      const res = await getTile('places', tileOf(z, point));
      expect(res.statusCode).toBe(200);
      return decode(res.rawPayload).map((feature) => `${feature.get('kind')}:${feature.get('name')}`);
    };
    expect(await labelsAt(2, [24.7, -29.0])).toEqual(['country:South Africa']);
    expect((await labelsAt(5, [20.5, -33.2])).sort()).toEqual(['province:Western Cape']);
    expect((await labelsAt(6, offset(0, 0))).sort()).toEqual(['province:Western Cape', 'town:Cape Town']);
    expect((await labelsAt(13, offset(0, 0))).sort()).toEqual(['suburb:Gardens', 'town:Cape Town']);
  });

  it('tags a tile with its content hash and answers 304 to a matching If-None-Match', async () => {
    const first = await getTile('parcels', centreTile(16));
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await getTile('parcels', centreTile(16));
    expect(again.headers.etag).toBe(etag);

    const revalidated = await getTile('parcels', centreTile(16), { 'if-none-match': `W/"other", ${etag}` });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.rawPayload).toHaveLength(0);
    expect(revalidated.headers.etag).toBe(etag);

    const stale = await getTile('parcels', centreTile(16), { 'if-none-match': '"not-this-one"' });
    expect(stale.statusCode).toBe(200);

    // New data, new content, new tag.
    await db.dataSource.query(`UPDATE geo.parcels SET portion = portion + 5 WHERE parcel_number = '1001'`);
    const changed = await getTile('parcels', centreTile(16), { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    await db.dataSource.query(`UPDATE geo.parcels SET portion = portion - 5 WHERE parcel_number = '1001'`);
  });

  it('answers 404 for an unknown layer', async () => {
    const res = await getTile('buildings', centreTile(16));
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(
      "Unknown tile layer 'buildings'. Layers: places, roads, parcels, addresses.",
    );
  });

  it.each([
    ['a zoom above 22', '/23/0/0', /zoom must be an integer from 0 to 22, got '23'/],
    ['a zoom that is not a number', '/abc/0/0', /zoom must be an integer from 0 to 22, got 'abc'/],
    ['x beyond 2^z', '/2/4/0', /x must be an integer from 0 to 3, got '4'/],
    ['a negative y', '/2/0/-1', /y must be an integer from 0 to 3, got '-1'/],
    ['a fractional x', '/5/1.5/0', /x must be an integer from 0 to 31/],
    ['a huge number', '/3/99999999999/0', /x must be an integer from 0 to 7/],
  ])('answers 400 for %s', async (_case, path, message) => {
    const res = await app.inject({
      method: 'GET',
      url: `${TILES_API.prefix}parcels${path}.mvt`,
      cookies: sessionCookie(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  });
});

describe('tileBoundsDegrees', () => {
  it('is the tile in degrees, grown by the buffer and clamped to the world', () => {
    for (const buffer of [0, 256]) {
      const world = tileBoundsDegrees({ z: 0, x: 0, y: 0 }, buffer);
      [-180, -85.0511, 180, 85.0511].forEach((limit, i) => expect(world[i]).toBeCloseTo(limit, 4));
    }
    const [west, south, east, north] = tileBoundsDegrees({ z: 1, x: 1, y: 1 });
    expect([west, east, north]).toEqual([0, 180, 0]);
    expect(south).toBeCloseTo(-85.0511, 4);
    const grown = tileBoundsDegrees({ z: 1, x: 1, y: 1 }, 64);
    expect(grown[0]).toBeCloseTo(-180 * (64 / 4096), 9);
    expect(grown[3]).toBeGreaterThan(0);
  });
});
