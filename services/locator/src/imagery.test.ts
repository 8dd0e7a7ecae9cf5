import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import type { DataSource } from 'typeorm';
import { IMAGERY_API, ORIENTATIONS, SESSION_COOKIE } from '@portal/contracts';
import { createTestDatabase, type TestDatabase } from '@portal/db';
import { LocalDiskStorage, createRedis, ensureKeyPair } from '@portal/server-kit';
import { signTestSession } from '@portal/server-kit/testing';
import { buildApp } from './app';
import { loadLocatorConfig, type LocatorConfig } from './config';
import { openDatabase } from './database';
import { IMAGE_CACHE_CONTROL } from './routes/imagery';

jest.setTimeout(60_000);

const varDir = mkdtempSync(join(tmpdir(), 'locator-imagery-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const publicKeyFile = join(varDir, 'keys/jwt-public.pem');
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'locator-imagery-test');
let db: TestDatabase;
let appDatabase: DataSource;
let app: FastifyInstance;
let config: LocatorConfig;
let storage: LocalDiskStorage;
const extraApps: FastifyInstance[] = [];
const servers: Server[] = [];

/** Inside high-resolution coverage (Cape Town's city bowl). */
const CENTRE = { lat: -33.9249, lng: 18.4241 };

function offset(east: number, north: number, from = CENTRE): { lat: number; lng: number } {
  return {
    lat: from.lat + north / 110_574,
    lng: from.lng + east / (111_320 * Math.cos((from.lat * Math.PI) / 180)),
  };
}
const lngLat = (east: number, north: number) => {
  const { lat, lng } = offset(east, north);
  return `${lng} ${lat}`;
};
const rectangle = (west: number, south: number, east: number, north: number) =>
  `POLYGON((${lngLat(west, south)}, ${lngLat(east, south)}, ${lngLat(east, north)}, ${lngLat(west, north)}, ${lngLat(west, south)}))`;

/** 1.5 km east: inside the ortho mosaic only. */
const ORTHO_ONLY = offset(1500, 0);
/** 30 km north-east, still in South Africa: no imagery at all. */
const NOT_COVERED = offset(30_000, 20_000);

async function insertFixtures(ds: DataSource): Promise<void> {
  await ds.query(
    `INSERT INTO geo.places (kind, name, code, point, geom, source, source_id) VALUES
      ('country', 'South Africa', 'ZA', ST_GeomFromText('POINT(24.7 -29.0)', 4326),
        ST_Multi(ST_GeomFromText('POLYGON((16.4 -28.6, 20.0 -24.7, 25.3 -25.7, 31.3 -22.4, 32.9 -26.9,
          30.0 -31.3, 27.0 -33.7, 22.0 -34.2, 20.0 -34.9, 18.3 -34.3, 16.4 -28.6))', 4326)), 'test', 'za')`,
  );
  await ds.query(
    `INSERT INTO geo.imagery_coverage (kind, name, captured_on, geom, source, source_id) VALUES
      ('high_resolution', 'City bowl 2025', '2025-02-10', ST_Multi(ST_GeomFromText($1, 4326)), 'test', 'hr'),
      ('ortho', 'Cape Peninsula mosaic', '2024-06-01', ST_Multi(ST_GeomFromText($2, 4326)), 'test', 'ortho')`,
    [rectangle(-400, -400, 400, 400), rectangle(-3000, -3000, 3000, 3000)],
  );
  // A street along the south of a block of four erven, each with a house; a double-storey block of
  // flats with a flat roof next door.
  await ds.query(
    `INSERT INTO geo.streets (name, search_text, geom, source, source_id)
     VALUES ('Kloof Street', 'kloof street', ST_Multi(ST_GeomFromText($1, 4326)), 'test', 'kloof')`,
    [`LINESTRING(${lngLat(-120, -12)}, ${lngLat(120, -12)})`],
  );
  for (let i = 0; i < 4; i++) {
    const west = -40 + i * 20;
    const [parcel] = (await ds.query(
      `INSERT INTO geo.parcels (parcel_number, geom, source, source_id)
       VALUES ($1, ST_Multi(ST_GeomFromText($2, 4326)), 'test', $1) RETURNING id`,
      [String(500 + i), rectangle(west, -5, west + 20, 30)],
    )) as { id: string }[];
    await ds.query(
      `INSERT INTO geo.buildings (parcel_id, kind, levels, height_m, roof, geom, source, source_id)
       VALUES ($1, 'house', 1, 3.5, 'pitched', ST_GeomFromText($2, 4326), 'test', $3)`,
      [parcel.id, rectangle(west + 4, 2, west + 16, 14), `house-${i}`],
    );
  }
  await ds.query(
    `INSERT INTO geo.buildings (kind, levels, height_m, roof, geom, source, source_id)
     VALUES ('flats', 4, 12, 'flat', ST_GeomFromText($1, 4326), 'test', 'flats')`,
    [rectangle(45, 0, 75, 25)],
  );
}

function sessionCookie(): Record<string, string> {
  return {
    [SESSION_COOKIE]: signTestSession(privateKeyFile, { sub: randomUUID(), email: 'user@portal.test' }),
  };
}

async function startApp(overrides: Partial<LocatorConfig> = {}): Promise<FastifyInstance> {
  const started = await buildApp({ ...config, ...overrides }, { ds: appDatabase, redis });
  await started.ready();
  extraApps.push(started);
  return started;
}

/** A tiny HTTP server answering with `respond`, remembering what it was asked. */
async function startServer(
  respond: (url: string) => { status: number; body: string; type?: string },
): Promise<{ base: string; requests: { url: string; headers: IncomingHttpHeaders }[] }> {
  const requests: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((request, response) => {
    requests.push({ url: request.url ?? '', headers: request.headers });
    const { status, body, type = 'application/json' } = respond(request.url ?? '');
    response.writeHead(status, { 'content-type': type });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

beforeAll(async () => {
  ensureKeyPair(privateKeyFile, publicKeyFile);
  db = await createTestDatabase();
  await insertFixtures(db.dataSource);
  config = {
    ...loadLocatorConfig({ VAR_DIR: varDir, NODE_ENV: 'test' }),
    logLevel: 'silent',
    imageryStorageDir: join(varDir, 'imagery'),
  };
  storage = new LocalDiskStorage(config.imageryStorageDir);
  appDatabase = await openDatabase(db.url);
  app = await startApp();
});

afterAll(async () => {
  for (const started of extraApps) await started.close();
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await appDatabase?.destroy();
  await db?.drop();
  await redis.quit();
});

const get = (url: string, on: FastifyInstance = app, headers: Record<string, string> = {}) =>
  on.inject({ method: 'GET', url, cookies: sessionCookie(), headers });

const query = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

const coverageOf = (point: { lat: number; lng: number }, on = app) =>
  get(`${IMAGERY_API.coverage}?${query(point)}`, on);
const imageUrlOf = (point: { lat: number; lng: number }, orientation: string, small = false, on = app) =>
  get(`${small ? IMAGERY_API.smallImageUrl : IMAGERY_API.imageUrl}?${query({ ...point, orientation })}`, on);

const keyOf = (url: string) => url.slice(IMAGERY_API.images.length);

/** What idanImageUrl answers when there is no picture. */
const NO_IMAGE = { success: false, url: null, capturedOn: null, surveyId: null, camera: null };

describe('imagery', () => {
  it('needs a session for every call', async () => {
    for (const url of [
      `${IMAGERY_API.coverage}?${query(CENTRE)}`,
      `${IMAGERY_API.imageUrl}?${query({ ...CENTRE, orientation: 'o' })}`,
      `${IMAGERY_API.smallImageUrl}?${query({ ...CENTRE, orientation: 'o' })}`,
      `${IMAGERY_API.images}idan/x/o-full-x.jpg`,
      `${IMAGERY_API.pictometryProxy}/viewer`,
    ]) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });

  describe('GET /api/idanCoverage', () => {
    it.each([
      ['inside high-resolution coverage', CENTRE, { covered: true, ortho: true, capturedOn: '2025-02-10' }],
      ['inside the ortho mosaic only', ORTHO_ONLY, { covered: false, ortho: true, capturedOn: '2024-06-01' }],
      ['outside both', NOT_COVERED, { covered: false, ortho: false, capturedOn: null }],
    ])('answers %s', async (_case, point, expected) => {
      const res = await coverageOf(point);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, ...expected });
    });

    it.each([
      ['an unparseable latitude', { lat: 'abc', lng: 18.4 }, /lat must be number/],
      ['a latitude beyond the pole', { lat: -91, lng: 18.4 }, /lat must be >= -90/],
      ['a place in London', { lat: 51.5072, lng: -0.1276 }, /outside South Africa/],
      ['a place in the Atlantic', { lat: -33.9, lng: 12.0 }, /outside South Africa/],
    ])('refuses %s with a 400', async (_case, point, message) => {
      const res = await get(`${IMAGERY_API.coverage}?${query(point)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(message);
    });
  });

  describe('GET /api/idanImageUrl and /api/idanSmallImageUrl (built-in provider)', () => {
    it('renders every orientation at full and small size and serves the JPEGs', async () => {
      const keys = new Set<string>();
      const fullImages: Buffer[] = [];
      for (const orientation of ORIENTATIONS) {
        for (const small of [false, true]) {
          const res = await imageUrlOf(CENTRE, orientation, small);
          expect(res.statusCode).toBe(200);
          const { success, url } = res.json() as { success: boolean; url: string };
          expect(success).toBe(true);
          expect(url).toMatch(
            new RegExp(
              `^${IMAGERY_API.images}idan/-33\\.92490_18\\.42410/${orientation}-${small ? 'small' : 'full'}-s\\d+-`,
            ),
          );
          keys.add(keyOf(url));

          const image = await get(url);
          expect(image.statusCode).toBe(200);
          expect(image.headers['content-type']).toBe('image/jpeg');
          expect(image.headers['cache-control']).toBe(IMAGE_CACHE_CONTROL);
          expect([...image.rawPayload.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
          const { width, height, format } = await sharp(image.rawPayload).metadata();
          expect({ width, height, format }).toEqual(
            small
              ? { width: 320, height: 240, format: 'jpeg' }
              : { width: 1024, height: 768, format: 'jpeg' },
          );
          if (!small) fullImages.push(image.rawPayload);
        }
      }
      expect(keys.size).toBe(ORIENTATIONS.length * 2);
      // Five different views, not one picture five times.
      expect(new Set(fullImages.map((image) => image.toString('base64'))).size).toBe(ORIENTATIONS.length);
    });

    it('serves the second request from storage without rendering again', async () => {
      const first = (await imageUrlOf(CENTRE, 'n')).json() as { url: string };
      const stored = await storage.stat(keyOf(first.url));
      expect(stored).not.toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 20));
      const second = (await imageUrlOf({ lat: CENTRE.lat + 0.000001, lng: CENTRE.lng }, 'n')).json() as {
        url: string;
      };
      expect(second.url).toBe(first.url);
      const again = await storage.stat(keyOf(second.url));
      expect(again?.modifiedAt.getTime()).toBe(stored!.modifiedAt.getTime());
      expect(again?.etag).toBe(stored!.etag);
    });

    it('renders anew when the buildings around the location change', async () => {
      const before = (await imageUrlOf(CENTRE, 'o')).json() as { url: string };
      await db.dataSource.query(
        `INSERT INTO geo.buildings (kind, height_m, geom, source, source_id)
         VALUES ('garage', 3, ST_GeomFromText($1, 4326), 'test', 'garage')`,
        [rectangle(-30, 20, -24, 26)],
      );
      const after = (await imageUrlOf(CENTRE, 'o')).json() as { url: string };
      expect(after.url).not.toBe(before.url);
      expect(await storage.exists(keyOf(after.url))).toBe(true);
      await db.dataSource.query(`DELETE FROM geo.buildings WHERE source_id = 'garage'`);
    });

    it('answers only the ortho inside the ortho mosaic', async () => {
      for (const orientation of ORIENTATIONS) {
        const res = await imageUrlOf(ORTHO_ONLY, orientation);
        expect(res.statusCode).toBe(200);
        const answer = res.json() as { success: boolean; url: string | null };
        if (orientation === 'o') {
          expect(answer.success).toBe(true);
          expect((await get(answer.url!)).statusCode).toBe(200);
        } else {
          expect(answer).toEqual(NO_IMAGE);
        }
      }
    });

    it('answers no image at all outside coverage', async () => {
      for (const orientation of ORIENTATIONS) {
        for (const small of [false, true]) {
          expect((await imageUrlOf(NOT_COVERED, orientation, small)).json()).toEqual(NO_IMAGE);
        }
      }
    });

    it('refuses an unknown orientation and a place outside South Africa', async () => {
      const res = await imageUrlOf(CENTRE, 'up');
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/orientation/);
      const abroad = await imageUrlOf({ lat: -17.83, lng: 31.05 }, 'o'); // Harare
      expect(abroad.statusCode).toBe(400);
      expect(abroad.json().message).toMatch(/outside South Africa/);
    });
  });

  describe('GET /api/imagery/images/{key}', () => {
    it('answers 304 when the browser has the image', async () => {
      const { url } = (await imageUrlOf(CENTRE, 'e', true)).json() as { url: string };
      const first = await get(url);
      const etag = String(first.headers.etag);
      const revalidated = await get(url, app, { 'if-none-match': etag });
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.rawPayload).toHaveLength(0);
    });

    it('answers 404 for an image never rendered and 400 for a key that is not an image key', async () => {
      const missing = await get(`${IMAGERY_API.images}idan/-33.00000_18.00000/o-full-none.jpg`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toMatch(/No image/);
      for (const key of ['idan/..%2F..%2Fkeys%2Fjwt-private.pem', 'keys/jwt-private.pem', 'idan/%2e%2e/x']) {
        const res = await get(`${IMAGERY_API.images}${key}`);
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toMatch(/not an imagery image key/);
      }
    });
  });

  describe('URL-template provider', () => {
    it('fills the templates and takes coverage from the imagery service', async () => {
      const service = await startServer((url) => {
        const params = new URL(url, 'http://x').searchParams;
        const covered = Number(params.get('lat')) > -34;
        return { status: 200, body: JSON.stringify({ covered, ortho: true }) };
      });
      const templated = await startApp({
        imagery: {
          kind: 'template',
          imageUrlTemplate: 'https://imagery.example/image?lat={lat}&lng={lng}&o={orientation}',
          smallImageUrlTemplate: 'https://imagery.example/thumb/{orientation}/{lat},{lng}.jpg',
          coverageUrlTemplate: `${service.base}/coverage?lat={lat}&lng={lng}`,
        },
      });
      expect((await coverageOf(NOT_COVERED, templated)).json()).toEqual({
        success: true,
        covered: true,
        ortho: true,
        capturedOn: null,
      });
      expect(service.requests.at(-1)?.url).toBe(`/coverage?lat=${NOT_COVERED.lat}&lng=${NOT_COVERED.lng}`);
      // The picture is of the newest survey at the point (geo.imagery_coverage: no surveys template).
      expect((await imageUrlOf(CENTRE, 'w', false, templated)).json()).toMatchObject({
        success: true,
        url: `https://imagery.example/image?lat=-33.9249&lng=18.4241&o=w`,
        capturedOn: '2025-02-10',
        camera: { orientation: 'w', width: 1024, height: 768, metresAcross: 110, tiltDegrees: 45 },
      });
      expect((await imageUrlOf(CENTRE, 's', true, templated)).json()).toMatchObject({
        success: true,
        url: `https://imagery.example/thumb/s/-33.9249,18.4241.jpg`,
        capturedOn: '2025-02-10',
      });
      // South of -34 the service says ortho only (and the portal knows no survey there).
      const south = { lat: -34.05, lng: 18.45 };
      expect((await imageUrlOf(south, 'n', false, templated)).json()).toEqual(NO_IMAGE);
      expect((await imageUrlOf(south, 'o', false, templated)).json()).toMatchObject({
        success: true,
        capturedOn: null,
      });
    });

    it('uses the coverage polygons when the service has no coverage call', async () => {
      const templated = await startApp({
        imagery: {
          kind: 'template',
          imageUrlTemplate: 'https://imagery.example/{orientation}?at={lat},{lng}',
          smallImageUrlTemplate: 'https://imagery.example/{orientation}?at={lat},{lng}&small',
        },
      });
      expect((await coverageOf(ORTHO_ONLY, templated)).json()).toEqual({
        success: true,
        covered: false,
        ortho: true,
        capturedOn: '2024-06-01',
      });
      expect((await imageUrlOf(ORTHO_ONLY, 'e', false, templated)).json()).toEqual(NO_IMAGE);
      expect((await imageUrlOf(NOT_COVERED, 'o', false, templated)).json()).toEqual(NO_IMAGE);
    });

    it('answers 502 when the coverage service fails', async () => {
      const service = await startServer(() => ({ status: 500, body: 'down' }));
      const templated = await startApp({
        imagery: {
          kind: 'template',
          imageUrlTemplate: 'https://imagery.example/{orientation}',
          smallImageUrlTemplate: 'https://imagery.example/{orientation}',
          coverageUrlTemplate: `${service.base}/coverage?lat={lat}&lng={lng}`,
        },
      });
      expect((await coverageOf(CENTRE, templated)).statusCode).toBe(502);
    });
  });

  describe('/api/pictometry/proxy', () => {
    it('answers 404 with a clear message when no viewer is configured', async () => {
      const res = await get(`${IMAGERY_API.pictometryProxy}/viewer/index.html`);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toMatch(/No oblique imagery viewer is configured.*PICTOMETRY_PROXY_TARGET/);
      expect((await get(IMAGERY_API.pictometryProxy)).statusCode).toBe(404);
    });

    it('forwards to the configured viewer, without the portal session', async () => {
      const viewer = await startServer((url) => ({
        status: 200,
        body: `<html>viewer at ${url}</html>`,
        type: 'text/html',
      }));
      const proxied = await startApp({ pictometryProxyTarget: `${viewer.base}/oblique/` });
      const res = await get(`${IMAGERY_API.pictometryProxy}/viewer/index.html?lat=-33.9&lng=18.4`, proxied);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toBe('<html>viewer at /oblique/viewer/index.html?lat=-33.9&lng=18.4</html>');
      expect(viewer.requests).toHaveLength(1);
      expect(viewer.requests[0].headers.cookie).toBeUndefined();
    });
  });

  it('falls back to a South Africa box when no country outline is loaded', async () => {
    // Southern Namibia: inside the box, outside the outline.
    const namibia = { lat: -22.5, lng: 16.6 };
    expect((await coverageOf(namibia)).statusCode).toBe(400);
    await db.dataSource.query(`DELETE FROM geo.places WHERE kind = 'country'`);
    expect((await coverageOf(namibia)).json()).toEqual({
      success: true,
      covered: false,
      ortho: false,
      capturedOn: null,
    });
    expect((await coverageOf({ lat: -15.4, lng: 28.3 })).statusCode).toBe(400); // Lusaka
  });
});
