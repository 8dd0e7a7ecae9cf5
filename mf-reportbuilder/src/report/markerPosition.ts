import type { ReportMarker } from '@portal/domain';

/**
 * Where a marker sits on its report image. The contract stores a marker as lat/lng (spec 02 §3); on the
 * property and section images we store the fraction of the image instead: `lng` = x / width and
 * `lat` = y / height (0..1 from the top-left corner, 4 decimals). A marker whose lat or lng lies outside
 * 0..1 (one placed at the request's point, as the overviews place new markers, or from before images)
 * has no place on the image yet: it is drawn in a row along the top by its number until it is dragged.
 */
export interface ImagePoint {
  x: number;
  y: number;
}

const inUnit = (value: number) => Number.isFinite(value) && value >= 0 && value <= 1;
const round4 = (value: number) => Math.round(value * 10_000) / 10_000;
const clamp01 = (value: number) => Math.min(Math.max(Number.isFinite(value) ? value : 0, 0), 1);

export const isPlacedOnImage = (marker: Pick<ReportMarker, 'lat' | 'lng'>) =>
  inUnit(marker.lat) && inUnit(marker.lng);

/** The marker's point on the image (fractions); an unplaced one gets a spot in the top row by its number. */
export function markerPoint(marker: ReportMarker, index: number): ImagePoint {
  if (isPlacedOnImage(marker)) return { x: marker.lng, y: marker.lat };
  const n = Math.max(marker.number, index + 1);
  return { x: Math.min(0.05 + 0.06 * (n - 1), 0.95), y: 0.08 };
}

/** The marker moved to a point of the image (clamped to it). */
export const markerAt = (marker: ReportMarker, point: ImagePoint): ReportMarker => ({
  ...marker,
  lat: round4(clamp01(point.y)),
  lng: round4(clamp01(point.x)),
});
