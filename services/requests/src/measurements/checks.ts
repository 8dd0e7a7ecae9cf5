import {
  MAX_MEASUREMENT_VERTICES,
  type MeasurementInput,
  type MeasurementKind,
  type ObliquePicks,
} from '@portal/contracts';
import { formatSaLongDate, heightFromPicks } from '@portal/domain';

/**
 * The checks of a measurement that need no database (issue 21): the kind against its geometry, the
 * number of vertices, latitudes, the oblique picks of a height and the height they give. The figures of
 * lines and outlines and the survey's coverage are the database's (store.ts), since PostGIS geography is
 * the one measure of the ground the portal uses.
 */

export const MEASUREMENT_TEXT = {
  kindGeometry: {
    distance: 'A distance is measured between exactly 2 points: a LineString of 2 positions.',
    length: 'A length is measured along a line: a LineString.',
    area: 'An area is measured inside an outline: a Polygon.',
    height: 'A height is read at the foot of a wall: a Point, with the picks on an oblique picture.',
  } satisfies Record<MeasurementKind, string>,
  obliqueMissing: 'A height needs its picks on the oblique picture (oblique: camera, base and top).',
  obliqueNotAllowed: (kind: string) => `Only a height carries oblique picks; a ${kind} does not.`,
  tooManyVertices: (count: number) =>
    `A measurement may have at most ${MAX_MEASUREMENT_VERTICES} vertices; this one has ${count}.`,
  latitude: 'Every position is [longitude, latitude]: a latitude lies between -90 and 90.',
  position: 'Every position is two numbers, [longitude, latitude], within ±180 and ±90.',
  geometryType: "The geometry is a GeoJSON 'Point', 'LineString' or 'Polygon'.",
  lineShape: 'A line is a list of at least 2 positions: coordinates [[lng, lat], …].',
  polygonShape: 'An outline is one ring of at least 3 positions: coordinates [[[lng, lat], …]].',
  fewCorners: 'An outline needs at least 3 different corners.',
  crossing: 'The outline crosses itself.',
  invalidOutline: (reason: string) => `The outline is not a valid polygon (${reason}).`,
  noLength: 'The line has no length: its points are all the same.',
  picksOffPicture: (camera: ObliquePicks['camera']) =>
    `The base and top must lie on the picture (${camera.width} × ${camera.height} pixels).`,
  noSurvey: (id: number) => `There is no survey ${id}.`,
  notCovered: (survey: { id: number; name: string; capturedOn: string }) =>
    `Survey ${survey.id}${survey.name ? ` (${survey.name})` : ''}, captured on ${formatSaLongDate(survey.capturedOn)}, ` +
    'does not cover the whole measurement.',
  /** A problem of one of the measurements sent with a new request. */
  numbered: (index: number, problem: string) => `Measurement ${index + 1}: ${problem}`,
  noRequest: 'No such request.',
  noMeasurement: 'This request has no such measurement.',
  badMeasurementId: (id: string) => `'${id}' is not a measurement id (a UUID).`,
} as const;

const isPosition = (value: unknown) =>
  Array.isArray(value) &&
  value.length === 2 &&
  value.every((n) => typeof n === 'number' && Number.isFinite(n)) &&
  Math.abs(value[0] as number) <= 180 &&
  Math.abs(value[1] as number) <= 90;

/**
 * The geometry's shape, checked by its type before the schema is: the schema's union would answer a bad
 * geometry with every branch's complaints (a line of 1001 points: thousands of them), and its type
 * coercion would take '12.5' for a number. Null when the shape is right, or when the geometry is not an
 * object at all (the schema says so then).
 */
export function geometryProblem(geometry: unknown): string | null {
  if (!geometry || typeof geometry !== 'object' || Array.isArray(geometry)) return null;
  const { type, coordinates } = geometry as { type?: unknown; coordinates?: unknown };
  if (type === 'Point') return isPosition(coordinates) ? null : MEASUREMENT_TEXT.position;
  if (type === 'LineString') {
    if (!Array.isArray(coordinates) || coordinates.length < 2) return MEASUREMENT_TEXT.lineShape;
    if (coordinates.length > MAX_MEASUREMENT_VERTICES)
      return MEASUREMENT_TEXT.tooManyVertices(coordinates.length);
    return coordinates.every(isPosition) ? null : MEASUREMENT_TEXT.position;
  }
  if (type === 'Polygon') {
    const ring: unknown = Array.isArray(coordinates) && coordinates.length === 1 ? coordinates[0] : null;
    if (!Array.isArray(ring) || ring.length < 3) return MEASUREMENT_TEXT.polygonShape;
    if (!ring.every(isPosition)) return MEASUREMENT_TEXT.position;
    const { corners } = closedRing(ring as Position[]);
    return corners > MAX_MEASUREMENT_VERTICES ? MEASUREMENT_TEXT.tooManyVertices(corners) : null;
  }
  return MEASUREMENT_TEXT.geometryType;
}

/** The geometry problems of the measurements in a new request's body, numbered (none when it has none). */
export function geometryProblems(measurements: unknown): string[] {
  if (!Array.isArray(measurements)) return [];
  return measurements.flatMap((measurement, index) => {
    const problem =
      measurement && typeof measurement === 'object'
        ? geometryProblem((measurement as { geometry?: unknown }).geometry)
        : null;
    return problem ? [MEASUREMENT_TEXT.numbered(index, problem)] : [];
  });
}

/** A measurement whose shape was checked: what the database measures (or, for a height, what was computed). */
export interface CheckedMeasurement {
  kind: MeasurementKind;
  label: string;
  surveyId: number;
  /** GeoJSON text for ST_GeomFromGeoJSON; a polygon's ring closed. */
  geometry: string;
  geometryType: 'LineString' | 'Polygon' | 'Point';
  oblique: ObliquePicks | null;
  /** A height's metres (from the picks); null for the figures PostGIS computes. */
  heightM: number | null;
}

type Position = number[];
const samePosition = (a: Position, b: Position) => a[0] === b[0] && a[1] === b[1];

const EXPECTED_GEOMETRY: Record<MeasurementKind, CheckedMeasurement['geometryType']> = {
  distance: 'LineString',
  length: 'LineString',
  area: 'Polygon',
  height: 'Point',
};

/** A ring as sent (closed or not) closed, and the number of its corners. */
function closedRing(ring: Position[]): { ring: Position[]; corners: number } {
  const closed = samePosition(ring[0], ring[ring.length - 1]) ? ring : [...ring, ring[0]];
  return { ring: closed, corners: closed.length - 1 };
}

/**
 * A measurement's shape checked, or the problem with it (one sentence, as the 400 says it). The schema
 * has already refused non-numbers and out-of-range longitudes.
 */
export function checkMeasurement(input: MeasurementInput): CheckedMeasurement | { problem: string } {
  const { kind, geometry } = input;
  const expected = EXPECTED_GEOMETRY[kind];
  if (geometry.type !== expected) return { problem: MEASUREMENT_TEXT.kindGeometry[kind] };
  if (kind === 'height' && !input.oblique) return { problem: MEASUREMENT_TEXT.obliqueMissing };
  if (kind !== 'height' && input.oblique) return { problem: MEASUREMENT_TEXT.obliqueNotAllowed(kind) };

  let coordinates: unknown;
  let positions: Position[];
  if (geometry.type === 'Polygon') {
    const { ring, corners } = closedRing(geometry.coordinates[0]);
    if (corners > MAX_MEASUREMENT_VERTICES) return { problem: MEASUREMENT_TEXT.tooManyVertices(corners) };
    positions = ring;
    coordinates = [ring];
    const distinct = new Set(ring.map(([lng, lat]) => `${lng} ${lat}`));
    if (distinct.size < 3) return { problem: MEASUREMENT_TEXT.fewCorners };
  } else if (geometry.type === 'LineString') {
    positions = geometry.coordinates;
    coordinates = positions;
    if (positions.length > MAX_MEASUREMENT_VERTICES)
      return { problem: MEASUREMENT_TEXT.tooManyVertices(positions.length) };
    if (kind === 'distance' && positions.length !== 2)
      return { problem: MEASUREMENT_TEXT.kindGeometry.distance };
  } else {
    positions = [geometry.coordinates];
    coordinates = geometry.coordinates;
  }
  if (positions.some(([, lat]) => !(Math.abs(lat) <= 90))) return { problem: MEASUREMENT_TEXT.latitude };

  let heightM: number | null = null;
  if (input.oblique) {
    const { camera, base, top } = input.oblique;
    const onPicture = (pick: number[]) => pick[0] <= camera.width && pick[1] <= camera.height;
    if (!onPicture(base) || !onPicture(top)) return { problem: MEASUREMENT_TEXT.picksOffPicture(camera) };
    try {
      heightM = heightFromPicks(input.oblique);
    } catch (error) {
      if (error instanceof RangeError) return { problem: error.message };
      throw error;
    }
  }
  return {
    kind,
    label: input.label?.trim() ?? '',
    surveyId: input.surveyId,
    geometry: JSON.stringify({ type: geometry.type, coordinates }),
    geometryType: geometry.type,
    oblique: input.oblique ?? null,
    heightM,
  };
}

/**
 * The measurements sent with a new request checked together: every problem, each numbered, so the
 * form can show them all at once.
 */
export function checkMeasurements(inputs: MeasurementInput[]): {
  checked: CheckedMeasurement[];
  problems: string[];
} {
  const checked: CheckedMeasurement[] = [];
  const problems: string[] = [];
  inputs.forEach((input, index) => {
    const result = checkMeasurement(input);
    if ('problem' in result) problems.push(MEASUREMENT_TEXT.numbered(index, result.problem));
    else checked.push(result);
  });
  return { checked, problems };
}
