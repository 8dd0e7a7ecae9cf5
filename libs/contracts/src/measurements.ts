import { errorAnswers, literalUnion } from './common';
import { Type, type Static } from '@sinclair/typebox';
import { ObliqueCamera } from './geo';
import { IsoDate, SurveyId } from './imagery';

/**
 * Measurements on a request's imagery (issue 21): distances, lengths and areas traced on the ortho, and
 * heights read off an oblique. The server computes every figure itself (geodesic, PostGIS geography; the
 * height from the picture's camera) and keeps who measured, when, on which survey. Served by
 * services/requests: the requester and staff read, staff write; the requester's measurements made in /savi
 * before logging travel in the creation body (`measurements`).
 */
export const MEASUREMENT_API = {
  /** GET (list), POST (one new measurement). */
  list: (requestId: string) => `/api/v1.0/request/${encodeURIComponent(requestId)}/measurements`,
  /** DELETE. */
  one: (requestId: string, measurementId: string) =>
    `/api/v1.0/request/${encodeURIComponent(requestId)}/measurements/${encodeURIComponent(measurementId)}`,
} as const;

export const MEASUREMENT_ROUTES = {
  list: '/api/v1.0/request/:id/measurements',
  one: '/api/v1.0/request/:id/measurements/:measurementId',
} as const;

/** distance: two points; length: a polyline; area: a polygon (area and perimeter); height: on an oblique. */
export const MEASUREMENT_KINDS = ['distance', 'length', 'area', 'height'] as const;
export type MeasurementKind = (typeof MEASUREMENT_KINDS)[number];

/** Most vertices one measurement may have. */
export const MAX_MEASUREMENT_VERTICES = 1000;
/** Most measurements carried by one request's creation body. */
export const MAX_MEASUREMENTS_ON_CREATION = 50;

const Position = Type.Array(Type.Number({ minimum: -180, maximum: 180 }), { minItems: 2, maxItems: 2 });

export const MeasuredLine = Type.Object({
  type: Type.Literal('LineString'),
  coordinates: Type.Array(Position, { minItems: 2, maxItems: MAX_MEASUREMENT_VERTICES }),
});
export const MeasuredPolygon = Type.Object({
  type: Type.Literal('Polygon'),
  /** One ring, closed or not (the server closes it). */
  coordinates: Type.Array(Type.Array(Position, { minItems: 3, maxItems: MAX_MEASUREMENT_VERTICES + 1 }), {
    minItems: 1,
    maxItems: 1,
  }),
});
/** Where a height was read: the wall's spot on the ground (lng, lat). */
export const MeasuredPoint = Type.Object({ type: Type.Literal('Point'), coordinates: Position });

/**
 * A measurement's geometry. Point first, then the line, then the polygon: the services' Ajv coerces types
 * ('array') while it tries each branch of the union, and a Point tried as a LineString first would have its
 * numbers wrapped into arrays ([x] for x) before its own branch is tried; in this order no branch that
 * fails changes what the next one sees.
 */
export const MeasuredGeometry = Type.Union([MeasuredPoint, MeasuredLine, MeasuredPolygon]);

const PicturePixel = Type.Array(Type.Number({ minimum: 0, maximum: 20_000 }), { minItems: 2, maxItems: 2 });

/** A height: the base and top of a wall picked on an oblique picture taken with `camera`. */
export const ObliquePicks = Type.Object({
  camera: ObliqueCamera,
  /** [x, y] pixels of the picture (`camera.width` × `camera.height`), y down. */
  base: PicturePixel,
  top: PicturePixel,
});
export type ObliquePicks = Static<typeof ObliquePicks>;

export const MeasurementInput = Type.Object({
  kind: literalUnion(MEASUREMENT_KINDS),
  surveyId: SurveyId,
  geometry: MeasuredGeometry,
  /** Height measurements only. */
  oblique: Type.Optional(ObliquePicks),
  label: Type.Optional(Type.String({ maxLength: 120 })),
});
export type MeasurementInput = Static<typeof MeasurementInput>;

export const Measurement = Type.Object({
  id: Type.String(),
  requestId: Type.String(),
  kind: literalUnion(MEASUREMENT_KINDS),
  label: Type.String(),
  surveyId: Type.Integer(),
  capturedOn: IsoDate,
  geometry: MeasuredGeometry,
  oblique: Type.Union([ObliquePicks, Type.Null()]),
  /** Metres (distance, length, height) or square metres (area). */
  value: Type.Number(),
  unit: Type.Union([Type.Literal('m'), Type.Literal('m²')]),
  /** Areas only: the polygon's perimeter in metres. */
  perimeterM: Type.Union([Type.Number(), Type.Null()]),
  createdBy: Type.Object({ id: Type.String(), email: Type.String() }),
  createdAt: Type.String(),
});
export type Measurement = Static<typeof Measurement>;

export const MeasurementParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  measurementId: Type.String({ minLength: 1, maxLength: 64 }),
});
export type MeasurementParams = Static<typeof MeasurementParams>;

export const MeasurementAnswer = Type.Object({ success: Type.Boolean(), measurement: Measurement });
export type MeasurementAnswer = Static<typeof MeasurementAnswer>;
export const MeasurementsAnswer = Type.Object({
  success: Type.Boolean(),
  measurements: Type.Array(Measurement),
});
export type MeasurementsAnswer = Static<typeof MeasurementsAnswer>;

export const MEASUREMENT_ERRORS = errorAnswers(400, 401, 403, 404);
