import type { DataSource } from 'typeorm';
import type { OgcCollectionId } from '@portal/contracts';
import { footprintOnSql, standingOnSql } from '@portal/db';
import type { DateRange, ItemsRequest } from './params';
import type { SpatialTable } from './extent';

/**
 * The OGC API – Features collections in SQL (issue 23). Every items statement filters the table's GiST
 * index with `&&` on the box, orders by the primary key (a stable order for offset paging) and always has a
 * LIMIT (one row more than the page, to know whether a next page exists): a box over a whole province is
 * answered a page at a time, never in one 10 M-row answer.
 */

export interface CollectionDefinition {
  table: SpatialTable;
  title: string;
  description: string;
  /** The table and its alias `t`. */
  from: string;
  /** The geometry column over `t`, for the box filter. */
  geom: string;
  /** What a feature id looks like (anything else is a 404 without asking the database). */
  idPattern: RegExp;
  /** The properties as a json_build_object over `t`. */
  properties: string;
  /** Dated collections: the SQL filter for a date range ($n parameters from `next`), and its geometry. */
  dated?: {
    filter(range: DateRange, next: (value: unknown) => string): string;
    /** The geometry shown for a range (a building's footprint at an instant), else `geom`. */
    geometry?(range: DateRange, next: (value: unknown) => string): string;
    /** [first, last] of the collection's dates (null: open), read once. */
    intervalSql: string;
  };
}

const day = (column: string) => `to_char(${column}, 'YYYY-MM-DD')`;
const BIGINT_ID = /^\d{1,18}$/;
const UUID_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The portal's day (requests are dated by their creation instant, shown in South African time). */
const saDay = (column: string) => `(${column} AT TIME ZONE 'Africa/Johannesburg')::date`;

export const COLLECTIONS: Record<OgcCollectionId, CollectionDefinition> = {
  parcels: {
    table: 'parcels',
    title: 'Parcels',
    description: 'Cadastral parcels (erven and farm portions) with their number, portion, town and suburb.',
    from: 'geo.parcels t',
    geom: 't.geom',
    idPattern: BIGINT_ID,
    properties: `json_build_object('parcel_number', t.parcel_number, 'portion', t.portion, 'sg_key', t.sg_key,
      'town', t.town, 'suburb', t.suburb)`,
  },
  addresses: {
    table: 'addresses',
    title: 'Addresses',
    description: 'Street addresses as points, with the parcel each lies on.',
    from: 'geo.addresses t',
    geom: 't.point',
    idPattern: BIGINT_ID,
    properties: `json_build_object('house_number', t.house_number, 'street_name', t.street_name, 'unit', t.unit,
      'estate', t.estate, 'suburb', t.suburb, 'town', t.town, 'postal_code', t.postal_code,
      'parcel_id', t.parcel_id::text, 'quality', t.quality, 'official', t.official)`,
  },
  buildings: {
    table: 'buildings',
    title: 'Buildings',
    description:
      'Building footprints with their life: built_on, demolished_on and extended_on. datetime selects the ' +
      'buildings standing then (at an instant, with the footprint of that day).',
    from: 'geo.buildings t',
    geom: 't.geom',
    idPattern: BIGINT_ID,
    properties: `json_build_object('kind', t.kind, 'levels', t.levels, 'height_m', t.height_m, 'roof', t.roof,
      'parcel_id', t.parcel_id::text, 'built_on', ${day('t.built_on')}, 'demolished_on', ${day('t.demolished_on')},
      'extended_on', ${day('t.extended_on')})`,
    dated: {
      // A life [built_on, demolished_on) meets the range [start, end] (days, both ends included).
      filter(range, next) {
        if (range.start !== null && range.start === range.end)
          return standingOnSql(`${next(range.start)}::date`, 't');
        return [
          ...(range.end === null ? [] : [`(t.built_on IS NULL OR t.built_on <= ${next(range.end)}::date)`]),
          ...(range.start === null
            ? []
            : [`(t.demolished_on IS NULL OR t.demolished_on > ${next(range.start)}::date)`]),
        ].join(' AND ');
      },
      geometry(range, next) {
        return range.start !== null && range.start === range.end
          ? footprintOnSql(`${next(range.start)}::date`, 't')
          : 't.geom';
      },
      intervalSql: `SELECT ${day('min(built_on)')} AS first, NULL AS last FROM geo.buildings`,
    },
  },
  surveys: {
    table: 'surveys',
    title: 'Imagery surveys',
    description:
      'Aerial imagery surveys (flights and mosaics): what each covers, its kind, provider and capture date.',
    from: 'geo.imagery_coverage t',
    geom: 't.geom',
    idPattern: BIGINT_ID,
    properties: `json_build_object('kind', t.kind, 'name', t.name, 'provider', t.provider,
      'captured_on', ${day('t.captured_on')})`,
    dated: {
      filter(range, next) {
        return [
          ...(range.start === null ? [] : [`t.captured_on >= ${next(range.start)}::date`]),
          ...(range.end === null ? [] : [`t.captured_on <= ${next(range.end)}::date`]),
        ].join(' AND ');
      },
      intervalSql: `SELECT ${day('min(captured_on)')} AS first, ${day('max(captured_on)')} AS last
        FROM geo.imagery_coverage`,
    },
  },
  // Staff only (routes/ogc.ts): requests as points where they were located (none where they could not be).
  requests: {
    table: 'requests',
    title: 'Requests',
    description:
      'SAVi, AVS and IRiS requests where they were located, with their reference, type, status and dates ' +
      '(operations team only). datetime selects by the day a request was logged.',
    from: 'requests.requests t',
    geom: 't.point',
    idPattern: UUID_ID,
    properties: `json_build_object('grip_reference', t.grip_reference, 'request_type', t.request_type,
      'request_sub_type', t.request_sub_type, 'status', t.status, 'address', t.address,
      'group_code', t.group_code, 'priority', t.priority,
      'created_on', ${day(saDay('t.created_at'))}, 'finalised_on', ${day(saDay('t.date_finalised'))})`,
    dated: {
      // Whole South African days, as an interval of instants (the created_at index serves it).
      filter(range, next) {
        return [
          ...(range.start === null
            ? []
            : [`t.created_at >= (${next(range.start)}::date::timestamp AT TIME ZONE 'Africa/Johannesburg')`]),
          ...(range.end === null
            ? []
            : [
                `t.created_at < ((${next(range.end)}::date + 1)::timestamp AT TIME ZONE 'Africa/Johannesburg')`,
              ]),
        ].join(' AND ');
      },
      // Open-ended: requests keep coming, and the interval is read once per process.
      intervalSql: `SELECT ${day(saDay('min(created_at)'))} AS first, NULL AS last FROM requests.requests`,
    },
  },
};

export interface FeatureRow {
  id: string;
  geometry: unknown;
  properties: Record<string, unknown>;
}

/** Coordinates to 7 decimals: about a centimetre, what the data holds. */
const GEOJSON_DECIMALS = 7;

/** One page of a collection's items, and whether more follow. */
export async function readItems(
  ds: DataSource,
  collection: CollectionDefinition,
  request: ItemsRequest,
): Promise<{ rows: FeatureRow[]; more: boolean }> {
  const params: unknown[] = [];
  const next = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where: string[] = [];
  if (request.bbox)
    where.push(`${collection.geom} && ST_MakeEnvelope(${request.bbox.map(next).join(', ')}, 4326)`);
  let geometry = collection.geom;
  if (request.datetime && collection.dated) {
    where.push(collection.dated.filter(request.datetime, next));
    geometry = collection.dated.geometry?.(request.datetime, next) ?? geometry;
  }
  const rows = (await ds.query(
    `SELECT t.id::text AS id, ST_AsGeoJSON(${geometry}, ${GEOJSON_DECIMALS})::json AS geometry,
            ${collection.properties} AS properties
     FROM ${collection.from}
     ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY t.id
     LIMIT ${next(request.limit + 1)} OFFSET ${next(request.offset)}`,
    params,
  )) as FeatureRow[];
  return { rows: rows.slice(0, request.limit), more: rows.length > request.limit };
}

/** One item by id, or undefined. */
export async function readItem(
  ds: DataSource,
  collection: CollectionDefinition,
  id: string,
): Promise<FeatureRow | undefined> {
  const [row] = (await ds.query(
    `SELECT t.id::text AS id, ST_AsGeoJSON(${collection.geom}, ${GEOJSON_DECIMALS})::json AS geometry,
            ${collection.properties} AS properties
     FROM ${collection.from} WHERE t.id = $1`,
    [id],
  )) as FeatureRow[];
  return row;
}

/** A dated collection's [first, last] days, read once per process by the caller. */
export async function readInterval(
  ds: DataSource,
  collection: CollectionDefinition,
): Promise<[string | null, string | null] | null> {
  if (!collection.dated) return null;
  const [row] = (await ds.query(collection.dated.intervalSql)) as {
    first: string | null;
    last: string | null;
  }[];
  return [row?.first ?? null, row?.last ?? null];
}
