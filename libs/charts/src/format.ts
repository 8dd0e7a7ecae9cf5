import { formatNumber } from './svg';

/** A distance for people: metres below 1 km, km with one decimal above. */
export function formatDistance(metres: number): string {
  return metres < 1000 ? `${formatNumber(Math.round(metres))} m` : `${formatNumber(metres / 1000, 1)} km`;
}

/** An elevation or altitude in metres, one decimal. */
export const formatMetres = (metres: number | null, unknown: string) =>
  metres === null ? unknown : `${formatNumber(metres, 1)} m`;

/** Coordinates to 6 decimals (spec 03 §9). */
export const formatCoordinate = (value: number) => value.toFixed(6);

/**
 * The unit as a crime chart's vertical axis shows it: the rotated label is as long as the plot is high, so
 * the parenthesised note is left out (and a long unit shortened to 'per 100 000 residents'); the section
 * gives the unit in full under the table.
 */
export function axisUnit(unit: string): string {
  const short = unit.replace(/\s*\(.*\)\s*$/, '');
  return short.length <= 28 ? short : short.replace(/^incidents\s+/, '').replace(/\s+per year$/, '');
}
