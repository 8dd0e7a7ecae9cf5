import { type LatLng } from './geo';

/** [west, south, east, north] in degrees. */
export type LonLatBbox = readonly [west: number, south: number, east: number, north: number];

/**
 * Mainland South Africa, which encloses Lesotho and eSwatini (Natural Earth extent rounded outwards;
 * the Prince Edward Islands far to the south-east are left out). A box, not the outline: markers may
 * land in a neighbour or the sea near the corners, which is fine for a decorative not-found map.
 */
export const SOUTH_AFRICA_BBOX: LonLatBbox = [16.44, -34.84, 32.89, -22.14];

/** A uniformly random point inside `bbox`. `random` is injectable so tests are deterministic. */
export function randomPointInBbox(bbox: LonLatBbox, random: () => number = Math.random): LatLng {
  const [west, south, east, north] = bbox;
  return { lat: south + random() * (north - south), lng: west + random() * (east - west) };
}

/**
 * Appends `item` and keeps only the newest `max` entries (a ring buffer without mutation).
 * `dropped` lists the evicted entries, oldest first, so the caller can remove them from the map too.
 */
export function addCapped<T>(list: readonly T[], item: T, max: number): { kept: T[]; dropped: T[] } {
  const all = [...list, item];
  const overflow = Math.max(0, all.length - Math.max(0, max));
  return { kept: all.slice(overflow), dropped: all.slice(0, overflow) };
}
