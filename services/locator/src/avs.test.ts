// The address service's calls on one throwaway database seeded with a hand-made geodata set (below). One file
// over 500 lines: every case asks about that one data set, which the first half of the file builds and
// explains address by address, so a case and the rows it expects read side by side.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import {
  AVS_API,
  SESSION_COOKIE,
  type GeoJsonAnswer,
  type ReverseAnswer,
  type SearchAnswer,
  type SearchFlags,
} from '@portal/contracts';
import { createTestDatabase, type TestDatabase } from '@portal/db';
import { streetSearchText } from '@portal/geo';
import { createRedis, ensureKeyPair } from '@portal/server-kit';
import { signTestSession, trailingSlashProblems } from '@portal/server-kit/testing';
import { buildApp } from './app';
import { loadLocatorConfig } from './config';
import { openDatabase } from './database';
import { GEOJSON_TEXT } from './avs/geojson';
import { QUERY_TEXT } from './avs/parse';
import { NEAREST_ADDRESS_MAX_METRES, REVERSE_TEXT } from './avs/reverse';
import { AVS_TEXT } from './routes/avs';

jest.setTimeout(60_000);

const varDir = mkdtempSync(join(tmpdir(), 'locator-avs-test-'));
const privateKeyFile = join(varDir, 'keys/jwt-private.pem');
const publicKeyFile = join(varDir, 'keys/jwt-public.pem');
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'locator-avs-test');
let db: TestDatabase;
let appDatabase: DataSource;
let app: FastifyInstance;

// ---------------------------------------------------------------------------------------------------
// Sessions, signed with the throwaway key as identity would sign them.

const session = (email: string) =>
  signTestSession(privateKeyFile, { sub: '00000000-0000-4000-8000-000000000001', email, name: 'Avs Tester' });

const post = (url: string, payload: object, email: string | null = 'user@portal.test') =>
  app.inject({
    method: 'POST',
    url,
    payload,
    cookies: email === null ? undefined : { [SESSION_COOKIE]: session(email) },
  });

async function searchFor(query: string, searchOptions?: SearchFlags, options?: object) {
  const res = await post(AVS_API.search, { query, searchOptions, options });
  expect(res.statusCode).toBe(200);
  const body = res.json<SearchAnswer>();
  expect(body.success).toBe(true);
  return body.result;
}

async function geocodeOf(address: string, options?: object) {
  const res = await post(AVS_API.geocode, { address, options });
  expect(res.statusCode).toBe(200);
  return res.json<SearchAnswer>().result;
}

async function reverseAt(lat: number, lng: number, searchOption?: string) {
  const res = await post(AVS_API.reverse, { lat, lng, searchOption });
  expect(res.statusCode).toBe(200);
  return res.json<ReverseAnswer>().result;
}

// ---------------------------------------------------------------------------------------------------
// Fixtures: a few streets of Stellenbosch, Paarl and Worcester (the same street name in each), their
// erven and addresses, an estate with units, POIs, farms near Pretoria and postal codes. Positions are
// made up but in the right places; every id the assertions use is kept by name.

const ids: Record<string, string> = {};

async function insert(table: string, row: Record<string, unknown>, geometry: Record<string, string> = {}) {
  const columns = [...Object.keys(row), ...Object.keys(geometry)];
  const values = [...Object.values(row), ...Object.values(geometry)];
  const placeholders = [
    ...Object.keys(row).map((_, i) => `$${i + 1}`),
    ...Object.keys(geometry).map((column, i) => {
      const at = `$${Object.keys(row).length + i + 1}`;
      // Areas are MultiPolygons, streets MultiLineStrings, points points.
      return column === 'point' ? `ST_GeomFromText(${at}, 4326)` : `ST_Multi(ST_GeomFromText(${at}, 4326))`;
    }),
  ];
  const [{ id }] = await db.dataSource.query(
    `INSERT INTO geo.${table} (${columns.join(', ')}, source, source_id)
     VALUES (${placeholders.join(', ')}, 'test', $${values.length + 1}) RETURNING id::text AS id`,
    [...values, `${table}-${Object.keys(ids).length}-${Math.random()}`],
  );
  return id as string;
}

const box = (west: number, south: number, east: number, north: number) =>
  `POLYGON((${west} ${south}, ${east} ${south}, ${east} ${north}, ${west} ${north}, ${west} ${south}))`;
const pointAt = (lng: number, lat: number) => `POINT(${lng} ${lat})`;

/** The addresses of one street: number n sits at lng0 + n * 0.00015 on the north side, in its own erf. */
interface StreetFixture {
  key: string;
  name: string;
  suburb: string;
  town: string;
  suburbId?: string;
  townId?: string;
  importance: number;
  lat: number;
  lng0: number;
  postalCode: string;
  erfBase: number;
  numbers: string[];
}

const numberPosition = (house: string) => {
  const n = Number.parseInt(house, 10);
  return /[a-z]$/i.test(house) ? n + 1 : n;
};

async function street(fixture: StreetFixture) {
  const { name, suburb, town, lat, lng0 } = fixture;
  const streetId = await insert(
    'streets',
    {
      name,
      suburb,
      town,
      suburb_id: fixture.suburbId ?? null,
      town_id: fixture.townId ?? null,
      importance: fixture.importance,
      search_text: streetSearchText(name, suburb, town),
    },
    { geom: `LINESTRING(${lng0} ${lat}, ${lng0 + 0.009} ${lat})` },
  );
  ids[fixture.key] = streetId;
  for (const house of fixture.numbers) {
    const lng = lng0 + numberPosition(house) * 0.00015;
    const parcelNumber = String(fixture.erfBase + numberPosition(house));
    const parcelId = await insert(
      'parcels',
      { parcel_number: parcelNumber, suburb, town },
      { geom: box(lng - 0.00006, lat + 0.00005, lng + 0.00006, lat + 0.0003) },
    );
    ids[`${fixture.key} erf ${house}`] = parcelId;
    ids[`${fixture.key} ${house}`] = await insert(
      'addresses',
      {
        house_number: house,
        number_value: Number.parseInt(house, 10),
        street_id: streetId,
        street_name: name,
        suburb,
        town,
        postal_code: fixture.postalCode,
        parcel_id: parcelId,
      },
      { point: pointAt(lng, lat + 0.0001) },
    );
  }
}

const STELLENBOSCH = { lat: -33.936, lng0: 18.858 };
const EMPTY_ERF = { lng: 18.858 + 40 * 0.00015, lat: STELLENBOSCH.lat + 0.0002 };

async function insertFixtures() {
  const town = (name: string, importance: number, [w, s, e, n]: number[]) =>
    insert(
      'places',
      { kind: 'town', name, importance },
      { point: pointAt((w + e) / 2, (s + n) / 2), geom: box(w, s, e, n) },
    );
  const suburb = (name: string, parent: string, [w, s, e, n]: number[]) =>
    insert(
      'places',
      { kind: 'suburb', name, parent_id: parent, importance: 0.3 },
      {
        point: pointAt((w + e) / 2, (s + n) / 2),
        geom: box(w, s, e, n),
      },
    );
  ids.stellenbosch = await town('Stellenbosch', 0.6, [18.82, -33.97, 18.9, -33.9]);
  ids.paarl = await town('Paarl', 0.5, [18.93, -33.76, 19.0, -33.7]);
  ids.worcester = await town('Worcester', 0.4, [19.4, -33.68, 19.48, -33.62]);
  ids.pretoria = await town('Pretoria', 0.9, [28.1, -25.8, 28.3, -25.7]);
  ids.stellenboschCentral = await suburb(
    'Stellenbosch Central',
    ids.stellenbosch,
    [18.85, -33.94, 18.87, -33.93],
  );
  ids.dieBoord = await suburb('Die Boord', ids.stellenbosch, [18.83, -33.96, 18.85, -33.94]);
  ids.paarlCentral = await suburb('Paarl Central', ids.paarl, [18.95, -33.75, 18.97, -33.73]);
  ids.arcadia = await suburb('Arcadia', ids.pretoria, [28.2, -25.75, 28.22, -25.74]);

  const postal = (
    suburb: string,
    town: string,
    street_code: string | null,
    box_code: string | null,
    place_id: string,
    [lng, lat]: number[],
  ) =>
    insert('postal_codes', { suburb, town, street_code, box_code, place_id }, { point: pointAt(lng, lat) });
  ids['postal 7600'] = await postal(
    'Stellenbosch Central',
    'Stellenbosch',
    '7600',
    '7599',
    ids.stellenboschCentral,
    [18.86, -33.935],
  );
  ids['postal 7613'] = await postal('Die Boord', 'Stellenbosch', '7613', null, ids.dieBoord, [18.84, -33.95]);
  ids['postal 7646'] = await postal(
    'Paarl Central',
    'Paarl',
    '7646',
    '7620',
    ids.paarlCentral,
    [18.96, -33.74],
  );
  ids['postal 0083'] = await postal('Arcadia', 'Pretoria', '0083', '0007', ids.arcadia, [28.21, -25.745]);

  await street({
    key: 'church stellenbosch',
    name: 'Church Street',
    suburb: 'Stellenbosch Central',
    town: 'Stellenbosch',
    suburbId: ids.stellenboschCentral,
    townId: ids.stellenbosch,
    importance: 0.6,
    ...STELLENBOSCH,
    postalCode: '7600',
    erfBase: 1200,
    numbers: ['2', '4', '6', '10', '12', '12A', '14', '20'],
  });
  await street({
    key: 'dorp stellenbosch',
    name: 'Dorp Street',
    suburb: 'Stellenbosch Central',
    town: 'Stellenbosch',
    suburbId: ids.stellenboschCentral,
    townId: ids.stellenbosch,
    importance: 0.6,
    lat: -33.938,
    lng0: 18.858,
    postalCode: '7600',
    erfBase: 2200,
    numbers: ['1', '3', '5'],
  });
  await street({
    key: 'kerkstraat',
    name: 'Kerkstraat',
    suburb: 'Die Boord',
    town: 'Stellenbosch',
    suburbId: ids.dieBoord,
    townId: ids.stellenbosch,
    importance: 0.6,
    lat: -33.95,
    lng0: 18.835,
    postalCode: '7613',
    erfBase: 5200,
    numbers: ['7', '9'],
  });
  await street({
    key: 'church paarl',
    name: 'Church Street',
    suburb: 'Paarl Central',
    town: 'Paarl',
    suburbId: ids.paarlCentral,
    townId: ids.paarl,
    importance: 0.5,
    lat: -33.74,
    lng0: 18.955,
    postalCode: '7646',
    // The same erf numbers as in Stellenbosch: erf 1212 is in both towns.
    erfBase: 1200,
    numbers: ['12', '14'],
  });
  await street({
    key: 'church worcester',
    name: 'Church Street',
    suburb: 'Worcester',
    town: 'Worcester',
    townId: ids.worcester,
    importance: 0.4,
    lat: -33.65,
    lng0: 19.43,
    postalCode: '6850',
    erfBase: 9000,
    numbers: ['12'],
  });
  // Fourteen namesakes, each with a number 5: more than one page of results.
  for (let i = 1; i <= 14; i++) {
    await street({
      key: `jonkershoek ${i}`,
      name: 'Jonkershoek Road',
      suburb: `Jonkershoek ${i}`,
      town: 'Stellenbosch',
      importance: 0.2,
      lat: -33.96 + i * 0.001,
      lng0: 18.88,
      postalCode: '7600',
      erfBase: 20000 + i * 100,
      numbers: ['5'],
    });
  }

  // East London and Bloemfontein at national scale: more namesakes of other types in the town than the
  // search takes as candidates (30), all matching the name typed as well as the one meant, and more
  // important — Tshepo Boulevard and Boslaan must still be found by their type.
  const namesakeTypes = ['Avenue', 'Close', 'Street', 'Road', 'Drive', 'Crescent', 'Lane', 'Place'];
  const namesakes = [
    // Every type but Boulevard; every type but Avenue (Boslaan is Bos Avenue).
    {
      name: 'Tshepo',
      suburb: 'Mdantsane',
      town: 'East London',
      lat: -32.95,
      lng0: 27.7,
      code: '5219',
      erf: 40000,
      number: '16',
      avenue: 'Avenue',
    },
    {
      name: 'Bos',
      suburb: 'Heidedal',
      town: 'Bloemfontein',
      lat: -29.1,
      lng0: 26.2,
      code: '9301',
      erf: 50000,
      number: '59',
      avenue: 'Street',
    },
  ];
  for (const place of namesakes) {
    for (let i = 0; i < 32; i++) {
      const type = namesakeTypes[i % namesakeTypes.length];
      await street({
        key: `${place.name.toLowerCase()} ${i}`,
        name: `${place.name} ${type === 'Avenue' ? place.avenue : type}`,
        suburb: `${place.suburb} ${i}`,
        town: place.town,
        importance: 0.6,
        lat: place.lat + i * 0.002,
        lng0: place.lng0,
        postalCode: place.code,
        erfBase: place.erf + i * 100,
        numbers: [place.number],
      });
    }
  }
  await street({
    key: 'tshepo boulevard',
    name: 'Tshepo Boulevard',
    suburb: 'Mdantsane Unit 3',
    town: 'East London',
    importance: 0.1,
    lat: -32.99,
    lng0: 27.75,
    postalCode: '5219',
    erfBase: 44000,
    numbers: ['16'],
  });
  await street({
    key: 'boslaan',
    name: 'Boslaan',
    suburb: 'Universitas',
    town: 'Bloemfontein',
    importance: 0.1,
    lat: -29.11,
    lng0: 26.18,
    postalCode: '9301',
    erfBase: 54000,
    numbers: ['59'],
  });

  // An estate of three units behind 30 Church Street, on one erf.
  const estateLng = STELLENBOSCH.lng0 + 30 * 0.00015;
  ids['estate erf'] = await insert(
    'parcels',
    { parcel_number: '1230', suburb: 'Stellenbosch Central', town: 'Stellenbosch', parcel_type_id: 2 },
    {
      geom: box(
        estateLng - 0.00006,
        STELLENBOSCH.lat + 0.00005,
        estateLng + 0.0006,
        STELLENBOSCH.lat + 0.0006,
      ),
    },
  );
  for (const unit of ['1', '2', '3']) {
    ids[`estate unit ${unit}`] = await insert(
      'addresses',
      {
        house_number: '30',
        number_value: 30,
        street_id: ids['church stellenbosch'],
        street_name: 'Church Street',
        unit,
        estate: 'Eikestad Estate',
        suburb: 'Stellenbosch Central',
        town: 'Stellenbosch',
        postal_code: '7600',
        parcel_id: ids['estate erf'],
      },
      { point: pointAt(estateLng + Number(unit) * 0.0001, STELLENBOSCH.lat + 0.0003) },
    );
  }
  // An erf with no address, a little east of 20 Church Street (erf 1240).
  ids['empty erf'] = await insert(
    'parcels',
    {
      parcel_number: '1240',
      suburb: 'Stellenbosch Central',
      town: 'Stellenbosch',
      sg_key: 'C06700010000124000000',
    },
    {
      geom: box(
        EMPTY_ERF.lng - 0.00006,
        STELLENBOSCH.lat + 0.00005,
        EMPTY_ERF.lng + 0.00006,
        STELLENBOSCH.lat + 0.0003,
      ),
    },
  );

  const poi = (
    name: string,
    town: string,
    suburb: string,
    [lng, lat]: number[],
    extra: Record<string, unknown> = {},
  ) =>
    insert(
      'pois',
      { name, town, suburb, category: 'hospital', importance: 0.5, ...extra },
      { point: pointAt(lng, lat) },
    );
  ids['stellenbosch hospital'] = await poi(
    'Stellenbosch Hospital',
    'Stellenbosch',
    'Die Boord',
    [18.845, -33.945],
  );
  ids['paarl hospital'] = await poi('Paarl Hospital', 'Paarl', 'Paarl Central', [18.96, -33.745]);
  ids['rhenish'] = await poi(
    'Rhenish Primary School',
    'Stellenbosch',
    'Stellenbosch Central',
    [18.861, -33.937],
    {
      category: 'school',
      address_id: ids['dorp stellenbosch 3'],
    },
  );
  ids['eikestad estate'] = await poi(
    'Eikestad Estate',
    'Stellenbosch',
    'Stellenbosch Central',
    [estateLng, -33.9357],
    {
      poi_type: 10500,
      category: 'estate',
    },
  );

  // Each farm portion is a parcel too, numbered in the farms' series.
  const farm = async (
    name: string,
    farm_number: number,
    portion: number,
    division: string,
    [w, s]: number[],
  ) => {
    const geom = box(w, s, w + 0.02, s + 0.02);
    const parcel_id = await insert(
      'parcels',
      { parcel_number: String(farm_number), portion, town: 'Pretoria' },
      { geom },
    );
    return insert(
      'farms',
      { name, farm_number, portion, division, parcel_id, town: 'Pretoria', province: 'Gauteng' },
      { geom },
    );
  };
  ids['rietfontein 189'] = await farm('Rietfontein', 189, 0, 'JR', [28.4, -25.9]);
  ids['rietfontein 189/3'] = await farm('Rietfontein', 189, 3, 'JR', [28.43, -25.9]);
  ids['rietfontein 201'] = await farm('Rietfontein', 201, 0, 'IQ', [27.6, -26.1]);
  ids['doornkloof 391'] = await farm('Doornkloof', 391, 0, 'JR', [28.2, -25.95]);
  ids['doornkloof 391/3'] = await farm('Doornkloof', 391, 3, 'JR', [28.23, -25.95]);
  ids['uitkyk 12'] = await farm('Uitkyk', 12, 0, 'KT', [30.0, -24.5]);
}

beforeAll(async () => {
  ensureKeyPair(privateKeyFile, publicKeyFile);
  db = await createTestDatabase();
  await insertFixtures();
  await db.dataSource.query('ANALYZE');
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

const CHURCH_12 = '12 Church Street, Stellenbosch Central, Stellenbosch, 7600';

// ---------------------------------------------------------------------------------------------------

describe('sessions', () => {
  it.each(Object.values(AVS_API))('%s needs a session', async (url) => {
    const res = await post(
      url,
      { query: 'church', address: 'church', lat: -33.9, lng: 18.8, id: '1', type: 'poi' },
      null,
    );
    expect(res.statusCode).toBe(401);
  });

  it('needs a user with an e-mail address', async () => {
    const res = await post(AVS_API.search, { query: 'church street' }, '');
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(AVS_TEXT.needsEmail);
  });
});

describe('address search', () => {
  it('finds an address typed in full, with the country the locator appends', async () => {
    const [first] = await geocodeOf('12 Church Street, Stellenbosch Central, Stellenbosch South Africa');
    expect(first).toEqual({
      id: ids['church stellenbosch 12'],
      type: 'address',
      formatted_address: CHURCH_12,
      short_formatted_address: '12 Church Street',
      location: { lat: expect.any(Number), lng: expect.any(Number) },
      confidence: 1,
      parcelId: ids['church stellenbosch erf 12'],
      suburb: 'Stellenbosch Central',
      town: 'Stellenbosch',
      postalCode: '7600',
    });
    expect(first.location.lat).toBeCloseTo(STELLENBOSCH.lat + 0.0001, 6);
  });

  it.each([
    ['typos', '12 chruch stret stelenbosch'],
    ['abbreviations', '12 Church St, Stellenbosch'],
    ['the short Afrikaans abbreviation', '12 church str stellenbosch'],
    ['a half-typed last word', '12 church st stell'],
    ['no suburb, lower case', '12 church street stellenbosch'],
    ['the suburb only', '12 Church Street, Stellenbosch Central'],
  ])('is tolerant of %s', async (_what, query) => {
    const [first] = await searchFor(query, { address: true });
    expect(first.id).toBe(ids['church stellenbosch 12']);
    expect(first.formatted_address).toBe(CHURCH_12);
  });

  it('orders namesakes by the importance of their town when nothing else tells them apart', async () => {
    const results = await searchFor('12 Church Street', { address: true });
    expect(results.slice(0, 3).map((r) => r.id)).toEqual([
      ids['church stellenbosch 12'],
      ids['church paarl 12'],
      ids['church worcester 12'],
    ]);
    expect(results[0].confidence).toBe(results[1].confidence);
  });

  it('uses a typed postal code to choose between namesakes', async () => {
    const [first, second] = await searchFor('12 Church Street 7646', { address: true });
    expect(first.id).toBe(ids['church paarl 12']);
    expect(second.confidence).toBeLessThan(first.confidence);
  });

  it('tells the exact house number (and letter) from the nearest one', async () => {
    const [letter] = await searchFor('12A Church Street Stellenbosch', { address: true });
    expect(letter.id).toBe(ids['church stellenbosch 12A']);
    expect(letter.confidence).toBe(1);

    // There is no 16: the nearest number on the street (14) comes, less sure.
    const [nearest] = await searchFor('16 Church Street Stellenbosch', { address: true });
    expect(nearest.id).toBe(ids['church stellenbosch 14']);
    expect(nearest.confidence).toBeLessThan(0.8);
    expect(nearest.confidence).toBeGreaterThan(0.5);
  });

  it('finds a unit in an estate, with or without the estate name', async () => {
    const [unit] = await searchFor('Unit 2, 30 Church Street, Stellenbosch', { address: true });
    expect(unit.id).toBe(ids['estate unit 2']);
    expect(unit.formatted_address).toBe(
      'Unit 2 Eikestad Estate, 30 Church Street, Stellenbosch Central, Stellenbosch, 7600',
    );
    const [named] = await searchFor('unit 3 eikestad estate 30 church st stellenbosch', { address: true });
    expect(named.id).toBe(ids['estate unit 3']);
  });

  it('finds an Afrikaans street name written apart or with the English street type', async () => {
    for (const [query, expected] of [
      ['7 Kerkstraat, Die Boord', 'kerkstraat 7'],
      ['7 kerk straat stellenbosch', 'kerkstraat 7'],
      ['9 Kerk Street Die Boord', 'kerkstraat 9'],
    ]) {
      const [first] = await searchFor(query, { address: true });
      expect([query, first.id]).toEqual([query, ids[expected]]);
    }
  });

  it('finds the street of the type typed among more namesakes of other types than it takes as candidates', async () => {
    for (const [query, expected] of [
      ['16 Tshepo Blvd, East London', 'tshepo boulevard 16'],
      ['16 tshepo boulevard', 'tshepo boulevard 16'],
      ['59 Bos Laan, Bloemfontein', 'boslaan 59'],
      ['59 Boslaan Bloemfontein', 'boslaan 59'],
      ['59 bos avenue', 'boslaan 59'],
    ]) {
      const [first] = await searchFor(query, { address: true });
      expect([query, first.id]).toEqual([query, ids[expected]]);
    }
  });

  it('answers the street itself when no number is typed', async () => {
    const [first] = await searchFor('dorp street stellenbosch', { address: true });
    expect(first).toMatchObject({
      id: ids['dorp stellenbosch'],
      type: 'street',
      formatted_address: 'Dorp Street, Stellenbosch Central, Stellenbosch, 7600',
    });
  });

  it('answers ten results, fifty with includeAll, and source keys only with includeIds', async () => {
    const page = await searchFor('5 Jonkershoek Road', { address: true });
    expect(page).toHaveLength(10);
    expect(page.every((r) => r.sourceKey === undefined)).toBe(true);
    const all = await searchFor(
      '5 Jonkershoek Road',
      { address: true },
      { includeAll: true, includeIds: true },
    );
    expect(all).toHaveLength(14);
    expect(all.every((r) => r.sourceKey?.startsWith('test:addresses-'))).toBe(true);
  });

  it('answers nothing rather than noise for a query that matches nothing', async () => {
    expect(await searchFor('12 Xylophone Boulevard Zzyzx', { address: true })).toEqual([]);
  });
});

describe('erven, farms, POIs, areas and postal codes', () => {
  it('finds an erf by number in the town typed', async () => {
    const [inStellenbosch] = await searchFor('Erf 1212 Stellenbosch');
    expect(inStellenbosch).toMatchObject({
      id: ids['church stellenbosch erf 12'],
      type: 'erf',
      formatted_address: 'Erf 1212, 12 Church Street, Stellenbosch Central, Stellenbosch',
      parcelId: ids['church stellenbosch erf 12'],
    });
    const [inPaarl] = await searchFor('1212 paarl', { erf: true });
    expect(inPaarl.id).toBe(ids['church paarl erf 12']);
    const [empty] = await searchFor('erf 1240', { erf: true }, { includeIds: true });
    expect(empty).toMatchObject({ id: ids['empty erf'], sourceKey: 'C06700010000124000000' });
  });

  it('finds farms by name and number, portion and typo', async () => {
    const farm = async (query: string) => (await searchFor(query, { farm: true }))[0];
    expect(await farm('Rietfontein 189')).toMatchObject({
      id: ids['rietfontein 189'],
      type: 'farm',
      formatted_address: 'Rietfontein 189 JR, Pretoria, Gauteng',
    });
    expect((await farm('Rietfontein 201')).id).toBe(ids['rietfontein 201']);
    expect((await farm('rietfontien 189 ptn 3')).id).toBe(ids['rietfontein 189/3']);
    expect(await farm('farm Doornkloof portion 3')).toMatchObject({
      id: ids['doornkloof 391/3'],
      short_formatted_address: 'Portion 3 of Doornkloof 391 JR',
    });
    expect((await farm('201 IQ')).id).toBe(ids['rietfontein 201']);
    // A farm portion's parcel is not an erf.
    expect(await searchFor('erf 189', { erf: true })).toEqual([]);
  });

  it('finds POIs by name, in any order and with typos', async () => {
    const [hospital] = await searchFor('stellenbosch hospital', { poi: true });
    expect(hospital).toMatchObject({ id: ids['stellenbosch hospital'], type: 'poi' });
    const [paarl] = await searchFor('hospitl paarl', { poi: true });
    expect(paarl.id).toBe(ids['paarl hospital']);
    const [school] = await searchFor('Rhenish Primary', { poi: true });
    expect(school).toMatchObject({
      id: ids.rhenish,
      formatted_address: 'Rhenish Primary School, 3 Dorp Street, Stellenbosch Central, Stellenbosch, 7600',
    });
  });

  it('finds areas by name with the marker flag', async () => {
    const [area] = await searchFor('die boord', { marker: true });
    expect(area).toMatchObject({
      id: ids.dieBoord,
      type: 'place',
      formatted_address: 'Die Boord, Stellenbosch',
      confidence: 1,
    });
  });

  it('finds postal codes by code, short code, box code and suburb', async () => {
    const postal = async (query: string) => {
      const res = await post(AVS_API.searchPostal, { query });
      expect(res.statusCode).toBe(200);
      return res.json<SearchAnswer>().result;
    };
    expect((await postal('7600'))[0]).toMatchObject({
      id: ids['postal 7600'],
      type: 'postal',
      formatted_address: 'Stellenbosch Central, Stellenbosch, 7600',
      postalCode: '7600',
    });
    expect((await postal('83'))[0].id).toBe(ids['postal 0083']);
    expect((await postal('7620'))[0].id).toBe(ids['postal 7646']);
    expect((await postal('die bord'))[0].id).toBe(ids['postal 7613']);
    expect((await searchFor('7613', { postal: true }))[0].id).toBe(ids['postal 7613']);
  });

  it('merges every kind in a general search, best first', async () => {
    const results = await searchFor('stellenbosch');
    expect(results[0]).toMatchObject({ id: ids.stellenbosch, type: 'place' });
    const confidences = results.map((r) => r.confidence);
    expect(confidences).toEqual([...confidences].sort((a, b) => b - a));
  });

  it('geocodes a town when no address matches', async () => {
    const [first] = await geocodeOf('Paarl');
    expect(first).toMatchObject({ id: ids.paarl, type: 'place' });
  });
});

describe('reverse', () => {
  const church12 = { lat: STELLENBOSCH.lat + 0.0002, lng: STELLENBOSCH.lng0 + 12 * 0.00015 };

  it('answers the parcel under the point with its addresses', async () => {
    const result = await reverseAt(church12.lat, church12.lng + 0.00003);
    expect(result.parcel).toMatchObject({
      id: ids['church stellenbosch erf 12'],
      formatted_address: CHURCH_12,
      addresses: [{ id: ids['church stellenbosch 12'], short_formatted_address: '12 Church Street' }],
      geometry: { type: 'MultiPolygon' },
      parcelNumber: '1212',
      portion: 0,
    });
    expect(result.address).toMatchObject({ id: ids['church stellenbosch 12'], confidence: 1 });
    expect(result.distance).toBeGreaterThan(2);
    expect(result.distance).toBeLessThan(15);
    expect(result.area).toBeNull();
  });

  it("lists an estate's units and answers the unit nearest the point", async () => {
    const estateLng = STELLENBOSCH.lng0 + 30 * 0.00015;
    const result = await reverseAt(STELLENBOSCH.lat + 0.0003, estateLng + 0.00031);
    expect(result.parcel?.addresses.map((a) => a.short_formatted_address)).toEqual([
      'Unit 1 Eikestad Estate, 30 Church Street',
      'Unit 2 Eikestad Estate, 30 Church Street',
      'Unit 3 Eikestad Estate, 30 Church Street',
    ]);
    expect(result.address?.id).toBe(ids['estate unit 3']);
  });

  it('answers the nearest address, and how far it is, for a parcel without one', async () => {
    const result = await reverseAt(EMPTY_ERF.lat, EMPTY_ERF.lng);
    expect(result.parcel).toMatchObject({
      id: ids['empty erf'],
      addresses: [],
      formatted_address: 'Erf 1240, Stellenbosch Central, Stellenbosch',
      sgKey: 'C06700010000124000000',
    });
    // 20 Church Street is 20 numbers (0.003° of longitude, about 277 m) west; the estate's units are nearer.
    expect(result.address?.id).toBe(ids['estate unit 3']);
    const [{ metres }] = await db.dataSource.query(
      `SELECT ST_Distance(point::geography, ST_SetSRID(ST_MakePoint($1, $2), 4326)::geography) AS metres
       FROM geo.addresses WHERE id = $3`,
      [EMPTY_ERF.lng, EMPTY_ERF.lat, ids['estate unit 3']],
    );
    expect(result.distance).toBeCloseTo(Number(metres), 0);
    expect(result.address!.confidence).toBeLessThan(1);
  });

  it('answers the nearest address outside any parcel, and none far from every address', async () => {
    const outside = await reverseAt(STELLENBOSCH.lat - 0.0003, church12.lng);
    expect(outside.parcel).toBeNull();
    expect(outside.address?.id).toBe(ids['church stellenbosch 12']);

    const karoo = await reverseAt(-32.3, 22.5);
    expect(karoo).toEqual({ parcel: null, address: null, distance: null, area: null });
    expect(NEAREST_ADDRESS_MAX_METRES).toBe(1000);
  });

  it('answers the area around the point for a marker search', async () => {
    const result = await reverseAt(church12.lat, church12.lng, 'marker');
    expect(result.area).toMatchObject({
      id: ids.stellenboschCentral,
      type: 'place',
      name: 'Stellenbosch Central',
    });
    expect(result.area?.geometry.type).toBe('MultiPolygon');
    const town = await reverseAt(-33.91, 18.83, 'marker');
    expect(town.area).toMatchObject({ id: ids.stellenbosch, name: 'Stellenbosch' });
  });

  it('refuses points outside South Africa: by extent without an outline, by outline with one', async () => {
    const london = await post(AVS_API.reverse, { lat: 51.5, lng: -0.12 });
    expect(london.statusCode).toBe(400);
    expect(london.json().message).toBe(REVERSE_TEXT.outside);

    // A made-up outline that leaves out the far north-west corner of the extent.
    const country = await insert(
      'places',
      { kind: 'country', name: 'South Africa', importance: 1 },
      {
        point: pointAt(25, -29),
        geom: box(17.5, -35, 33, -22),
      },
    );
    try {
      expect((await post(AVS_API.reverse, { lat: -23, lng: 16.8 })).statusCode).toBe(400);
      // Just outside the outline still counts (a simplified coast must not refuse a coastal property).
      expect((await post(AVS_API.reverse, { lat: -33.9, lng: 17.47 })).statusCode).toBe(200);
      expect((await post(AVS_API.reverse, { lat: church12.lat, lng: church12.lng })).statusCode).toBe(200);
    } finally {
      await db.dataSource.query('DELETE FROM geo.places WHERE id = $1', [country]);
    }
  });
});

describe('geojson', () => {
  const shape = async (id: string, type: string) => {
    const res = await post(AVS_API.geojson, { id, type });
    expect([type, res.statusCode]).toEqual([type, 200]);
    return res.json<GeoJsonAnswer>().result;
  };

  it.each([
    ['address', 'church stellenbosch 12', 'Point', CHURCH_12],
    ['poi', 'stellenbosch hospital', 'Point', 'Stellenbosch Hospital'],
    ['farm', 'doornkloof 391/3', 'MultiPolygon', 'Portion 3 of Doornkloof 391 JR'],
    ['erf', 'empty erf', 'MultiPolygon', 'Erf 1240, Stellenbosch Central, Stellenbosch'],
    ['parcel', 'church paarl erf 12', 'MultiPolygon', 'Erf 1212, Paarl Central, Paarl'],
    ['postal', 'postal 7613', 'MultiPolygon', 'Die Boord, Stellenbosch, 7613'],
    ['place', 'paarl', 'MultiPolygon', 'Paarl'],
    ['street', 'dorp stellenbosch', 'MultiLineString', 'Dorp Street, Stellenbosch Central, Stellenbosch'],
  ])('answers the name and shape of a %s', async (type, key, geometryType, name) => {
    const result = await shape(ids[key], type);
    expect(result).toMatchObject({ id: ids[key], type, name, geometry: { type: geometryType } });
    expect(result.geometry.coordinates?.length).toBeGreaterThan(0);
  });

  it('refuses unknown types and ids that are not numbers, and answers 404 for unknown ids', async () => {
    const house = await post(AVS_API.geojson, { id: ids.paarl, type: 'house' });
    expect(house.statusCode).toBe(400);
    expect(house.json().message).toBe(GEOJSON_TEXT.badType('house'));
    const letters = await post(AVS_API.geojson, { id: '12abc', type: 'poi' });
    expect(letters.statusCode).toBe(400);
    expect(letters.json().message).toBe(GEOJSON_TEXT.badId('12abc'));
    expect((await post(AVS_API.geojson, { id: '99999999999999999999', type: 'poi' })).statusCode).toBe(400);
    const missing = await post(AVS_API.geojson, { id: '987654321', type: 'farm' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(GEOJSON_TEXT.notFound('farm', '987654321'));
  });
});

describe('bad input', () => {
  it.each([
    [AVS_API.search, { query: '' }],
    [AVS_API.search, { query: 'x'.repeat(400) }],
    [AVS_API.search, { query: 'church', searchOptions: { address: 'yes please' } }],
    [AVS_API.geocode, {}],
    [AVS_API.reverse, { lat: 'south', lng: 18.8 }],
    [AVS_API.reverse, { lat: -95, lng: 18.8 }],
    [AVS_API.reverse, { lat: -33.9 }],
    [AVS_API.geojson, { id: '', type: 'poi' }],
  ])('%s refuses %j with a 400', async (url, payload) => {
    const res = await post(url, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
  });

  it.each([
    ['   ', QUERY_TEXT.empty],
    [' South Africa', QUERY_TEXT.empty],
    ['%%% ???', QUERY_TEXT.noWords],
    ['y'.repeat(205), QUERY_TEXT.tooLong],
  ])('says what is wrong with the query %j', async (query, message) => {
    for (const [url, payload] of [
      [AVS_API.search, { query }],
      [AVS_API.searchPostal, { query }],
      [AVS_API.geocode, { address: query }],
    ] as const) {
      const res = await post(url, payload);
      expect([url, res.statusCode, res.json().message]).toEqual([url, 400, message]);
    }
  });
});

describe('paths with and without their trailing slash', () => {
  it('answers every registered route both ways, and the gateway sends both forms to locator', async () => {
    expect(await trailingSlashProblems(app, { service: 'locator' })).toEqual([]);
  });
});
