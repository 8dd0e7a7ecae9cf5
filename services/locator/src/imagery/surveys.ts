import type { DataSource } from 'typeorm';
import { footprintOnSql, standingOnSql } from '@portal/db';
import {
  FOOTPRINT_CHANGE_SHARE,
  type BuildingChange,
  type GeoJsonPolygon,
  type Survey,
  type SurveyBuilding,
  type SurveyKind,
} from '@portal/contracts';
import { notFound } from '@portal/server-kit';
import type { GeoPoint } from './location';
import type { DegreeBox } from './scene';

/**
 * Surveys and what stood at their dates, in SQL (issue 21). A survey is a row of geo.imagery_coverage
 * (a flight or mosaic with its capture date, kind, provider and coverage polygon). A building's life is
 * in geo.buildings (migration ImagerySurveys): it stood at a date D when built_on is null or <= D and
 * demolished_on is null or > D; its footprint at D is geom_before_extension when extended_on > D, else geom.
 */

/** A calendar date, 'YYYY-MM-DD'. */
export type IsoDay = string;

/** The SQL of "standing at $date" over `b` (geo.buildings): libs/db's one reading of the life rules. */
export const standingAt = (date: string) => standingOnSql(date, 'b');
/** The SQL of the footprint of `b` at $date. */
export const footprintAt = (date: string) => footprintOnSql(date, 'b');

const SURVEY_COLUMNS = `c.id::int AS id, to_char(c.captured_on, 'YYYY-MM-DD') AS "capturedOn", c.kind,
  c.provider, c.name`;

interface SurveyRow {
  id: number;
  capturedOn: string;
  kind: SurveyKind;
  provider: string;
  name: string;
}

const toSurvey = (row: SurveyRow): Survey => ({
  id: row.id,
  capturedOn: row.capturedOn,
  kind: row.kind,
  provider: row.provider,
  ...(row.name ? { name: row.name } : {}),
});

const pointSql = (lng: string, lat: string) => `ST_SetSRID(ST_MakePoint(${lng}, ${lat}), 4326)`;

/** The surveys whose coverage holds the point, newest first (GiST on the polygons). */
export async function surveysAt(ds: DataSource, point: GeoPoint): Promise<Survey[]> {
  const rows = (await ds.query(
    `SELECT ${SURVEY_COLUMNS} FROM geo.imagery_coverage c
     WHERE ST_Intersects(c.geom, ${pointSql('$1', '$2')})
     ORDER BY c.captured_on DESC, c.id DESC`,
    [point.lng, point.lat],
  )) as SurveyRow[];
  return rows.map(toSurvey);
}

/** A survey by id, wherever it is (satellite tiles of a survey's date), or a 404 naming the id. */
export async function surveyById(ds: DataSource, id: number): Promise<Survey> {
  const [row] = (await ds.query(`SELECT ${SURVEY_COLUMNS} FROM geo.imagery_coverage c WHERE c.id = $1`, [
    id,
  ])) as SurveyRow[];
  if (!row) throw notFound(`There is no imagery survey ${id}.`);
  return toSurvey(row);
}

/**
 * The survey `id` if it covers the point; a 404 that says whether the survey does not exist or does not
 * cover the point (and which surveys do).
 */
export async function surveyCovering(ds: DataSource, id: number, point: GeoPoint): Promise<Survey> {
  const [row] = (await ds.query(
    `SELECT ${SURVEY_COLUMNS}, ST_Intersects(c.geom, ${pointSql('$2', '$3')}) AS covers
     FROM geo.imagery_coverage c WHERE c.id = $1`,
    [id, point.lng, point.lat],
  )) as (SurveyRow & { covers: boolean })[];
  if (!row) throw notFound(`There is no imagery survey ${id}.`);
  if (!row.covers) throw notCovering(id, point, await surveysAt(ds, point));
  return toSurvey(row);
}

/** The 404 of a survey that does not cover the point, naming the surveys that do. */
export function notCovering(id: number, point: GeoPoint, here: Survey[]) {
  const others = here.length
    ? `surveys here: ${here.map((survey) => `${survey.id} (${survey.capturedOn})`).join(', ')}`
    : 'no survey covers it';
  return notFound(`Survey ${id} does not cover ${point.lat}, ${point.lng} (${others}).`);
}

/** The smallest parcel holding the point, or null. */
export async function parcelAt(ds: DataSource, point: GeoPoint): Promise<string | null> {
  const [row] = (await ds.query(
    `SELECT p.id::text AS id FROM geo.parcels p
     WHERE ST_Intersects(p.geom, ${pointSql('$1', '$2')})
     ORDER BY ST_Area(p.geom) LIMIT 1`,
    [point.lng, point.lat],
  )) as { id: string }[];
  return row?.id ?? null;
}

/**
 * The ids of the buildings on parcel $id: those linked to it, and unlinked ones whose footprint's inner
 * point lies in it (importers do not always link). Two index probes (parcel_id, GiST) rather than an OR
 * the planner may scan for.
 */
const buildingsOnParcel = (id: string) => `(
  SELECT l.id FROM geo.buildings l WHERE l.parcel_id = ${id}
  UNION
  SELECT u.id FROM geo.buildings u JOIN geo.parcels p ON p.id = ${id}
  WHERE u.parcel_id IS NULL AND u.geom && p.geom AND ST_Intersects(ST_PointOnSurface(u.geom), p.geom))`;

/** Rounded like every area the portal shows: to the square centimetre. */
const round2 = (value: number) => Math.round(value * 100) / 100;

interface BuildingRow {
  buildingId: string;
  kind: string;
  levels: number;
  heightM: number;
  parcelId: string | null;
  footprint: GeoJsonPolygon;
  areaM2: number;
}

/**
 * The footprints standing at `date` in a box, or on a parcel, with their geodesic areas (ST_Area on the
 * geography).
 */
export async function standingBuildings(
  ds: DataSource,
  date: IsoDay,
  where: { parcelId: string } | { box: DegreeBox },
): Promise<SurveyBuilding[]> {
  const [filter, parameters] =
    'parcelId' in where
      ? [`b.id IN ${buildingsOnParcel('$2')}`, [where.parcelId]]
      : [`b.geom && ST_MakeEnvelope($2, $3, $4, $5, 4326)`, where.box];
  const rows = (await ds.query(
    `SELECT id::text AS "buildingId", kind, levels, height_m AS "heightM", parcel_id::text AS "parcelId",
            ST_AsGeoJSON(footprint, 8)::json AS footprint, ST_Area(footprint::geography) AS "areaM2"
     FROM (SELECT b.*, ${footprintAt('$1::date')} AS footprint FROM geo.buildings b
           WHERE ${standingAt('$1::date')} AND ${filter}) b
     ORDER BY id`,
    [date, ...parameters],
  )) as BuildingRow[];
  return rows.map((row) => ({ ...row, heightM: round2(Number(row.heightM)), areaM2: round2(row.areaM2) }));
}

export interface BuildingChanges {
  parcelId: string | null;
  added: BuildingChange[];
  removed: BuildingChange[];
  changed: BuildingChange[];
}

interface ChangeRow {
  buildingId: string;
  kind: string;
  heightM: number;
  footprintFrom: GeoJsonPolygon | null;
  footprintTo: GeoJsonPolygon | null;
  areaFromM2: number | null;
  areaToM2: number | null;
}

/**
 * The buildings on the point's parcel that differ between the dates `from` and `to`: standing at `to`
 * only (added), at `from` only (removed), or at both with a footprint area that moved by more than
 * FOOTPRINT_CHANGE_SHARE of its area at the earlier date (changed). Areas are geodesic, m², to 0.01.
 */
export async function buildingChanges(
  ds: DataSource,
  point: GeoPoint,
  from: IsoDay,
  to: IsoDay,
): Promise<BuildingChanges> {
  const parcelId = await parcelAt(ds, point);
  if (parcelId === null) return { parcelId, added: [], removed: [], changed: [] };
  // Only the rows that can differ: standing at one of the dates, with a life event between them (the
  // others stood unchanged at both).
  const rows = (await ds.query(
    `WITH dated AS (
       SELECT b.id, b.kind, b.height_m,
              CASE WHEN ${standingAt('$2::date')} THEN ${footprintAt('$2::date')} END AS at_from,
              CASE WHEN ${standingAt('$3::date')} THEN ${footprintAt('$3::date')} END AS at_to
       FROM geo.buildings b
       WHERE b.id IN ${buildingsOnParcel('$1')}
         AND (b.built_on IS NOT NULL OR b.demolished_on IS NOT NULL OR b.extended_on IS NOT NULL))
     SELECT id::text AS "buildingId", kind, height_m AS "heightM",
            ST_AsGeoJSON(at_from, 8)::json AS "footprintFrom", ST_AsGeoJSON(at_to, 8)::json AS "footprintTo",
            ST_Area(at_from::geography) AS "areaFromM2", ST_Area(at_to::geography) AS "areaToM2"
     FROM dated WHERE at_from IS NOT NULL OR at_to IS NOT NULL
     ORDER BY id`,
    [parcelId, from, to],
  )) as ChangeRow[];
  const changes: BuildingChanges = { parcelId, added: [], removed: [], changed: [] };
  // The share is of the earlier area, whichever way round the dates are asked: the same pair of surveys
  // lists the same changed buildings both ways.
  const earlierFirst = from <= to;
  for (const row of rows) {
    const change: BuildingChange = {
      ...row,
      heightM: round2(Number(row.heightM)),
      areaFromM2: row.areaFromM2 === null ? null : round2(row.areaFromM2),
      areaToM2: row.areaToM2 === null ? null : round2(row.areaToM2),
    };
    if (row.areaFromM2 === null) changes.added.push(change);
    else if (row.areaToM2 === null) changes.removed.push(change);
    else if (
      Math.abs(row.areaToM2 - row.areaFromM2) >
      FOOTPRINT_CHANGE_SHARE * (earlierFirst ? row.areaFromM2 : row.areaToM2)
    )
      changes.changed.push(change);
  }
  return changes;
}
