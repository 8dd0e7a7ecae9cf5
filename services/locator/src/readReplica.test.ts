import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import {
  AVS_API,
  OGC_API,
  SESSION_COOKIE,
  TILES_API,
  type OgcFeatureCollection,
  type ReverseAnswer,
  type SearchAnswer,
} from '@portal/contracts';
import { createTestDatabase, type TestDatabase } from '@portal/db';
import { formatAddress, generateGeodata } from '@portal/geo';
import { createRedis, ensureKeyPair, observeDatabasePool } from '@portal/server-kit';
import { signTestSession } from '@portal/server-kit/testing';
import { buildApp } from './app';
import { loadLocatorConfig } from './config';
import { openDatabase, openReadDatabase } from './database';

/**
 * DATABASE_READ_URL (issue 23): the locator's read-only look-ups go to a second pool on the read replica,
 * its writes stay on DATABASE_URL. Two throwaway databases stand for the primary and the replica, and they
 * differ on purpose: the geodata is only in the "replica", so an address, a parcel tile or an OGC item
 * found proves the call read there; the usage counts the locator writes land in the primary only. The read
 * pool is read-only on every connection (a write sent to it fails) and named `locator-read`.
 */

jest.setTimeout(180_000);

const varDir = mkdtempSync(join(tmpdir(), 'locator-read-replica-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'locator-read-replica-test');
// Usage counts go through Redis before PostgreSQL: keys of this run's own.
const redisPrefix = `read-replica-test-${randomUUID().slice(0, 8)}`;
let primary: TestDatabase;
let replica: TestDatabase;
let primaryPool: DataSource;
let app: FastifyInstance;

const session = () =>
  signTestSession(privateKeyFile, { sub: '00000000-0000-4000-8000-000000000002', email: 'user@portal.test' });
const post = (url: string, payload: object) =>
  app.inject({ method: 'POST', url, payload, cookies: { [SESSION_COOKIE]: session() } });
const get = (url: string) => app.inject({ method: 'GET', url, cookies: { [SESSION_COOKIE]: session() } });

interface AddressRow {
  id: string;
  house_number: string;
  street_name: string;
  suburb: string;
  town: string;
  postal_code: string;
  lat: number;
  lng: number;
}

beforeAll(async () => {
  ensureKeyPair(privateKeyFile, join(varDir, 'keys/jwt-public.pem'));
  [primary, replica] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  await generateGeodata(replica.dataSource, { scale: 300, seed: 'read-replica', towns: ['Stellenbosch'] });
  const config = {
    ...loadLocatorConfig({
      VAR_DIR: varDir,
      NODE_ENV: 'test',
      DATABASE_READ_URL: replica.url,
      PORTAL_REDIS_PREFIX: redisPrefix,
    }),
    logLevel: 'silent' as const,
  };
  primaryPool = await openDatabase(primary.url);
  app = await buildApp(config, { ds: primaryPool, redis });
  // As startService does with the main pool (the read pool is the app's own).
  observeDatabasePool(app.metrics, primaryPool);
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await primaryPool?.destroy();
  await Promise.all([primary?.drop(), replica?.drop()]);
  for (const key of await redis.keys(`${redisPrefix}:*`)) await redis.del(key);
  await redis.quit();
});

/** The z14 tile over a point. */
function tileAt(lng: number, lat: number, z = 14) {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  return {
    x: Math.floor(((lng + 180) / 360) * n),
    y: Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n),
  };
}

it('the primary holds no geodata and the replica does (the premise of what follows)', async () => {
  const count = async (db: TestDatabase) =>
    Number((await db.dataSource.query(`SELECT count(*) AS n FROM geo.addresses`))[0].n);
  expect(await count(primary)).toBe(0);
  expect(await count(replica)).toBeGreaterThan(100);
});

it('geocode, reverse, parcel tiles and OGC items read the replica; the usage counts are written to the primary', async () => {
  const [address] = (await replica.dataSource.query(
    `SELECT a.id::text AS id, a.house_number, a.street_name, a.suburb, a.town, a.postal_code,
            ST_Y(a.point) AS lat, ST_X(a.point) AS lng
     FROM geo.addresses a WHERE a.unit IS NULL
     ORDER BY md5(a.source_id) LIMIT 1`,
  )) as AddressRow[];
  const typed = formatAddress({
    houseNumber: address.house_number,
    street: address.street_name,
    suburb: address.suburb,
    town: address.town,
    postalCode: address.postal_code,
  });

  const geocoded = await post(AVS_API.geocode, { address: typed });
  expect(geocoded.statusCode).toBe(200);
  expect(geocoded.json<SearchAnswer>().result.map((found) => found.id)).toContain(address.id);

  const reversed = await post(AVS_API.reverse, { lat: address.lat, lng: address.lng });
  expect(reversed.statusCode).toBe(200);
  expect(reversed.json<ReverseAnswer>().result.address?.id).toBe(address.id);

  const { x, y } = tileAt(address.lng, address.lat);
  const tile = await get(`${TILES_API.prefix}parcels/14/${x}/${y}.mvt`);
  expect(tile.statusCode).toBe(200);
  expect(tile.rawPayload.length).toBeGreaterThan(100);

  const d = 0.01;
  const bbox = [address.lng - d, address.lat - d, address.lng + d, address.lat + d].join(',');
  const items = await get(`${OGC_API.items('addresses')}?bbox=${bbox}&limit=5`);
  expect(items.statusCode).toBe(200);
  expect(items.json<OgcFeatureCollection>().features.length).toBeGreaterThan(0);

  // The one write of the locator: its usage counts, flushed when it closes — into the primary alone.
  await app.usageMeter?.flush();
  const geocodes = async (db: TestDatabase) =>
    Number(
      (
        await db.dataSource.query(
          `SELECT coalesce(sum(count), 0) AS n FROM metering.usage_daily WHERE metric = 'geocode'`,
        )
      )[0].n,
    );
  expect(await geocodes(primary)).toBe(1);
  expect(await geocodes(replica)).toBe(0);
});

it('the read pool is named locator-read, read-only, and reported on /metrics as pool="read"', async () => {
  const connections = (await replica.dataSource.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'locator-read'`,
  )) as { n: number }[];
  expect(connections[0].n).toBeGreaterThan(0);
  const onPrimary = (await primary.dataSource.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'locator-read'`,
  )) as { n: number }[];
  expect(onPrimary[0].n).toBe(0);

  const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
  expect(metrics).toMatch(/^db_pool_connections\{pool="read",state="idle"[^}]*\} [1-9]/m);
  expect(metrics).toMatch(/^db_pool_connections\{pool="main",state="idle"[^}]*\} \d+/m);
  // The server's connections are the primary's (the main pool's), whichever pool was observed first.
  expect(metrics).toMatch(/^db_server_connections\{reading="max"[^}]*\} [1-9]/m);

  // Read-only on every connection: a write sent to the read pool by mistake fails.
  const readPool = await openReadDatabase(replica.url);
  try {
    await expect(
      readPool.query(`INSERT INTO metering.usage_daily (service, day, metric, source, count)
                      VALUES ('locator', current_date, 'geocode', 'session', 1)`),
    ).rejects.toThrow(/read-only transaction/);
  } finally {
    await readPool.destroy();
  }
});
