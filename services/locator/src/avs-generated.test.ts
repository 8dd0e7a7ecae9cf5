import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import { AVS_API, SESSION_COOKIE, type ReverseAnswer, type SearchAnswer } from '@portal/contracts';
import { createTestDatabase, type TestDatabase } from '@portal/db';
import { formatAddress, generateGeodata } from '@portal/geo';
import { createRedis, ensureKeyPair } from '@portal/server-kit';
import { signTestSession } from '@portal/server-kit/testing';
import { buildApp } from './app';
import { loadLocatorConfig } from './config';
import { openDatabase } from './database';

/**
 * The address service over the generator's data (a small Stellenbosch, and Vrede beside Vredendal: two
 * towns one typo apart, with namesake streets): what the generator writes is what the searches read, so
 * an address found through the database is found again by what a user would type.
 */

jest.setTimeout(120_000);

const varDir = mkdtempSync(join(tmpdir(), 'locator-avs-generated-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'locator-avs-generated-test');
let db: TestDatabase;
let appDatabase: DataSource;
let app: FastifyInstance;

const session = () =>
  signTestSession(privateKeyFile, { sub: '00000000-0000-4000-8000-000000000002', email: 'user@portal.test' });

const post = (url: string, payload: object) =>
  app.inject({ method: 'POST', url, payload, cookies: { [SESSION_COOKIE]: session() } });

beforeAll(async () => {
  ensureKeyPair(privateKeyFile, join(varDir, 'keys/jwt-public.pem'));
  db = await createTestDatabase();
  await generateGeodata(db.dataSource, {
    scale: 900,
    seed: 'avs-test',
    towns: ['Stellenbosch', 'Vrede', 'Vredendal'],
  });
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
}

/**
 * Street addresses (no units) whose number and street are unique in their town, a spread of them (of one
 * town, or of those whose street name matches a pattern).
 */
async function sampleAddresses(count: number, town = 'Stellenbosch', street = '.'): Promise<AddressRow[]> {
  return db.dataSource.query(
    `SELECT a.id::text AS id, a.house_number, a.street_name, a.suburb, a.town, a.postal_code,
            ST_Y(a.point) AS lat, ST_X(a.point) AS lng
     FROM geo.addresses a
     WHERE a.unit IS NULL AND a.town ~ $2 AND a.street_name ~ $3
       AND (SELECT count(*) FROM geo.addresses b
            WHERE b.street_name = a.street_name AND b.house_number = a.house_number AND b.town = a.town) = 1
     ORDER BY md5(a.source_id)
     LIMIT $1`,
    [count, town, street],
  );
}

/** Two letters after the second swapped: the commonest typo, where people make it (not the first letters). */
const swapped = (word: string, at = 2) => word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);

const geocodeFirst = async (address: string) =>
  (await post(AVS_API.geocode, { address: `${address} South Africa` })).json<SearchAnswer>().result[0];

it('generated a town to search', async () => {
  const [{ count }] = await db.dataSource.query('SELECT count(*)::int AS count FROM geo.addresses');
  expect(count).toBeGreaterThanOrEqual(500);
});

it('finds generated addresses as typed in full, abbreviated, misspelt and half-typed', async () => {
  const sample = await sampleAddresses(12);
  expect(sample).toHaveLength(12);
  for (const address of sample) {
    const full = formatAddress({
      houseNumber: address.house_number,
      street: address.street_name,
      suburb: address.suburb,
      town: address.town,
      postalCode: address.postal_code,
    });
    const abbreviated = `${address.house_number} ${address.street_name.replace(/ Street$/, ' St').replace(/ Road$/, ' Rd')}, ${address.town}`;
    // One letter of the street's first word doubled: a typo the trigram match must survive.
    const [first, ...rest] = address.street_name.split(' ');
    const misspelt = `${address.house_number} ${first.slice(0, 3)}${first[2]}${first.slice(3)} ${rest.join(' ')} ${address.suburb}`;
    const partial = `${address.house_number} ${address.street_name} ${address.town.slice(0, 5)}`;
    for (const query of [full, abbreviated, misspelt, partial]) {
      const res = await post(AVS_API.search, { query, searchOptions: { address: true } });
      const [top] = res.json<SearchAnswer>().result;
      expect([query, top?.id]).toEqual([query, address.id]);
    }
  }
});

it('finds an address with a typo in a short town name: Vrede, not Vredendal, for "Vrdee"', async () => {
  const sample = await sampleAddresses(8, '^Vrede$');
  expect(sample).toHaveLength(8);
  for (const address of sample) {
    // The same number and street in Vredendal as well (namesakes are common): the typo must still find Vrede.
    for (const town of [swapped('Vrede', 2), 'Vrdee', 'Vreed', 'Vrude']) {
      const query = `${address.house_number} ${address.street_name}, ${town}`;
      expect([query, (await geocodeFirst(query))?.id]).toEqual([query, address.id]);
    }
  }
});

it('finds an address with a typo that leaves a short street name few of its trigrams', async () => {
  // Names of 5 to 7 letters before the type: one swap leaves them too few trigrams for the name index.
  const sample = await sampleAddresses(
    10,
    '^(Vrede|Vredendal|Stellenbosch)$',
    '^[A-Z][a-z]{4,6} [A-Z][a-z]+$',
  );
  expect(sample.length).toBeGreaterThanOrEqual(6);
  for (const address of sample) {
    const [name, type] = address.street_name.split(' ');
    const query = `${address.house_number} ${swapped(name, 2)} ${type}, ${address.town}`;
    expect([query, (await geocodeFirst(query))?.id]).toEqual([query, address.id]);
  }
});

it('finds an Afrikaans street by its type written apart, abbreviated or in English', async () => {
  const sample = await sampleAddresses(6, '.', '^[A-Z][a-z]+(straat|weg|laan)$');
  expect(sample.length).toBeGreaterThanOrEqual(3);
  const english = {
    straat: ['Straat', 'Str', 'Street'],
    weg: ['Weg', 'Road', 'Rd'],
    laan: ['Laan', 'Avenue', 'Ave'],
  };
  for (const address of sample) {
    const [, stem, type] = /^([A-Z][a-z]+?)(straat|weg|laan)$/.exec(address.street_name)!;
    for (const written of english[type as keyof typeof english]) {
      const query = `${address.house_number} ${stem} ${written}, ${address.town}`;
      expect([query, (await geocodeFirst(query))?.id]).toEqual([query, address.id]);
    }
  }
});

it('answers the parcel and address under a generated address point', async () => {
  const [address] = await sampleAddresses(1);
  const res = await post(AVS_API.reverse, { lat: address.lat, lng: address.lng });
  expect(res.statusCode).toBe(200);
  const { parcel, address: found } = res.json<ReverseAnswer>().result;
  expect(parcel?.addresses.map((a) => a.id)).toContain(address.id);
  expect(found?.id).toBe(address.id);
});

it("refuses points in South Africa's extent but outside its loaded outline", async () => {
  // Central Botswana and Maputo: inside the bounding box, outside the country.
  for (const [lat, lng] of [
    [-23.0, 24.0],
    [-25.97, 32.57],
  ]) {
    expect([lat, lng, (await post(AVS_API.reverse, { lat, lng })).statusCode]).toEqual([lat, lng, 400]);
  }
});
