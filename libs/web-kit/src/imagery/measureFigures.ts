import type Geometry from 'ol/geom/Geometry';
import LineString from 'ol/geom/LineString';
import Polygon from 'ol/geom/Polygon';
import { toLonLat } from 'ol/proj';
import { getArea, getLength } from 'ol/sphere';
import type { MeasurementInput, MeasurementKind } from '@portal/contracts';
import { MAX_MEASUREMENT_VERTICES } from '@portal/contracts';
import { MEASURE_TEXT } from './texts';

/** The kinds traced on a map (a height is read off an oblique picture: ObliqueHeightTool). */
export type MapMeasureKind = Exclude<MeasurementKind, 'height'>;
export const MAP_MEASURE_KINDS: readonly MapMeasureKind[] = ['distance', 'length', 'area'];

/** The projection of the portal's maps (web-kit MapView: Web Mercator). */
export const VIEW_PROJECTION = 'EPSG:3857';

/**
 * A measurement made in the browser, ready to save: the contract's MeasurementInput (geometry in lng/lat)
 * with the figures shown to the user. The server computes its own figures from the geometry (PostGIS
 * geography); these are the same geodesic figures, shown while drawing. `surveyId` is null on a map that
 * shows no survey (it must be set before saving: `toMeasurementInput`).
 */
export interface MeasurementDraft extends Omit<MeasurementInput, 'surveyId'> {
  surveyId: number | null;
  /** Metres (distance, length, height) or square metres (area). */
  value: number;
  unit: 'm' | 'm²';
  /** Areas only: the perimeter, metres. */
  perimeterM: number | null;
  /** The survey's capture date, when known (YYYY-MM-DD). */
  capturedOn?: string | null;
  /** The figures as shown ("12.40 m", "148.2 m² · perimeter 52.10 m"). */
  text: string;
  /** The user's name for it (saved with it); the kind's name until they give one. */
  label: string;
}

/** Geodesic figures of a traced geometry in the view projection. */
export interface Figures {
  /** Metres along the line, or around the polygon (its perimeter). */
  lengthM: number;
  /** Square metres (polygons), else null. */
  areaM2: number | null;
}

/**
 * Geodesic length and area on the WGS 84 sphere (ol/sphere, the same model as PostGIS geography within
 * ~0.3 % for a building): a line's length; a polygon's area and its ring's length (the perimeter).
 */
export function figuresOf(geometry: Geometry, projection = VIEW_PROJECTION): Figures {
  if (geometry instanceof Polygon) {
    const ring = geometry.getLinearRing(0);
    const closed = ring ? new LineString(ring.getCoordinates()) : new LineString([]);
    return {
      lengthM: getLength(closed, { projection }),
      areaM2: Math.abs(getArea(geometry, { projection })),
    };
  }
  return { lengthM: getLength(geometry, { projection }), areaM2: null };
}

const twoDecimals = (value: number) => Math.round(value * 100) / 100;

/** "12.40 m", "1.24 km" past a kilometre. */
export function formatLength(metres: number): string {
  return metres >= 1000 ? `${(metres / 1000).toFixed(2)} km` : `${metres.toFixed(2)} m`;
}

/** "148.2 m²", "1.25 ha" past a hectare. */
export function formatArea(squareMetres: number): string {
  return squareMetres >= 10_000
    ? `${(squareMetres / 10_000).toFixed(2)} ha`
    : `${squareMetres.toFixed(1)} m²`;
}

/** What a figure reads while drawing and in the list. */
export function figuresLabel(kind: MeasurementKind, figures: Figures): string {
  if (kind === 'area' && figures.areaM2 !== null)
    return MEASURE_TEXT.areaLabel(formatArea(figures.areaM2), formatLength(figures.lengthM));
  return formatLength(figures.lengthM);
}

/** A measured value with its unit, as the list shows a saved measurement. */
export function formatMeasuredValue(value: number, unit: 'm' | 'm²'): string {
  return unit === 'm²' ? formatArea(value) : formatLength(value);
}

const lonLatOf = (coordinates: number[][], projection: string) =>
  coordinates.map((coordinate) => {
    const [lng, lat] = projection === 'EPSG:4326' ? coordinate : toLonLat(coordinate, projection);
    return [Math.round(lng * 1e7) / 1e7, Math.round(lat * 1e7) / 1e7];
  });

/**
 * The draft of a traced geometry: lng/lat coordinates (7 decimals, ~1 cm), its value (a length in metres,
 * or an area in m² with the perimeter), the label shown. Null when it is too short to measure (a line of
 * fewer than 2 points, a polygon of fewer than 3) or has more vertices than a measurement may.
 */
export function draftOf(
  kind: MapMeasureKind,
  geometry: Geometry,
  { surveyId = null, capturedOn = null, projection = VIEW_PROJECTION } = {} as {
    surveyId?: number | null;
    capturedOn?: string | null;
    projection?: string;
  },
): MeasurementDraft | null {
  const figures = figuresOf(geometry, projection);
  const text = figuresLabel(kind, figures);
  const label = MEASURE_TEXT.kind[kind];
  if (kind === 'area') {
    if (!(geometry instanceof Polygon)) return null;
    const ring = lonLatOf(geometry.getLinearRing(0)?.getCoordinates() ?? [], projection);
    // Draw repeats the first vertex at the end; the contract takes the ring open or closed.
    const distinct =
      ring.length > 1 && samePoint(ring[0], ring[ring.length - 1]) ? ring.length - 1 : ring.length;
    if (distinct < 3 || distinct > MAX_MEASUREMENT_VERTICES) return null;
    return {
      kind,
      surveyId,
      capturedOn,
      geometry: { type: 'Polygon', coordinates: [ring] },
      value: twoDecimals(figures.areaM2 ?? 0),
      unit: 'm²',
      perimeterM: twoDecimals(figures.lengthM),
      text,
      label,
    };
  }
  if (!(geometry instanceof LineString)) return null;
  const line = lonLatOf(geometry.getCoordinates(), projection);
  if (line.length < 2 || line.length > MAX_MEASUREMENT_VERTICES) return null;
  return {
    kind,
    surveyId,
    capturedOn,
    geometry: { type: 'LineString', coordinates: line },
    value: twoDecimals(figures.lengthM),
    unit: 'm',
    perimeterM: null,
    text,
    label,
  };
}

const samePoint = (a: number[], b: number[]) => a[0] === b[0] && a[1] === b[1];

/** The body of POST …/measurements (or one entry of a request's `measurements`) from a draft. */
export function toMeasurementInput(draft: MeasurementDraft, surveyId = draft.surveyId): MeasurementInput {
  if (surveyId === null) throw new RangeError('A measurement is saved against a survey: none was given.');
  return {
    kind: draft.kind,
    surveyId,
    geometry: draft.geometry,
    ...(draft.oblique ? { oblique: draft.oblique } : {}),
    ...(draft.label ? { label: draft.label.slice(0, 120) } : {}),
  };
}
