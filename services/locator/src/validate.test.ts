import { createSign } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import {
  MAX_QUERY_LENGTH,
  SESSION_COOKIE,
  VALIDATION_API,
  VALIDATION_BATCH_MAX,
  type ValidateAnswer,
  type ValidateBatchAnswer,
} from '@portal/contracts';
import { createTestDatabase, type TestDatabase } from '@portal/db';
import { formatAddress, generateGeodata } from '@portal/geo';
import { createRedis, ensureKeyPair } from '@portal/server-kit';
import { buildApp } from './app';
import { QUERY_TEXT } from './avs/parse';
import { loadLocatorConfig } from './config';
import { openDatabase } from './database';
import { VALIDATION_TEXT } from './routes/validate';
import { verdictOf } from './validate/validate';

/**
 * Address validation over the generator's data (a small Stellenbosch): the expectations come from the
 * rows the generator wrote.
 */

jest.setTimeout(120_000);

const varDir = mkdtempSync(join(tmpdir(), 'locator-validate-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'locator-validate-test');
let db: TestDatabase;
let appDatabase: DataSource;
let app: FastifyInstance;

function session(): string {
  const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    sub: '00000000-0000-4000-8000-000000000003',
    email: 'user@portal.test',
    name: 'Validation Tester',
    roles: ['authenticated'],
    groupId: null,
    claimsUser: false,
    iat: now,
    exp: now + 3600,
    ims: Date.now(),
  };
  const unsigned = `${base64url({ alg: 'RS256', typ: 'JWT' })}.${base64url(claims)}`;
  const signature = createSign('RSA-SHA256').update(unsigned).sign(readFileSync(privateKeyFile));
  return `${unsigned}.${signature.toString('base64url')}`;
}

const post = (url: string, payload: object, withSession = true) =>
  app.inject({ method: 'POST', url, payload, cookies: withSession ? { [SESSION_COOKIE]: session() } : {} });

beforeAll(async () => {
  ensureKeyPair(privateKeyFile, join(varDir, 'keys/jwt-public.pem'));
  db = await createTestDatabase();
  await generateGeodata(db.dataSource, { scale: 1500, seed: 'validate-test', towns: ['Stellenbosch'] });
  const config = { ...loadLocatorConfig({ VAR_DIR: varDir, NODE_ENV: 'test' }), logLevel: 'silent' as const };
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

interface AddressRow {
  id: string;
  house_number: string;
  street_name: string;
  suburb: string;
  town: string;
  postal_code: string;
  lat: number;
  lng: number;
  parcel_id: string;
  parcel_number: string;
  portion: number;
}

/** Street addresses on a parcel whose number and street are unique in their town. */
async function sampleAddresses(count: number): Promise<AddressRow[]> {
  return db.dataSource.query(
    `SELECT a.id::text AS id, a.house_number, a.street_name, a.suburb, a.town, a.postal_code,
            ST_Y(a.point) AS lat, ST_X(a.point) AS lng,
            p.id::text AS parcel_id, p.parcel_number, p.portion
     FROM geo.addresses a JOIN geo.parcels p ON p.id = a.parcel_id
     WHERE a.unit IS NULL AND a.estate IS NULL AND a.house_number <> ''
       AND (SELECT count(*) FROM geo.addresses b
            WHERE b.street_name = a.street_name AND b.house_number = a.house_number AND b.town = a.town) = 1
     ORDER BY md5(a.source_id)
     LIMIT $1`,
    [count],
  );
}

const formatted = (row: AddressRow) =>
  formatAddress({
    houseNumber: row.house_number,
    street: row.street_name,
    suburb: row.suburb,
    town: row.town,
    postalCode: row.postal_code,
  });

describe('verdictOf', () => {
  it('grades addresses and erven by confidence and never calls a street alone valid', () => {
    expect(verdictOf('address', 0.85)).toBe('valid');
    expect(verdictOf('erf', 0.9)).toBe('valid');
    expect(verdictOf('address', 0.84)).toBe('probable');
    expect(verdictOf('street', 0.99)).toBe('probable');
    expect(verdictOf('address', 0.5)).toBe('probable');
    expect(verdictOf('address', 0.49)).toBe('not found');
  });
});

describe(`POST ${VALIDATION_API.validate}`, () => {
  it('answers a typed address standardised, in parts, with its point and parcel', async () => {
    const sample = await sampleAddresses(5);
    expect(sample).toHaveLength(5);
    for (const address of sample) {
      // Typed loosely: abbreviated street type, lower case, no postal code, the country appended.
      const typed =
        `${address.house_number} ${address.street_name.replace(/ Street$/, ' St').replace(/ Road$/, ' Rd')} ${address.suburb} ${address.town}`.toLowerCase();
      const res = await post(VALIDATION_API.validate, { address: `  ${typed} South Africa` });
      expect(res.statusCode).toBe(200);
      const { result } = res.json<ValidateAnswer>();
      expect(result).toMatchObject({
        query: `${typed} South Africa`,
        verdict: 'valid',
        matchType: 'address',
        formatted_address: formatted(address),
        parts: {
          number: address.house_number,
          street: address.street_name,
          unit: null,
          estate: null,
          suburb: address.suburb,
          town: address.town,
          postalCode: address.postal_code,
        },
        parcel: { id: address.parcel_id, number: address.parcel_number, portion: address.portion },
      });
      expect(result.confidence).toBeGreaterThanOrEqual(0.85);
      expect(result.location!.lat).toBeCloseTo(Number(address.lat), 6);
      expect(result.location!.lng).toBeCloseTo(Number(address.lng), 6);
      expect(result.parcel!.title).toMatch(new RegExp(`^Erf ${address.parcel_number}`));
    }
  });

  it('finds a misspelt address less surely than an exact one', async () => {
    const [address] = await sampleAddresses(1);
    const exact = (
      await post(VALIDATION_API.validate, { address: formatted(address) })
    ).json<ValidateAnswer>();
    const [first, ...rest] = address.street_name.split(' ');
    // One letter of the street's name doubled.
    const misspelt = `${address.house_number} ${first.slice(0, 3)}${first[2]}${first.slice(3)} ${rest.join(' ')}, ${address.town}`;
    const typo = (await post(VALIDATION_API.validate, { address: misspelt })).json<ValidateAnswer>();
    expect(exact.result.verdict).toBe('valid');
    expect(typo.result.formatted_address).toBe(formatted(address));
    expect(typo.result.verdict).not.toBe('not found');
    expect(typo.result.confidence).toBeLessThan(exact.result.confidence);
  });

  it('answers a street without a number as a street match, probable at best', async () => {
    const [address] = await sampleAddresses(1);
    const res = await post(VALIDATION_API.validate, {
      address: `${address.street_name}, ${address.suburb}, ${address.town}`,
    });
    const { result } = res.json<ValidateAnswer>();
    expect(result.matchType).toBe('street');
    expect(result.verdict).toBe('probable');
    expect(result.parts).toMatchObject({ number: null, street: address.street_name, town: address.town });
    expect(result.parcel).toBeNull();
    expect(result.location).not.toBeNull();
  });

  it('answers nonsense and a town alone as not found', async () => {
    for (const address of ['Qwxzv Plonkity Vrrmbl 99999', 'Stellenbosch']) {
      const res = await post(VALIDATION_API.validate, { address });
      expect(res.statusCode).toBe(200);
      expect(res.json<ValidateAnswer>().result).toMatchObject({
        query: address,
        verdict: 'not found',
        matchType: null,
        formatted_address: null,
        parts: null,
        location: null,
        parcel: null,
      });
    }
  });

  it('refuses an empty, a too long and a wordless address with a clear 400, and callers without a session', async () => {
    const cases: [string, string][] = [
      ['   ', QUERY_TEXT.empty],
      ['South Africa', QUERY_TEXT.empty],
      ['x'.repeat(MAX_QUERY_LENGTH + 1), QUERY_TEXT.tooLong],
      ['-- ; --', QUERY_TEXT.noWords],
    ];
    for (const [address, message] of cases) {
      const res = await post(VALIDATION_API.validate, { address });
      expect([res.statusCode, res.json().message]).toEqual([400, message]);
    }
    const missing = await post(VALIDATION_API.validate, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('address');
    const anonymous = await post(VALIDATION_API.validate, { address: 'Church Street' }, false);
    expect(anonymous.statusCode).toBe(401);
  });
});

describe(`POST ${VALIDATION_API.batch}`, () => {
  it('answers each address in the order sent, a blank row with its reason', async () => {
    const sample = await sampleAddresses(3);
    const addresses = [
      formatted(sample[0]),
      '',
      'Qwxzv Plonkity Vrrmbl',
      formatted(sample[1]),
      formatted(sample[2]),
    ];
    const res = await post(VALIDATION_API.batch, { addresses });
    expect(res.statusCode).toBe(200);
    const { results } = res.json<ValidateBatchAnswer>();
    expect(results.map((r) => r.verdict)).toEqual(['valid', 'not found', 'not found', 'valid', 'valid']);
    expect(results.map((r) => r.formatted_address)).toEqual([
      formatted(sample[0]),
      null,
      null,
      formatted(sample[1]),
      formatted(sample[2]),
    ]);
    expect(results[1].error).toBe(QUERY_TEXT.empty);
    expect(results[2].error).toBeUndefined();
  });

  it('takes a full chunk, and refuses none and too many with a clear 400', async () => {
    const [address] = await sampleAddresses(1);
    const full = await post(VALIDATION_API.batch, {
      addresses: Array.from({ length: VALIDATION_BATCH_MAX }, () => formatted(address)),
    });
    expect(full.statusCode).toBe(200);
    const { results } = full.json<ValidateBatchAnswer>();
    expect(results).toHaveLength(VALIDATION_BATCH_MAX);
    expect(new Set(results.map((r) => r.formatted_address))).toEqual(new Set([formatted(address)]));

    const none = await post(VALIDATION_API.batch, { addresses: [] });
    expect([none.statusCode, none.json().message]).toEqual([400, VALIDATION_TEXT.noAddresses]);
    const tooMany = await post(VALIDATION_API.batch, {
      addresses: Array.from({ length: VALIDATION_BATCH_MAX + 1 }, () => 'Church Street'),
    });
    expect([tooMany.statusCode, tooMany.json().message]).toEqual([400, VALIDATION_TEXT.tooManyAddresses]);
    const anonymous = await post(VALIDATION_API.batch, { addresses: ['Church Street'] }, false);
    expect(anonymous.statusCode).toBe(401);
  });
});
