/**
 * Loads the reference places (source 'reference'): South Africa as a country with its outline, its nine
 * provinces (a label point each) and its towns from GeoNames (point, population, importance, province).
 * Idempotent: rows meet on (source, source_id) and keep their ids.
 */
import { GEOMETRY, type Queryable, upsertRows, type UpsertColumn } from '../load/upsert';
import { PROVINCES } from './provinces';
import { importanceOfPopulation, southAfricanTowns, southAfricaOutline } from './south-africa';
import { answeringRows } from '../generator/connection';
import { pointHex } from '../generator/ewkb';

export const REFERENCE_SOURCE = 'reference';

export interface ReferenceCounts {
  country: number;
  provinces: number;
  towns: number;
}

/** The ids of the reference places, for the generator and importers to hang their rows on. */
export interface ReferencePlaceIds {
  country: string;
  /** By province code (WC). */
  provinces: Map<string, string>;
  /** By GeoNames id. */
  towns: Map<number, string>;
}

const PLACE_COLUMNS: UpsertColumn[] = [
  { name: 'kind', type: 'text' },
  { name: 'name', type: 'text' },
  { name: 'code', type: 'text' },
  { name: 'parent_id', type: 'int8' },
  { name: 'population', type: 'int4' },
  { name: 'importance', type: 'float4' },
  { name: 'point', type: 'text', expression: '$::geometry' },
  { name: 'geom', type: 'text', expression: '$::geometry' },
  { name: 'source', type: 'text' },
  { name: 'source_id', type: 'text' },
];

/** Source ids of the reference places (stable: importers may refer to them). */
export const referenceSourceId = {
  country: 'country:ZA',
  province: (code: string) => `province:${code}`,
  town: (geonameId: number) => `geonames:${geonameId}`,
};

export async function loadReferenceData(
  client: Queryable,
): Promise<ReferenceCounts & { ids: ReferencePlaceIds }> {
  const db = answeringRows(client);
  const towns = southAfricanTowns();
  const outline = southAfricaOutline();

  // The outline goes in as GeoJSON and is made valid on the way (Natural Earth is, but cheaply sure).
  const [country] = await upsertRows(
    db,
    'geo.places',
    [
      ...PLACE_COLUMNS.slice(0, 7),
      {
        name: 'geom',
        type: 'text',
        expression: `ST_Multi(ST_CollectionExtract(ST_MakeValid(${GEOMETRY.multiPolygon}), 3))`,
      },
      ...PLACE_COLUMNS.slice(8),
    ],
    [
      [
        'country',
        'South Africa',
        'ZA',
        null,
        towns.reduce((sum, town) => sum + town.population, 0),
        1,
        pointHex(24.7, -28.6),
        JSON.stringify(outline),
        REFERENCE_SOURCE,
        referenceSourceId.country,
      ],
    ],
  );

  // A province's point is the mean of its towns' points: a label point well inside it.
  const provinceRows = PROVINCES.map((province) => {
    const inside = towns.filter((town) => town.province === province);
    const lon = inside.reduce((sum, town) => sum + town.lon, 0) / inside.length;
    const lat = inside.reduce((sum, town) => sum + town.lat, 0) / inside.length;
    const population = inside.reduce((sum, town) => sum + town.population, 0);
    return [
      'province',
      province.name,
      province.code,
      country,
      population,
      0.95,
      pointHex(lon, lat),
      null,
      REFERENCE_SOURCE,
      referenceSourceId.province(province.code),
    ];
  });
  const provinceIds = await upsertRows(db, 'geo.places', PLACE_COLUMNS, provinceRows);
  const provinces = new Map(PROVINCES.map((province, i) => [province.code, provinceIds[i]]));

  const townIds = await upsertRows(
    db,
    'geo.places',
    PLACE_COLUMNS,
    towns.map((town) => [
      'town',
      town.name,
      town.municipality || null,
      provinces.get(town.province.code),
      town.population,
      importanceOfPopulation(town.population),
      pointHex(town.lon, town.lat),
      null,
      REFERENCE_SOURCE,
      referenceSourceId.town(town.geonameId),
    ]),
  );
  return {
    country: 1,
    provinces: provinceIds.length,
    towns: townIds.length,
    ids: {
      country,
      provinces,
      towns: new Map(towns.map((town, i) => [town.geonameId, townIds[i]])),
    },
  };
}
