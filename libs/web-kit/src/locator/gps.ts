import type { LatLng } from '@portal/contracts';

/**
 * Reads a GPS co-ordinate as users type them (spec 01 §5): two numbers, latitude then longitude, separated
 * by a comma or a space. Accepted forms, mixable per half:
 *
 * - decimal degrees, signed: `-33.9368, 18.86`, `-33.9368 18.86`
 * - decimal degrees with hemisphere letters: `33.9368 S, 18.86 E`, `33.9368S 18.86E` (S and W are negative)
 * - degrees-minutes-seconds: `33°56'12.5"S 18°51'36"E` (or degrees-minutes `33°56.5'S`); the degree,
 *   minute and second symbols are required, since bare spaces already separate the two halves.
 *
 * A half with a hemisphere letter takes its sign from the letter (N/E positive, S/W negative). Answers
 * null when the text is not two such numbers or they are outside ±90 / ±180.
 */
export function parseGps(text: string): LatLng | null {
  const halves = splitHalves(text.trim());
  if (!halves) return null;
  const lat = parseHalf(halves[0], 'lat');
  const lng = parseHalf(halves[1], 'lng');
  if (lat === null || lng === null) return null;
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { lat, lng };
}

const DMS = String.raw`([-+]?\d+(?:\.\d+)?)\s*°\s*(?:(\d+(?:\.\d+)?)\s*['′]\s*)?(?:(\d+(?:\.\d+)?)\s*(?:"|″|''))?`;
const DECIMAL_HALF = new RegExp(String.raw`^([-+]?\d+(?:\.\d+)?)\s*°?\s*([NSEW])?$`, 'i');
const DMS_HALF = new RegExp(String.raw`^${DMS}\s*([NSEW])?$`, 'i');

/** Splits at a comma, or else at the whitespace that ends the first half. */
function splitHalves(text: string): [string, string] | null {
  if (!text) return null;
  const byComma = text.split(',');
  if (byComma.length === 2) return [byComma[0].trim(), byComma[1].trim()];
  if (byComma.length > 2) return null;
  // No comma: the first half ends at a hemisphere letter, or at the first whitespace outside a DMS group.
  const letterSplit = /^(.+?[NSns])\s*([-+\d].*)$/.exec(text);
  if (letterSplit) return [letterSplit[1].trim(), letterSplit[2].trim()];
  const dmsSplit = new RegExp(String.raw`^(${DMS})\s+([-+\d].*)$`).exec(text);
  if (dmsSplit && text.includes('°')) return [dmsSplit[1].trim(), dmsSplit[dmsSplit.length - 1].trim()];
  const parts = text.split(/\s+/);
  return parts.length === 2 ? [parts[0], parts[1]] : null;
}

function parseHalf(half: string, axis: 'lat' | 'lng'): number | null {
  const decimal = DECIMAL_HALF.exec(half);
  if (decimal) return applyHemisphere(Number(decimal[1]), decimal[2], axis);
  const dms = DMS_HALF.exec(half);
  if (!dms) return null;
  const degrees = Number(dms[1]);
  const minutes = dms[2] ? Number(dms[2]) : 0;
  const seconds = dms[3] ? Number(dms[3]) : 0;
  if (minutes >= 60 || seconds >= 60) return null;
  const magnitude = Math.abs(degrees) + minutes / 60 + seconds / 3600;
  return applyHemisphere(degrees < 0 ? -magnitude : magnitude, dms[4], axis);
}

function applyHemisphere(value: number, letter: string | undefined, axis: 'lat' | 'lng'): number | null {
  if (!Number.isFinite(value)) return null;
  if (!letter) return value;
  const upper = letter.toUpperCase();
  // A latitude cannot carry E/W, nor a longitude N/S.
  if (axis === 'lat' ? !'NS'.includes(upper) : !'EW'.includes(upper)) return null;
  const negative = upper === 'S' || upper === 'W';
  return negative ? -Math.abs(value) : Math.abs(value);
}

/** The co-ordinate as the popup's copy button and the request form show it: "lat, lng", 6 decimals. */
export const formatGps = ({ lat, lng }: LatLng) => `${lat.toFixed(6)}, ${lng.toFixed(6)}`;
