import { CRS84, OGC_DEFAULT_LIMIT, OGC_MAX_LIMIT, type OgcItemsQuery } from '@portal/contracts';
import { badRequest } from '@portal/server-kit';
import type { Bbox } from './extent';

/** A date range, both ends 'YYYY-MM-DD' or open (null); an instant has start === end. */
export interface DateRange {
  start: string | null;
  end: string | null;
}

export interface ItemsRequest {
  bbox: Bbox | null;
  limit: number;
  offset: number;
  datetime: DateRange | null;
}

/** `f`: JSON is the one encoding (GeoJSON for features). */
export function checkFormat(f: string | undefined): void {
  if (f !== undefined && !['json', 'geojson', 'application/json', 'application/geo+json'].includes(f))
    throw badRequest(`Unsupported format f=${f}: this service answers JSON only (f=json).`);
}

function integer(name: string, text: string, min: number): number {
  if (!/^\d{1,9}$/.test(text) || Number(text) < min)
    throw badRequest(`${name} must be an integer of at least ${min}, got '${text}'.`);
  return Number(text);
}

/** `bbox=west,south,east,north` in degrees (CRS84). */
export function parseBbox(text: string): Bbox {
  const parts = text.split(',').map((part) => part.trim());
  const numbers = parts.map(Number);
  if (parts.length !== 4 || parts.some((part) => part === '') || numbers.some((n) => !Number.isFinite(n)))
    throw badRequest(`bbox must be four numbers west,south,east,north (degrees), got '${text}'.`);
  const [west, south, east, north] = numbers;
  const problems = [
    ...(west >= -180 && east <= 180 ? [] : ['longitudes must lie within -180 to 180']),
    ...(south >= -90 && north <= 90 ? [] : ['latitudes must lie within -90 to 90']),
    ...(west <= east ? [] : ['west must not be east of east (a box across the antimeridian is not served)']),
    ...(south <= north ? [] : ['south must not be north of north']),
  ];
  if (problems.length > 0) throw badRequest(`bbox ${text}: ${problems.join('; ')}.`, problems);
  return [west, south, east, north];
}

const DAY = /^(\d{4}-\d{2}-\d{2})(?:[Tt ](\d{2}:\d{2}:\d{2}(?:\.\d+)?)([Zz]|[+-]\d{2}:\d{2}))?$/;

/** An RFC 3339 date or date-time as the UTC day it falls on (the dated columns hold days). */
function day(text: string): string {
  const match = DAY.exec(text);
  const parsed = match ? new Date(match[2] ? text.toUpperCase() : `${match[1]}T00:00:00Z`) : null;
  if (!match || !parsed || Number.isNaN(parsed.getTime()))
    throw badRequest(
      `datetime must be an RFC 3339 date or date-time (2024-11-20, 2024-11-20T10:00:00Z) or an interval of two ` +
        `(a/b, '..' for an open end), got '${text}'.`,
    );
  return parsed.toISOString().slice(0, 10);
}

/** `datetime`: an instant, or an interval `a/b` where either end may be `..` or empty (open). */
export function parseDatetime(text: string): DateRange {
  const parts = text.split('/');
  if (parts.length === 1) {
    const instant = day(text);
    return { start: instant, end: instant };
  }
  if (parts.length !== 2) throw badRequest(`datetime has at most one '/', got '${text}'.`);
  const end = (part: string) => (part === '' || part === '..' ? null : day(part));
  const range = { start: end(parts[0]), end: end(parts[1]) };
  if (range.start === null && range.end === null)
    throw badRequest(`datetime '${text}': at least one end of the interval must be a date.`);
  if (range.start !== null && range.end !== null && range.start > range.end)
    throw badRequest(`datetime '${text}': the interval ends before it starts.`);
  return range;
}

/** The items query's parameters; the CRS ones of Part 2 only with the one CRS served (CRS84). */
const ITEMS_PARAMETERS = ['f', 'bbox', 'limit', 'offset', 'datetime'];
const CRS_PARAMETERS = ['bbox-crs', 'crs'];

/**
 * OGC API – Features Core answers an unknown query parameter with a 400 (a misspelt `bbx` must not
 * silently return everything). Read from the raw URL: the schema validation drops unknown keys.
 */
export function checkItemsParameters(url: string): void {
  const query = new URLSearchParams(url.split('?')[1] ?? '');
  const problems = [...query.entries()].flatMap(([name, value]) => {
    if (ITEMS_PARAMETERS.includes(name)) return [];
    if (CRS_PARAMETERS.includes(name)) return value === CRS84 ? [] : [`${name}: only ${CRS84} is served`];
    return [`unknown parameter '${name}' (known: ${ITEMS_PARAMETERS.join(', ')})`];
  });
  if (problems.length > 0) throw badRequest(`Bad items query: ${problems.join('; ')}.`, problems);
}

/**
 * The items query: `limit` above the maximum is clamped to it, as OGC API – Features allows (the next link
 * says what was used); `datetime` on a collection without dates is refused.
 */
export function parseItemsQuery(query: OgcItemsQuery, dated: boolean): ItemsRequest {
  checkFormat(query.f);
  if (query.datetime !== undefined && !dated)
    throw badRequest('This collection has no dates: datetime is for buildings, surveys and requests.');
  return {
    bbox: query.bbox === undefined ? null : parseBbox(query.bbox),
    limit:
      query.limit === undefined
        ? OGC_DEFAULT_LIMIT
        : Math.min(OGC_MAX_LIMIT, integer('limit', query.limit, 1)),
    offset: query.offset === undefined ? 0 : integer('offset', query.offset, 0),
    datetime: query.datetime === undefined ? null : parseDatetime(query.datetime),
  };
}
