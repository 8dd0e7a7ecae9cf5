import {
  buildingFromFootprint,
  footprintNames,
  isBuildingFootprint,
  nextMarkerNumber,
  type Footprint,
  type ReportSections,
} from '@portal/domain';
import { footprintOnSql, standingOnSql } from '@portal/db';
import { badRequest } from '@portal/server-kit';
import { savedMeasuredFacts } from './measured';
import { surveyAtRequest, type SurveyAtPoint } from './surveys';

/**
 * The building footprints a 'Building Size Calculation' report starts from (issue 21): the buildings on
 * the request's parcel as they stood at a survey's capture date (geo.buildings' life: built_on, demolished_on,
 * and the footprint before an extension made after the date), read by the service itself so a confirmed
 * footprint's area is PostGIS's (geodesic, `ST_Area(geography)`), never the client's. The same reading of a
 * building's life as services/locator's SURVEY_API.buildings (the migration 1764700000000 says it).
 */

export const FOOTPRINT_TEXT = {
  noSurvey: (id: number) => `There is no survey ${id}.`,
  surveyMissesPoint: (id: number) => `Survey ${id} does not cover the request's point.`,
  noPoint: 'The request has no point: there is no parcel to take buildings from.',
  noParcel: "The request's point is on no parcel: there are no buildings to take.",
  badBuildingId: (id: string) => `'${id.slice(0, 20)}' is not a building id (a whole number).`,
  repeated: (id: string) => `Building ${id} is named more than once.`,
  notABuilding: (id: string, kind: string) => `Building ${id} is a ${kind}, not a building with floors.`,
  notOnParcel: (id: string, capturedOn: string) =>
    `Building ${id} did not stand on the request's parcel at the survey of ${capturedOn}.`,
} as const;

type Query = { query(sql: string, params?: unknown[]): Promise<unknown> };

interface FootprintRow {
  id: string;
  kind: string;
  height_m: number;
  area_m2: number;
  lat: number;
  lng: number;
}

/**
 * The footprints of `buildingIds` on the request's parcel at the survey's date, in the order asked. Every
 * id that is not a whole number, is repeated, or did not stand on the parcel then is a problem (400).
 */
export async function footprintsOnParcel(
  db: Query,
  requestId: string,
  survey: SurveyAtPoint,
  buildingIds: readonly string[],
): Promise<Footprint[]> {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const id of buildingIds) {
    if (!/^[1-9]\d{0,17}$/.test(id)) problems.push(FOOTPRINT_TEXT.badBuildingId(id));
    else if (seen.has(id)) problems.push(FOOTPRINT_TEXT.repeated(id));
    seen.add(id);
  }
  if (problems.length > 0) throw badRequest(problems[0]!, problems);

  const [parcel] = (await db.query(
    `SELECT p.id::text AS id
       FROM requests.requests r JOIN geo.parcels p ON r.point IS NOT NULL AND ST_Covers(p.geom, r.point)
      WHERE r.id = $1
      ORDER BY ST_Area(p.geom), p.id LIMIT 1`,
    [requestId],
  )) as { id: string }[];
  if (!parcel) throw badRequest(FOOTPRINT_TEXT.noParcel);

  const rows = (await db.query(
    `WITH standing AS (
       SELECT b.id, b.kind, b.height_m, b.parcel_id,
              ${footprintOnSql('$3::date')} AS footprint
         FROM geo.buildings b
        WHERE b.id = ANY($2::bigint[]) AND ${standingOnSql('$3::date')})
     SELECT s.id::text AS id, s.kind, s.height_m::float8 AS height_m,
            ST_Area(s.footprint::geography) AS area_m2,
            ST_Y(ST_PointOnSurface(s.footprint)) AS lat, ST_X(ST_PointOnSurface(s.footprint)) AS lng
       FROM standing s JOIN geo.parcels p ON p.id = $1
      WHERE s.parcel_id = p.id OR (s.parcel_id IS NULL AND ST_Covers(p.geom, ST_PointOnSurface(s.footprint)))`,
    [parcel.id, [...seen], survey.capturedOn],
  )) as FootprintRow[];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const missing = buildingIds.filter((id) => !byId.has(id));
  if (missing.length > 0) {
    const lines = missing.map((id) => FOOTPRINT_TEXT.notOnParcel(id, survey.capturedOn));
    throw badRequest(lines[0]!, lines);
  }
  const notBuildings = rows.filter((row) => !isBuildingFootprint(row.kind));
  if (notBuildings.length > 0) {
    const lines = notBuildings.map((row) => FOOTPRINT_TEXT.notABuilding(row.id, row.kind));
    throw badRequest(lines[0]!, lines);
  }
  return buildingIds.map((id) => {
    const row = byId.get(id)!;
    return {
      buildingId: row.id,
      kind: row.kind,
      heightM: row.height_m,
      areaM2: row.area_m2,
      centre: { lat: row.lat, lng: row.lng },
    };
  });
}

export const CONFIRM_TEXT = {
  noSection: (id: string) => `There is no section '${id.slice(0, 64)}' in this report: save it first.`,
  alreadyIn: (id: string) => `The footprint of building ${id} is already in this report.`,
  tooMany: (max: number) => `A section holds at most ${max} buildings.`,
} as const;

/**
 * The sections with the confirmed footprints added to section `sectionId` (after its buildings, named by
 * kind and unique in the section, numbered on from its markers). A footprint already in the report (a
 * floor of it names the building) is refused, so a second confirmation does not add a building twice.
 */
export async function sectionsWithFootprints(
  db: Query,
  input: {
    requestId: string;
    sections: ReportSections;
    sectionId: string;
    surveyId: number;
    buildingIds: readonly string[];
    maxBuildings: number;
  },
): Promise<ReportSections> {
  const section = Object.hasOwn(input.sections, input.sectionId)
    ? input.sections[input.sectionId]
    : undefined;
  if (!section) throw badRequest(CONFIRM_TEXT.noSection(input.sectionId));
  const survey = await surveyAtRequest(db, input.requestId, input.surveyId);
  const footprints = await footprintsOnParcel(db, input.requestId, survey, input.buildingIds);
  const inReport = savedMeasuredFacts(input.sections);
  const again = footprints.filter((f) => inReport.has(`f:${f.buildingId}`));
  if (again.length > 0) {
    const lines = again.map((f) => CONFIRM_TEXT.alreadyIn(f.buildingId));
    throw badRequest(lines[0]!, lines);
  }
  if (section.buildings.length + footprints.length > input.maxBuildings)
    throw badRequest(CONFIRM_TEXT.tooMany(input.maxBuildings));
  const names = footprintNames(
    footprints.map((f) => f.kind),
    [...section.buildings, ...section.improvements].map((item) => item.name),
  );
  const added = footprints.map((footprint, i) =>
    buildingFromFootprint(footprint, survey, names[i]!, nextMarkerNumber(section.buildings) + i),
  );
  return {
    ...input.sections,
    [input.sectionId]: { ...section, buildings: [...section.buildings, ...added] },
  };
}
