import { formatNumber } from '@portal/charts';

/** A distance for people: metres below 1 km, km with one decimal above. */
export function formatDistance(metres: number): string {
  return metres < 1000 ? `${formatNumber(Math.round(metres))} m` : `${formatNumber(metres / 1000, 1)} km`;
}

/** An elevation or altitude in metres, one decimal. */
export const formatMetres = (metres: number | null, unknown: string) =>
  metres === null ? unknown : `${formatNumber(metres, 1)} m`;

/** Coordinates to 6 decimals (spec 03 §9). */
export const formatCoordinate = (value: number) => value.toFixed(6);
