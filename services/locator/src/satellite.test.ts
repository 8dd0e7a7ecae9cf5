import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import sharp from 'sharp';
import { SESSION_COOKIE, TILES_API } from '@portal/contracts';
import { createTestDatabase, type TestDatabase } from '@portal/db';
import { createRedis, ensureKeyPair } from '@portal/server-kit';
import { signTestSession } from '@portal/server-kit/testing';
import { buildApp } from './app';
import { loadLocatorConfig } from './config';
import { openDatabase } from './database';
import { TILE_CACHE_CONTROL } from './routes/tiles';

jest.setTimeout(60_000);

const varDir = mkdtempSync(join(tmpdir(), 'locator-satellite-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const publicKeyFile = join(varDir, 'keys/jwt-public.pem');
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'locator-satellite-test');
let db: TestDatabase;
let appDatabase: DataSource;
let app: FastifyInstance;
const config = { ...loadLocatorConfig({ VAR_DIR: varDir, NODE_ENV: 'test' }), logLevel: 'silent' as const };

/** Cape Town's city bowl. */
const CENTRE = { lat: -33.9249, lng: 18.4241 };

/** [lng, lat] of a point `east` and `north` metres from CENTRE. */
function offset(east: number, north: number): [number, number] {
  const lat = CENTRE.lat + north / 110_574;
  const lng = CENTRE.lng + east / (111_320 * Math.cos((CENTRE.lat * Math.PI) / 180));
  return [lng, lat];
}
const rectangle = (west: number, south: number, east: number, north: number) =>
  `POLYGON((${[
    offset(west, south),
    offset(east, south),
    offset(east, north),
    offset(west, north),
    offset(west, south),
  ]
    .map(([lng, lat]) => `${lng} ${lat}`)
    .join(', ')}))`;

async function insertFixtures(ds: DataSource): Promise<void> {
  // Two erven with a house each, a block of flats and a street along their south side.
  for (const [i, west] of [0, 20].entries()) {
    await ds.query(
      `INSERT INTO geo.parcels (parcel_number, portion, town, suburb, geom, source, source_id)
       VALUES ($1, 0, 'Cape Town', 'Gardens', ST_Multi(ST_GeomFromText($2, 4326)), 'test', $1)`,
      [String(2000 + i), rectangle(west, 0, west + 20, 30)],
    );
    await ds.query(
      `INSERT INTO geo.buildings (kind, levels, height_m, roof, geom, source, source_id)
       VALUES ('house', 1, 3.5, 'pitched', ST_GeomFromText($1, 4326), 'test', $2)`,
      [rectangle(west + 4, 4, west + 16, 16), `house-${i}`],
    );
  }
  await ds.query(
    `INSERT INTO geo.buildings (kind, levels, height_m, roof, geom, source, source_id)
     VALUES ('flats', 4, 12, 'flat', ST_GeomFromText($1, 4326), 'test', 'flats')`,
    [rectangle(45, 0, 75, 25)],
  );
  const [[westLng, westLat], [eastLng, eastLat]] = [offset(-100, -8), offset(150, -8)];
  await ds.query(
    `INSERT INTO geo.streets (name, suburb, town, search_text, geom, source, source_id)
     VALUES ('Kloof Street', 'Gardens', 'Cape Town', 'kloof street', ST_Multi(ST_GeomFromText($1, 4326)),
             'test', 'kloof')`,
    [`LINESTRING(${westLng} ${westLat}, ${eastLng} ${eastLat})`],
  );
}

function sessionCookie(): Record<string, string> {
  return {
    [SESSION_COOKIE]: signTestSession(privateKeyFile, { sub: randomUUID(), email: 'user@portal.test' }),
  };
}

beforeAll(async () => {
  ensureKeyPair(privateKeyFile, publicKeyFile);
  db = await createTestDatabase();
  await insertFixtures(db.dataSource);
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

const satelliteUrl = ({ z, x, y }: { z: number; x: number; y: number }) =>
  TILES_API.satellite.replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y));

function getSatellite(url: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url, cookies: sessionCookie(), headers });
}

describe('GET /api/v1.0/tiles/satellite/{z}/{x}/{y}.jpg', () => {
  it('renders a 512-pixel JPEG of the tile from the parcels, streets and buildings in it', async () => {
    const res = await getSatellite(satelliteUrl(tileOf(18, offset(30, 10))));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toBe(TILE_CACHE_CONTROL);
    expect(res.headers.etag).toMatch(/^".+"$/);
    const metadata = await sharp(res.rawPayload).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 512, height: 512 });
    // Not a blank ground: roofs, road and parcels give the picture some contrast.
    const stats = await sharp(res.rawPayload).stats();
    expect(stats.channels[0].max - stats.channels[0].min).toBeGreaterThan(60);
  });

  it('serves a tile again from storage with the same ETag, and 304 for If-None-Match', async () => {
    const url = satelliteUrl(tileOf(17, offset(30, 10)));
    const first = await getSatellite(url);
    expect(first.statusCode).toBe(200);
    const stored = readdirSync(config.imageryStorageDir, { recursive: true }).map(String);
    expect(stored.some((name) => /satellite\/17\/.+\.jpg$/.test(name))).toBe(true);
    const second = await getSatellite(url);
    expect(second.statusCode).toBe(200);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    const notModified = await getSatellite(url, { 'if-none-match': String(first.headers.etag) });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload).toHaveLength(0);
  });

  it('answers 204 below zoom 13 and for a tile with nothing to draw', async () => {
    for (const tile of [tileOf(12, offset(30, 10)), tileOf(6, offset(30, 10)), tileOf(16, [25.5, -30.5])]) {
      const res = await getSatellite(satelliteUrl(tile));
      expect(res.statusCode).toBe(204);
      expect(res.rawPayload).toHaveLength(0);
    }
  });

  it('answers 400 for an impossible tile', async () => {
    for (const url of [
      '/api/v1.0/tiles/satellite/16/70000/1.jpg',
      '/api/v1.0/tiles/satellite/abc/1/1.jpg',
      '/api/v1.0/tiles/satellite/99/0/0.jpg',
    ]) {
      const res = await getSatellite(url);
      expect(res.statusCode).toBe(400);
    }
  });

  it('answers 401 without a session', async () => {
    const res = await app.inject({ method: 'GET', url: satelliteUrl(tileOf(18, offset(30, 10))) });
    expect(res.statusCode).toBe(401);
  });
});
