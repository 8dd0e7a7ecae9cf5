import { createTestDatabase, type TestDatabase } from '@portal/db';
import { type BuildingLife, footprintOn } from '../buildingLife';
import { loadReferenceData } from '../reference/load-reference';
import { generateGeodata, type GenerateResult } from './generate';
import { GENERATED_TABLES } from './run';

/** Three towns of different size in three provinces: a small dataset in a few seconds. */
const TOWNS = ['Stellenbosch', 'Pretoria', 'Durban'];

jest.setTimeout(30_000);

describe('generateGeodata on PostGIS', () => {
  let database: TestDatabase;
  let first: GenerateResult;
  const query = async <T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]> =>
    database.dataSource.query(sql, params);
  const one = async (sql: string, params?: unknown[]) => Object.values((await query(sql, params))[0])[0];
  /** A digest of every generator row (id, source_id and content), table by table. */
  const digest = async () => {
    const digests: Record<string, unknown> = {};
    for (const table of GENERATED_TABLES) {
      digests[table] = await one(
        `SELECT md5(string_agg(t::text, '|' ORDER BY t.source_id)) FROM geo.${table} t WHERE source = 'generator'`,
      );
    }
    return digests;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    first = await generateGeodata(database.dataSource, { scale: 2000, seed: 'test', towns: TOWNS });
  }, 60_000);
  afterAll(() => database?.drop());

  it('loads the reference places: the country, nine provinces and the towns under them', async () => {
    expect(first.reference).toEqual({ country: 1, provinces: 9, towns: expect.any(Number) });
    expect(
      await one(`SELECT count(*)::int FROM geo.places WHERE source = 'reference' AND kind = 'province'`),
    ).toBe(9);
    expect(await one(`SELECT count(*)::int FROM geo.places WHERE kind = 'town' AND parent_id IS NULL`)).toBe(
      0,
    );
    // Pretoria's and Stellenbosch's points lie inside the country's outline.
    const inside = await query<{ name: string; inside: boolean }>(
      `SELECT t.name, ST_Contains(c.geom, t.point) AS inside FROM geo.places t, geo.places c
        WHERE c.kind = 'country' AND t.kind = 'town' AND t.name IN ('Pretoria', 'Stellenbosch') ORDER BY t.name`,
    );
    expect(inside).toEqual([
      { name: 'Pretoria', inside: true },
      { name: 'Stellenbosch', inside: true },
    ]);
    const gauteng = await one(
      `SELECT p.code FROM geo.places t JOIN geo.places p ON p.id = t.parent_id WHERE t.kind = 'town' AND t.name = 'Pretoria'`,
    );
    expect(gauteng).toBe('GT');
    // Loading it again changes nothing.
    const again = await loadReferenceData(database.dataSource);
    expect(again.towns).toBe(first.reference.towns);
    expect(await one(`SELECT count(*)::int FROM geo.places WHERE source = 'reference'`)).toBe(
      1 + 9 + again.towns,
    );
  });

  it('writes about the asked number of addresses in the asked towns, and records the run', async () => {
    expect(first.towns).toEqual(['Durban', 'Pretoria', 'Stellenbosch']);
    expect(first.counts.addresses).toBeGreaterThanOrEqual(2000);
    expect(first.counts.addresses).toBeLessThan(2000 + 3 * 150);
    for (const [table, count] of Object.entries(first.counts))
      expect({ table, count }).toEqual({ table, count: expect.any(Number) });
    expect(Object.values(first.counts).every((count) => count > 0)).toBe(true);
    const [run] = await query<{ input: string; loaded: Record<string, number>; finished: boolean }>(
      `SELECT input, loaded, finished_at IS NOT NULL AS finished FROM geo.import_runs WHERE id = $1`,
      [first.importRunId],
    );
    expect(run).toEqual({
      input: 'generator --scale 2000 --seed test --towns Stellenbosch,Pretoria,Durban',
      loaded: expect.objectContaining({ addresses: first.counts.addresses, parcels: first.counts.parcels }),
      finished: true,
    });
  });

  it('writes valid geometries only', async () => {
    for (const [table, column] of [
      ['places', 'geom'],
      ['streets', 'geom'],
      ['parcels', 'geom'],
      ['farms', 'geom'],
      ['buildings', 'geom'],
      ['buildings', 'geom_before_extension'],
      ['imagery_coverage', 'geom'],
      ['addresses', 'point'],
      ['pois', 'point'],
    ]) {
      const invalid = await one(
        `SELECT count(*)::int FROM geo.${table} WHERE ${column} IS NOT NULL AND NOT ST_IsValid(${column})`,
      );
      expect({ table, invalid }).toEqual({ table, invalid: 0 });
    }
  });

  it('puts addresses and buildings inside their parcels and parcels inside their suburb', async () => {
    expect(
      await one(
        `SELECT count(*)::int FROM geo.addresses a JOIN geo.parcels p ON p.id = a.parcel_id WHERE NOT ST_Contains(p.geom, a.point)`,
      ),
    ).toBe(0);
    expect(await one(`SELECT count(*)::int FROM geo.addresses WHERE parcel_id IS NULL`)).toBe(0);
    expect(
      await one(
        `SELECT count(*)::int FROM geo.buildings b JOIN geo.parcels p ON p.id = b.parcel_id WHERE NOT ST_Contains(p.geom, b.geom)`,
      ),
    ).toBe(0);
    expect(
      await one(
        `SELECT count(*)::int FROM geo.parcels p JOIN geo.places s ON s.id = p.suburb_id WHERE NOT ST_Contains(s.geom, p.geom)`,
      ),
    ).toBe(0);
  });

  it('lays out parcels that do not overlap (Stellenbosch: erven and farms)', async () => {
    const parcels = await one(`SELECT count(*)::int FROM geo.parcels WHERE town = 'Stellenbosch'`);
    expect(parcels).toBeGreaterThan(50);
    const overlapping = await one(
      `SELECT count(*)::int FROM geo.parcels a JOIN geo.parcels b ON a.id < b.id AND a.geom && b.geom
        WHERE a.town = 'Stellenbosch' AND b.town = 'Stellenbosch' AND ST_Intersects(a.geom, b.geom)
          AND ST_Area(ST_Intersection(a.geom, b.geom)::geography) > 0.01`,
    );
    expect(overlapping).toBe(0);
    // Towns do not overlap each other either: no suburb of one town meets another town's parcels.
    expect(
      await one(
        `SELECT count(*)::int FROM geo.places s JOIN geo.parcels p ON p.geom && s.geom AND ST_Intersects(p.geom, s.geom)
          WHERE s.kind = 'suburb' AND p.suburb_id IS DISTINCT FROM s.id AND ST_Area(ST_Intersection(p.geom, s.geom)::geography) > 0.01`,
      ),
    ).toBe(0);
  });

  it('gives every address a street, suburb, town and 4-digit postal code, and some erven none', async () => {
    expect(
      await one(
        `SELECT count(*)::int FROM geo.addresses a LEFT JOIN geo.streets s ON s.id = a.street_id
          WHERE s.id IS NULL OR a.street_name <> s.name OR a.suburb = '' OR a.town = '' OR a.postal_code !~ '^[0-9]{4}$'
             OR a.number_value IS NULL OR a.house_number !~ ('^' || a.number_value || '[A-Z]?$')`,
      ),
    ).toBe(0);
    expect(
      await one(
        `SELECT count(*)::int FROM geo.postal_codes WHERE street_code !~ '^[0-9]{4}$' OR box_code !~ '^[0-9]{4}$'`,
      ),
    ).toBe(0);
    expect(await one(`SELECT count(*)::int FROM geo.postal_codes WHERE place_id IS NULL`)).toBe(0);
    expect(
      await one(
        `SELECT count(*)::int FROM geo.parcels p WHERE p.suburb_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM geo.addresses a WHERE a.parcel_id = p.id)`,
      ),
    ).toBeGreaterThan(0);
    const street = (
      await query<{ search_text: string; name: string; suburb: string; town: string }>(
        `SELECT search_text, name, suburb, town FROM geo.streets LIMIT 1`,
      )
    )[0];
    expect(street.search_text).toBe(street.search_text.toLowerCase());
    expect(street.search_text.endsWith(street.town.toLowerCase())).toBe(true);
  });

  it('writes estates with units, POIs of every kind, farms and buildings', async () => {
    const types = await query<{ poi_type: number; n: number }>(
      `SELECT poi_type, count(*)::int AS n FROM geo.pois GROUP BY poi_type ORDER BY poi_type`,
    );
    expect(types.map((row) => row.poi_type)).toEqual([10000, 10500, 11000]);
    expect(
      await one(
        `SELECT count(*)::int FROM geo.pois u JOIN geo.pois e ON e.id = u.parent_id JOIN geo.addresses a ON a.id = u.address_id
          WHERE u.poi_type = 11000 AND e.poi_type = 10500 AND a.estate = e.name AND a.unit IS NOT NULL AND u.parcel_id = e.parcel_id`,
      ),
    ).toBe(types[2].n);
    const categories = (
      await query<{ category: string }>(`SELECT DISTINCT category FROM geo.pois WHERE poi_type = 10000`)
    ).map((row) => row.category);
    expect(categories).toEqual(expect.arrayContaining(['school', 'church', 'shopping_centre', 'fuel']));
    expect(
      await one(
        `SELECT count(*)::int FROM geo.farms f JOIN geo.parcels p ON p.id = f.parcel_id WHERE p.parcel_type_id = 5 AND p.portion = f.portion`,
      ),
    ).toBe(first.counts.farms);
    expect(await one(`SELECT count(*)::int FROM geo.parcels WHERE length(sg_key) <> 21`)).toBe(0);
  });

  it('has places with high-resolution imagery, with ortho only, and with neither', async () => {
    const states = await query<{ state: string }>(
      `SELECT DISTINCT CASE
           WHEN EXISTS (SELECT 1 FROM geo.imagery_coverage c WHERE c.kind = 'high_resolution' AND ST_Intersects(c.geom, a.point)) THEN 'high_resolution'
           WHEN EXISTS (SELECT 1 FROM geo.imagery_coverage c WHERE c.kind = 'ortho' AND ST_Intersects(c.geom, a.point)) THEN 'ortho'
           ELSE 'none' END AS state
         FROM geo.addresses a ORDER BY state`,
    );
    expect(states.map((row) => row.state)).toEqual(['high_resolution', 'none', 'ortho']);
  });

  it('writes several dated surveys per covered town, 2014–2026, the newest at the core a high-resolution flight', async () => {
    const towns = await query<{
      town: string;
      surveys: number;
      first: string;
      last: string;
      providers: string[];
    }>(
      `SELECT split_part(source_id, ':', 2) AS town, count(*)::int AS surveys,
              min(captured_on)::text AS first, max(captured_on)::text AS last, array_agg(DISTINCT provider) AS providers
         FROM geo.imagery_coverage WHERE source = 'generator' GROUP BY 1 ORDER BY 1`,
    );
    expect(towns.length).toBe(2);
    for (const town of towns) {
      expect(town.surveys).toBeGreaterThanOrEqual(4);
      expect(town.first >= '2014-01-01' && town.last <= '2026-10-31').toBe(true);
      expect(town.providers).toEqual(['Portal imagery']);
    }
    // Inside the newest flight's polygon the newest survey is that flight (the spec's calls answer from it).
    const newestAtCore = await query<{ kind: string }>(
      `WITH flight AS (
         SELECT geom FROM geo.imagery_coverage WHERE kind = 'high_resolution' ORDER BY captured_on DESC LIMIT 1)
       SELECT DISTINCT (SELECT c.kind FROM geo.imagery_coverage c WHERE ST_Intersects(c.geom, a.point)
                         ORDER BY c.captured_on DESC, c.id DESC LIMIT 1) AS kind
         FROM geo.addresses a, flight WHERE ST_Intersects(flight.geom, a.point)`,
    );
    expect(newestAtCore).toEqual([{ kind: 'high_resolution' }]);
  });

  it('extends houses by more than 10 % of their footprint, from a footprint inside today’s', async () => {
    const [extended] = await query<{ total: number; small: number; outside: number }>(
      `SELECT count(*)::int AS total,
              (count(*) FILTER (WHERE ST_Area(geom::geography) <= 1.1 * ST_Area(geom_before_extension::geography)))::int AS small,
              (count(*) FILTER (WHERE NOT ST_Covers(ST_Buffer(geom, 1e-9), geom_before_extension)))::int AS outside
         FROM geo.buildings WHERE extended_on IS NOT NULL`,
    );
    expect(extended.total).toBeGreaterThan(20);
    expect(extended).toEqual({ total: extended.total, small: 0, outside: 0 });
  });

  it('has nothing standing at a survey’s date where something else stood then on its parcel', async () => {
    const overlaps = await one(
      `WITH day AS (SELECT DISTINCT captured_on AS d FROM geo.imagery_coverage),
       standing AS (
         SELECT day.d, b.id, b.parcel_id,
                CASE WHEN b.extended_on > day.d THEN b.geom_before_extension ELSE b.geom END AS footprint
           FROM day, geo.buildings b
          WHERE (b.built_on IS NULL OR b.built_on <= day.d) AND (b.demolished_on IS NULL OR b.demolished_on > day.d))
       SELECT count(*)::int FROM standing a JOIN standing b
           ON a.d = b.d AND a.parcel_id = b.parcel_id AND a.id < b.id AND a.footprint && b.footprint
        WHERE ST_Area(ST_Intersection(a.footprint, b.footprint)::geography) > 0.01`,
    );
    expect(overlaps).toBe(0);
  });

  it('stands at each survey date what the written dates say (buildingLife.footprintOn), and changes between them', async () => {
    const days = (
      await query<{ day: string }>(
        `SELECT DISTINCT captured_on::text AS day FROM geo.imagery_coverage WHERE name LIKE 'Durban %' ORDER BY 1`,
      )
    ).map((row) => row.day);
    expect(days.length).toBeGreaterThanOrEqual(4);
    const rows = await query<BuildingLife & { id: string; geom: string; geomBeforeExtension: string | null }>(
      `SELECT b.id::text AS id, b.built_on::text AS "builtOn", b.demolished_on::text AS "demolishedOn",
              b.extended_on::text AS "extendedOn", ST_AsText(b.geom) AS geom,
              ST_AsText(b.geom_before_extension) AS "geomBeforeExtension"
         FROM geo.buildings b JOIN geo.parcels p ON p.id = b.parcel_id WHERE p.town = 'Durban'`,
    );
    const states: string[] = [];
    for (const day of days) {
      const expected = rows
        .map((row) => [row.id, footprintOn(row, day)])
        .filter(([, footprint]) => footprint !== null)
        .map(([id, footprint]) => `${id} ${footprint}`)
        .sort();
      const stood = await query<{ row: string }>(
        `SELECT b.id::text || ' ' || ST_AsText(CASE WHEN b.extended_on > $1 THEN b.geom_before_extension ELSE b.geom END) AS row
           FROM geo.buildings b JOIN geo.parcels p ON p.id = b.parcel_id
          WHERE p.town = 'Durban' AND (b.built_on IS NULL OR b.built_on <= $1)
            AND (b.demolished_on IS NULL OR b.demolished_on > $1)`,
        [day],
      );
      expect(stood.map((row) => row.row).sort()).toEqual(expected);
      states.push(expected.join('|'));
    }
    // Every survey after the first shows something the one before did not (a few hundred erven, ~17 % change).
    states.slice(1).forEach((state, i) => expect(state).not.toBe(states[i]));
  });

  it('writes the same rows with the same ids when run again, and removes what a smaller run no longer has', async () => {
    const before = await digest();
    const again = await generateGeodata(database.dataSource, { scale: 2000, seed: 'test', towns: TOWNS });
    expect(again.counts).toEqual(first.counts);
    expect(Object.values(again.removed).every((count) => count === 0)).toBe(true);
    expect(await digest()).toEqual(before);

    const idsBefore = await query<{ source_id: string; id: string }>(
      `SELECT source_id, id::text AS id FROM geo.addresses WHERE source = 'generator'`,
    );
    const smaller = await generateGeodata(database.dataSource, { scale: 1000, seed: 'test', towns: TOWNS });
    expect(smaller.counts.addresses).toBeLessThan(first.counts.addresses);
    expect(smaller.removed.addresses).toBeGreaterThan(0);
    for (const table of ['addresses', 'parcels', 'buildings', 'streets', 'pois'] as const) {
      const count = await one(`SELECT count(*)::int FROM geo.${table} WHERE source = 'generator'`);
      expect({ table, count }).toEqual({ table, count: smaller.counts[table] });
    }
    // The rows both runs have kept their ids.
    const idsAfter = new Map(
      (
        await query<{ source_id: string; id: string }>(
          `SELECT source_id, id::text AS id FROM geo.addresses WHERE source = 'generator'`,
        )
      ).map((row) => [row.source_id, row.id]),
    );
    const kept = idsBefore.filter((row) => idsAfter.has(row.source_id));
    expect(kept.length).toBeGreaterThan(500);
    expect(kept.filter((row) => idsAfter.get(row.source_id) !== row.id)).toEqual([]);
  });

  it('refuses a scale that is not a number of addresses', async () => {
    await expect(generateGeodata(database.dataSource, { scale: 0 })).rejects.toThrow(/scale must be/);
  });
});
