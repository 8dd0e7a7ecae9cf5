import { errorAnswers, literalUnion } from './common';
import { Type, type Static } from '@sinclair/typebox';

/**
 * Dated imagery (issue 21): imagery comes in surveys — one flight or mosaic with a capture date, a kind and
 * a coverage polygon (rows of geo.imagery_coverage). The spec's calls (idanCoverage, idanImageUrl,
 * idanSmallImageUrl) answer from the newest survey at the point unless `survey=<id>` picks one; the calls
 * below list the surveys at a point and the buildings that changed between two of them. Served by
 * services/locator; every call needs a session.
 */
export const SURVEY_API = {
  /** GET ?lat&lng: the surveys covering the point, newest first. */
  surveys: '/api/imagery/surveys',
  /** GET ?lat&lng&from&to: the buildings on the point's parcel added, removed or changed between two surveys. */
  changes: '/api/imagery/changes',
  /**
   * GET ?lat&lng[&survey][&parcel=true]: the building footprints standing at the survey's capture date
   * around the point (the pictures' ground, ~180 m square), or only those on the point's parcel — for
   * snapping measurements to building edges and for a 'Building Size Calculation' report's first buildings.
   */
  buildings: '/api/imagery/buildings',
} as const;

/** ortho: a straight-down mosaic only; high_resolution: a flight with ortho and four obliques. */
export const SURVEY_KINDS = ['ortho', 'high_resolution'] as const;
export type SurveyKind = (typeof SURVEY_KINDS)[number];

/** A capture date, YYYY-MM-DD (a calendar date: no time zone). */
export const IsoDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

export const Survey = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  capturedOn: IsoDate,
  kind: literalUnion(SURVEY_KINDS),
  provider: Type.String(),
  /** The survey's own name ("Stellenbosch high-resolution flight"). */
  name: Type.Optional(Type.String()),
});
export type Survey = Static<typeof Survey>;

export const SurveyId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const SurveysQuery = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
});
export type SurveysQuery = Static<typeof SurveysQuery>;

export const SurveysAnswer = Type.Object({ success: Type.Boolean(), surveys: Type.Array(Survey) });
export type SurveysAnswer = Static<typeof SurveysAnswer>;

/** When a building's footprint area changes by more than this share between two surveys, it is "changed". */
export const FOOTPRINT_CHANGE_SHARE = 0.1;

export const ChangesQuery = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
  from: SurveyId,
  to: SurveyId,
});
export type ChangesQuery = Static<typeof ChangesQuery>;

export const GeoJsonPolygon = Type.Object({
  type: Type.Literal('Polygon'),
  coordinates: Type.Array(Type.Array(Type.Array(Type.Number(), { minItems: 2, maxItems: 3 }))),
});
export type GeoJsonPolygon = Static<typeof GeoJsonPolygon>;

/** One building that differs between the two captures: its footprint and area at each (null: not standing). */
export const BuildingChange = Type.Object({
  buildingId: Type.String(),
  kind: Type.String(),
  heightM: Type.Number(),
  footprintFrom: Type.Union([GeoJsonPolygon, Type.Null()]),
  footprintTo: Type.Union([GeoJsonPolygon, Type.Null()]),
  areaFromM2: Type.Union([Type.Number(), Type.Null()]),
  areaToM2: Type.Union([Type.Number(), Type.Null()]),
});
export type BuildingChange = Static<typeof BuildingChange>;

export const ChangesAnswer = Type.Object({
  success: Type.Boolean(),
  from: Survey,
  to: Survey,
  /** The parcel at the point (null outside every parcel: then the lists are empty). */
  parcelId: Type.Union([Type.String(), Type.Null()]),
  added: Type.Array(BuildingChange),
  removed: Type.Array(BuildingChange),
  changed: Type.Array(BuildingChange),
});
export type ChangesAnswer = Static<typeof ChangesAnswer>;

export const BuildingsQuery = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
  survey: Type.Optional(SurveyId),
  /** Only the buildings on the parcel at the point. */
  parcel: Type.Optional(Type.Boolean()),
});
export type BuildingsQuery = Static<typeof BuildingsQuery>;

/** A building as it stood at a survey's capture date. */
export const SurveyBuilding = Type.Object({
  buildingId: Type.String(),
  kind: Type.String(),
  levels: Type.Integer(),
  heightM: Type.Number(),
  footprint: GeoJsonPolygon,
  /** Geodesic footprint area, m² (PostGIS geography). */
  areaM2: Type.Number(),
  parcelId: Type.Union([Type.String(), Type.Null()]),
});
export type SurveyBuilding = Static<typeof SurveyBuilding>;

export const BuildingsAnswer = Type.Object({
  success: Type.Boolean(),
  survey: Survey,
  buildings: Type.Array(SurveyBuilding),
});
export type BuildingsAnswer = Static<typeof BuildingsAnswer>;

export const SURVEY_ERRORS = errorAnswers(400, 401, 404);
