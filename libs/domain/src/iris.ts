import { RISK_CLASSES, type RiskClass } from '@portal/contracts';

/**
 * IRiS risk rules (spec 03 §3 "IRiS report", §9): the classes of water bodies by altitude and distance, the
 * soil danger threshold, coordinates and times as shown, the colours of the classes (screen and PDF), the
 * soil scores s6 and s11 (not defined by the spec: defined here from the soil profile data, see SOIL_METHOD)
 * and the geometry the report's numbers need (bilinear interpolation in the elevation grid, profile offsets).
 */

/** Spec 03 §9: the elevation safety margin (m). */
export const ELEVATION_SAFETY_MARGIN_M = 2.5;

/** Spec 03 §9: water distance class limits (m): safe at 500 or more, maybe safe from 300, not safe from 150. */
export const WATER_DISTANCE_LIMITS_M = { safe: 500, maybeSafe: 300, notSafe: 150 } as const;

/** Spec 03 §9: soil is dangerous when s6Value + s11Value is this or more. */
export const SOIL_DANGER_THRESHOLD = 12;

/** Spec 03 §9: the elevation chart reference line spans ±1000 m; profiles are sampled every 50 m. */
export const PROFILE_HALF_SPAN_M = 1000;
export const PROFILE_STEP_M = 50;

/** Mean Earth radius (m, IUGG), the one PostGIS's spheroid distances are close to. */
export const EARTH_RADIUS_M = 6_371_008.8;

/**
 * Spec 03 §9, water altitude class of a water body whose (nearest part's) altitude is `altitude` against
 * the point's elevation `ele`: safe below ele − 5 (twice the margin), maybe safe from ele − 5 to below
 * ele − 2.5, not safe from ele − 2.5 to below ele, dangerous at or above ele.
 */
export function waterAltitudeClass(altitude: number, ele: number): RiskClass {
  if (altitude >= ele) return 'dangerous';
  if (altitude >= ele - ELEVATION_SAFETY_MARGIN_M) return 'not safe';
  if (altitude >= ele - 2 * ELEVATION_SAFETY_MARGIN_M) return 'maybe safe';
  return 'safe';
}

/** Spec 03 §9, water distance class: safe ≥ 500 m, maybe safe 300–<500, not safe 150–<300, dangerous < 150. */
export function waterDistanceClass(distance: number): RiskClass {
  if (distance >= WATER_DISTANCE_LIMITS_M.safe) return 'safe';
  if (distance >= WATER_DISTANCE_LIMITS_M.maybeSafe) return 'maybe safe';
  if (distance >= WATER_DISTANCE_LIMITS_M.notSafe) return 'not safe';
  return 'dangerous';
}

const severity = (c: RiskClass) => RISK_CLASSES.indexOf(c);

/** The worst of several classes (null and undefined ignored); null when there is none. */
export function worstClass(classes: readonly (RiskClass | null | undefined)[]): RiskClass | null {
  let worst: RiskClass | null = null;
  for (const c of classes) if (c && (worst === null || severity(c) > severity(worst))) worst = c;
  return worst;
}

/** The mildest of several classes (null and undefined ignored); null when there is none. */
export function mildestClass(classes: readonly (RiskClass | null | undefined)[]): RiskClass | null {
  let mildest: RiskClass | null = null;
  for (const c of classes) if (c && (mildest === null || severity(c) < severity(mildest))) mildest = c;
  return mildest;
}

/**
 * The risk one water body brings: flooding needs the water both near and not well below the point, so a
 * body counts with the milder of its two classes (far away, or well below, is safe). Without an altitude
 * (outside the elevation model) the distance class alone.
 */
export function waterBodyClass(altitudeClass: RiskClass | null, distanceClass: RiskClass): RiskClass {
  return altitudeClass ? mildestClass([altitudeClass, distanceClass])! : distanceClass;
}

/** Spec 03 §9: soil is dangerous when s6 + s11 ≥ 12; null when either score is unknown. */
export function isSoilDangerous(s6: number | null, s11: number | null): boolean | null {
  if (s6 === null || s11 === null) return null;
  return s6 + s11 >= SOIL_DANGER_THRESHOLD;
}

/** Spec 03 §9: coordinates rounded to 6 decimals (half away from zero; about 0.1 m). */
export function roundCoordinate(value: number): number {
  const rounded = Math.round(Math.abs(value) * 1e6) / 1e6;
  return value < 0 ? -rounded : rounded;
}

/** The colour of each class, the same on the screen and in the PDF. */
export const RISK_CLASS_COLOURS: Readonly<Record<RiskClass, string>> = {
  safe: '#2e7d32', // green
  'maybe safe': '#f9a825', // amber
  'not safe': '#ef6c00', // orange
  dangerous: '#c62828', // red
};
/** The colour of "no class" (no data, nothing in range). */
export const NO_CLASS_COLOUR = '#9e9e9e';

export function riskClassColour(c: RiskClass | null | undefined): string {
  return c ? RISK_CLASS_COLOURS[c] : NO_CLASS_COLOUR;
}

// ---- soil scores ----

/** FAO drainage classes as the Africa Soil Profiles database codes them (DRAINFAO). */
export const DRAINAGE_CLASSES: Readonly<Record<string, string>> = {
  E: 'excessively drained',
  S: 'somewhat excessively drained',
  W: 'well drained',
  M: 'moderately well drained',
  I: 'imperfectly drained',
  P: 'poorly drained',
  V: 'very poorly drained',
};

/** s11 per drainage class: 0 (water leaves at once) … 10 (waterlogged). */
export const DRAINAGE_SCORES: Readonly<Record<string, number>> = {
  E: 0,
  S: 1,
  W: 2,
  M: 4,
  I: 6,
  P: 8,
  V: 10,
};

/** Clay (%) per s6 point: 60 % clay or more scores 10. */
export const CLAY_PERCENT_PER_POINT = 6;
/** The depth (cm) over which the profile's clay is averaged. */
export const SOIL_DEPTH_CM = 100;
/** WRB reference group of shrink–swell soils (Vertisols): s6 is at least this. */
export const VERTISOL_MIN_S6 = 8;

export const SOIL_METHOD =
  `s6 (shrink–swell): the profile's clay content, averaged over its horizons down to ${SOIL_DEPTH_CM} cm ` +
  `weighted by thickness, one point per ${CLAY_PERCENT_PER_POINT} % clay (0–10; ${CLAY_PERCENT_PER_POINT * 10} % ` +
  `or more is 10), at least ${VERTISOL_MIN_S6} for Vertisols. s11 (drainage): the FAO drainage class, ` +
  `excessively 0, somewhat excessively 1, well 2, moderately well 4, imperfectly 6, poorly 8, very poorly 10. ` +
  `The soil is rated dangerous when s6 + s11 is ${SOIL_DANGER_THRESHOLD} or more.`;

export interface SoilHorizon {
  /** Upper and lower depth (cm). */
  top: number;
  bottom: number;
  /** Clay (mass %), null when not measured. */
  clay: number | null;
}

/**
 * Thickness-weighted mean clay (%) of the horizons' parts above SOIL_DEPTH_CM; null when no horizon there has
 * a clay value.
 */
export function meanClayPercent(horizons: readonly SoilHorizon[]): number | null {
  let weight = 0;
  let sum = 0;
  for (const h of horizons) {
    if (h.clay === null || !Number.isFinite(h.clay)) continue;
    const thickness = Math.min(h.bottom, SOIL_DEPTH_CM) - Math.max(h.top, 0);
    if (!(thickness > 0)) continue;
    weight += thickness;
    sum += thickness * h.clay;
  }
  return weight > 0 ? sum / weight : null;
}

/** s6 from the mean clay (%) and the WRB reference group (e.g. 'VR'); null without clay data. */
export function soilS6(meanClay: number | null, wrb?: string | null): number | null {
  if (meanClay === null || !Number.isFinite(meanClay)) return null;
  const score = Math.min(10, Math.max(0, Math.round(meanClay / CLAY_PERCENT_PER_POINT)));
  return wrb?.toUpperCase() === 'VR' ? Math.max(score, VERTISOL_MIN_S6) : score;
}

/** s11 from the FAO drainage code; null when unknown. */
export function soilS11(drainage: string | null | undefined): number | null {
  if (!drainage) return null;
  return DRAINAGE_SCORES[drainage.toUpperCase()] ?? null;
}

// ---- geometry ----

export interface ElevationGrid {
  /** The south-west sample's longitude and latitude (degrees). */
  originLon: number;
  originLat: number;
  /** Spacing (degrees, positive: columns go east, rows go north). */
  stepLon: number;
  stepLat: number;
  cols: number;
  rows: number;
}

/** The grid cell (column i, row j of its south-west corner) and the fractions within it; null outside. */
export function gridCell(
  grid: ElevationGrid,
  lon: number,
  lat: number,
): { i: number; j: number; fx: number; fy: number } | null {
  const x = (lon - grid.originLon) / grid.stepLon;
  const y = (lat - grid.originLat) / grid.stepLat;
  // A hair of tolerance: the grid's own sample coordinates come as rounded decimals.
  const eps = 1e-9;
  if (x < -eps || y < -eps || x > grid.cols - 1 + eps || y > grid.rows - 1 + eps) return null;
  const i = Math.min(Math.max(Math.floor(x + eps), 0), grid.cols - 2);
  const j = Math.min(Math.max(Math.floor(y + eps), 0), grid.rows - 2);
  return { i, j, fx: Math.min(Math.max(x - i, 0), 1), fy: Math.min(Math.max(y - j, 0), 1) };
}

/**
 * Bilinear interpolation between the four samples around a point: `at(i, j)` answers the sample of column i,
 * row j (undefined when missing). Null outside the grid or next to a missing sample.
 */
export function bilinearElevation(
  grid: ElevationGrid,
  lon: number,
  lat: number,
  at: (i: number, j: number) => number | undefined,
): number | null {
  const cell = gridCell(grid, lon, lat);
  if (!cell) return null;
  const { i, j, fx, fy } = cell;
  const z00 = at(i, j);
  const z10 = at(i + 1, j);
  const z01 = at(i, j + 1);
  const z11 = at(i + 1, j + 1);
  if (z00 === undefined || z10 === undefined || z01 === undefined || z11 === undefined) return null;
  return z00 * (1 - fx) * (1 - fy) + z10 * fx * (1 - fy) + z01 * (1 - fx) * fy + z11 * fx * fy;
}

/** The point `north` metres north and `east` metres east of (lat, lng), on a sphere. */
export function offsetPoint(
  lat: number,
  lng: number,
  north: number,
  east: number,
): { lat: number; lng: number } {
  const rad = Math.PI / 180;
  return {
    lat: lat + north / EARTH_RADIUS_M / rad,
    lng: lng + east / (EARTH_RADIUS_M * Math.cos(lat * rad)) / rad,
  };
}

/** The profile offsets: −1000, −950, …, 1000 (41). */
export function profileOffsets(halfSpan = PROFILE_HALF_SPAN_M, step = PROFILE_STEP_M): number[] {
  const n = Math.round(halfSpan / step);
  return Array.from({ length: 2 * n + 1 }, (_, k) => (k - n) * step);
}

/** Great-circle distance (m) between two points (haversine). */
export function haversineMetres(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(a));
}

/** Incidents per 100 000 residents (1 decimal); null without a population. */
export function ratePer100k(count: number, population: number | null | undefined): number | null {
  if (!population || population <= 0) return null;
  return Math.round((count / population) * 100_000 * 10) / 10;
}

/** SAPS financial year '2022/2023' (or '2022/23') → its end year, 2023. */
export function financialYearTo(year: string): number | null {
  const match = /^(\d{4})\s*\/\s*(\d{2}|\d{4})$/.exec(year.trim());
  if (!match) return null;
  const from = Number(match[1]);
  return from + 1;
}

/** A station or precinct name as a key: lower case, non-alphanumerics collapsed to one space. */
export function stationKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}
