import type { DataSource } from 'typeorm';
import type { Survey } from '@portal/contracts';

/**
 * A small dated town for the survey tests: two erven, ten buildings with lives between three surveys over
 * them and one survey elsewhere, inserted into a throwaway database (not the generator's output, so the
 * tests know every date). Test-only: the build leaves src/testing/ out.
 */

/** Stellenbosch: the middle of parcel 700. */
export const CENTRE = { lat: -33.9321, lng: 18.8602 };

export function offset(east: number, north: number): { lat: number; lng: number } {
  return {
    lat: CENTRE.lat + north / 110_574,
    lng: CENTRE.lng + east / (111_320 * Math.cos((CENTRE.lat * Math.PI) / 180)),
  };
}
const lngLat = (east: number, north: number) => {
  const { lat, lng } = offset(east, north);
  return `${lng} ${lat}`;
};
export const rectangle = (west: number, south: number, east: number, north: number) =>
  `POLYGON((${lngLat(west, south)}, ${lngLat(east, south)}, ${lngLat(east, north)}, ${lngLat(west, north)}, ${lngLat(west, south)}))`;

/** 5 km away, still in South Africa: only the far survey covers it. */
export const FAR = offset(5000, 0);
/** 30 km away: no survey at all. */
export const NOT_COVERED = offset(30_000, 20_000);

export type SurveyName = 'y2014' | 'y2019' | 'y2024' | 'far';

export interface SurveyTown {
  /** The surveys by name, as the API answers them. */
  surveys: Record<SurveyName, Survey>;
  /** The buildings' ids by fixture name. */
  ids: Record<string, string>;
}

export interface BuildingFixture {
  name: string;
  geom: string;
  before?: string;
  parcel?: 'here' | 'next' | null;
  kind?: string;
  height?: number;
  roof?: 'flat' | 'pitched';
  built?: string;
  demolished?: string;
  extended?: string;
}

/**
 * Parcel 700 (60 m × 60 m around the centre) and its neighbour 701 to the east. Between the surveys of
 * 2014-08-01, 2019-03-14 and 2024-11-20: a cottage built (2017) and an unlinked outbuilding (2016), a
 * studio that came and went between two surveys, a shed demolished (2021), three extensions (2020) of
 * +11 %, +9 % and −11 % footprint area, a pool dug (2022); next door a house built in 2017.
 */
export const BUILDINGS: BuildingFixture[] = [
  { name: 'main', geom: rectangle(-25, -25, -5, -13), height: 7.2, roof: 'flat' },
  { name: 'cottage', geom: rectangle(0, -25, 10, -17), built: '2017-05-01' },
  { name: 'outbuilding', geom: rectangle(15, -25, 22, -20), parcel: null, built: '2016-02-01' },
  { name: 'studio', geom: rectangle(15, -15, 22, -10), built: '2015-01-10', demolished: '2018-06-30' },
  { name: 'shed', geom: rectangle(-25, 20, -20, 25), demolished: '2021-03-01' },
  // 10 m × 10 m before; 11.1 m × 10 m after: +11 %.
  {
    name: 'plus11',
    geom: rectangle(-25, 0, -13.9, 10),
    before: rectangle(-25, 0, -15, 10),
    extended: '2020-01-15',
  },
  // +9 %: under the threshold.
  {
    name: 'plus9',
    geom: rectangle(-10, 0, 0.9, 10),
    before: rectangle(-10, 0, 0, 10),
    extended: '2020-01-15',
  },
  // −11 %: a lean-to taken down counts as an extension's record the other way.
  {
    name: 'minus11',
    geom: rectangle(5, 0, 13.9, 10),
    before: rectangle(5, 0, 15, 10),
    extended: '2020-01-15',
  },
  { name: 'pool', geom: rectangle(0, 15, 8, 19), kind: 'pool', built: '2022-10-01' },
  { name: 'neighbour', geom: rectangle(40, -10, 55, 5), parcel: 'next', built: '2017-05-01' },
];

/** Inserts the country outline, the surveys, the two erven and the buildings. */
export async function insertSurveyTown(ds: DataSource): Promise<SurveyTown> {
  const surveys = {} as Record<SurveyName, Survey>;
  const ids: Record<string, string> = {};
  await ds.query(
    `INSERT INTO geo.places (kind, name, code, point, geom, source, source_id) VALUES
      ('country', 'South Africa', 'ZA', ST_GeomFromText('POINT(24.7 -29.0)', 4326),
        ST_Multi(ST_GeomFromText('POLYGON((16.4 -28.6, 20.0 -24.7, 25.3 -25.7, 31.3 -22.4, 32.9 -26.9,
          30.0 -31.3, 27.0 -33.7, 22.0 -34.2, 20.0 -34.9, 18.3 -34.3, 16.4 -28.6))', 4326)), 'test', 'za')`,
  );
  const survey = async (key: SurveyName, kind: string, on: string, area: string) => {
    const [row] = (await ds.query(
      `INSERT INTO geo.imagery_coverage (kind, name, captured_on, provider, geom, source, source_id)
       VALUES ($1, $2, $3, 'Portal imagery', ST_Multi(ST_GeomFromText($4, 4326)), 'test', $2) RETURNING id::int AS id`,
      [kind, key, on, area],
    )) as { id: number }[];
    surveys[key] = {
      id: row.id,
      capturedOn: on,
      kind: kind as Survey['kind'],
      provider: 'Portal imagery',
      name: key,
    };
  };
  const town = rectangle(-400, -400, 400, 400);
  // Inserted out of date order: the list is ordered by capture date, not by id.
  await survey('y2019', 'ortho', '2019-03-14', town);
  await survey('y2024', 'high_resolution', '2024-11-20', town);
  await survey('y2014', 'high_resolution', '2014-08-01', town);
  await survey('far', 'high_resolution', '2022-05-05', rectangle(4500, -500, 5500, 500));

  const parcels: Record<'here' | 'next', string> = { here: '', next: '' };
  for (const [key, number, geom] of [
    ['here', '700', rectangle(-30, -30, 30, 30)],
    ['next', '701', rectangle(30, -30, 90, 30)],
  ] as const) {
    const [row] = (await ds.query(
      `INSERT INTO geo.parcels (parcel_number, geom, source, source_id)
       VALUES ($1, ST_Multi(ST_GeomFromText($2, 4326)), 'test', $1) RETURNING id::text AS id`,
      [number, geom],
    )) as { id: string }[];
    parcels[key] = row.id;
  }
  for (const building of BUILDINGS) {
    const parcel = building.parcel === undefined ? 'here' : building.parcel;
    const [row] = (await ds.query(
      `INSERT INTO geo.buildings (parcel_id, kind, levels, height_m, roof, geom, geom_before_extension,
                                  built_on, demolished_on, extended_on, source, source_id)
       VALUES ($1, $2, 1, $3, $4, ST_GeomFromText($5, 4326), ST_GeomFromText($6, 4326), $7, $8, $9, 'test', $10)
       RETURNING id::text AS id`,
      [
        parcel === null ? null : parcels[parcel],
        building.kind ?? 'house',
        building.height ?? 3.5,
        building.roof ?? 'pitched',
        building.geom,
        building.before ?? null,
        building.built ?? null,
        building.demolished ?? null,
        building.extended ?? null,
        building.name,
      ],
    )) as { id: string }[];
    ids[building.name] = row.id;
  }
  return { surveys, ids };
}
