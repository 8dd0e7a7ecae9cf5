import type { NamedGeometry, Parcel, ReverseAnswer, SearchResultItem } from '@portal/contracts';
import { formatAddress, insideSouthAfrica, shortAddress, type Queryable } from '@portal/geo';
import { badRequest } from '@portal/server-kit';
import { confidence } from './score';
import { erfTitle } from './search';

/**
 * Reverse geocoding (POST /api/avs/reverse): the parcel containing a point (GiST on parcels.geom), the
 * addresses on it, the nearest address when it has none (KNN on addresses.point), and for a marker
 * search the suburb or town around the point.
 */

export const REVERSE_TEXT = {
  outside: 'That point is outside South Africa: the address service covers South Africa only.',
} as const;

/**
 * An address further than this from a point that has none of its own is not "the address of this
 * location" (the popup says 'No address retrieved for this location.' instead).
 */
export const NEAREST_ADDRESS_MAX_METRES = 1000;

/** A parcel holds at most this many addresses in an answer (a large estate's units). */
const PARCEL_ADDRESS_LIMIT = 500;

const POINT = 'ST_SetSRID(ST_MakePoint($1, $2), 4326)';

interface ParcelRow {
  id: string;
  parcel_number: string;
  portion: number;
  sg_key: string | null;
  parcel_type_id: number;
  data_quality_id: number;
  suburb: string;
  town: string;
  geometry: string;
}

interface AddressRow {
  id: string;
  house_number: string;
  street_name: string;
  unit: string | null;
  estate: string | null;
  suburb: string;
  town: string;
  postal_code: string | null;
  lat: number;
  lng: number;
  parcel_id: string | null;
  source_key: string;
  distance: number;
}

const ADDRESS_COLUMNS = `
  a.id::text AS id, a.house_number, a.street_name, a.unit, a.estate, a.suburb, a.town, a.postal_code,
  ST_Y(a.point) AS lat, ST_X(a.point) AS lng, a.parcel_id::text AS parcel_id,
  a.source || ':' || a.source_id AS source_key,
  ST_Distance(a.point::geography, ${POINT}::geography) AS distance`;

function partsOf(row: AddressRow) {
  return {
    houseNumber: row.house_number,
    street: row.street_name,
    unit: row.unit,
    estate: row.estate,
    suburb: row.suburb,
    town: row.town,
    postalCode: row.postal_code,
  };
}

function addressItem(row: AddressRow, score: number, includeIds: boolean): SearchResultItem {
  const parts = partsOf(row);
  return {
    id: row.id,
    type: 'address',
    formatted_address: formatAddress(parts),
    short_formatted_address: shortAddress(parts),
    location: { lat: Number(row.lat), lng: Number(row.lng) },
    confidence: confidence(score),
    ...(row.parcel_id ? { parcelId: row.parcel_id } : {}),
    ...(includeIds ? { sourceKey: row.source_key } : {}),
    suburb: row.suburb || undefined,
    town: row.town || undefined,
    postalCode: row.postal_code ?? undefined,
  };
}

/** The smallest parcel containing the point (a farm portion may hold a smaller surveyed erf). */
async function parcelAt(db: Queryable, lat: number, lng: number): Promise<ParcelRow | undefined> {
  const [row]: ParcelRow[] = await db.query(
    `SELECT p.id::text AS id, p.parcel_number, p.portion, p.sg_key, p.parcel_type_id, p.data_quality_id,
            p.suburb, p.town, ST_AsGeoJSON(p.geom, 7) AS geometry
     FROM geo.parcels p
     WHERE ST_Contains(p.geom, ${POINT})
     ORDER BY ST_Area(p.geom), p.id
     LIMIT 1`,
    [lng, lat],
  );
  return row;
}

/** The addresses on a parcel: street addresses by number first, then units by number. */
async function addressesOn(db: Queryable, parcelId: string, lat: number, lng: number): Promise<AddressRow[]> {
  return db.query(
    `SELECT ${ADDRESS_COLUMNS}
     FROM geo.addresses a
     WHERE a.parcel_id = $3
     ORDER BY a.unit IS NOT NULL, a.number_value NULLS LAST, lower(a.house_number),
              length(a.unit), a.unit, a.id
     LIMIT ${PARCEL_ADDRESS_LIMIT}`,
    [lng, lat, parcelId],
  );
}

/**
 * The nearest address within NEAREST_ADDRESS_MAX_METRES: the index's nearest few by degrees (KNN `<->`),
 * then the nearest of them in metres (a degree of longitude is shorter than one of latitude here).
 */
async function nearestAddress(db: Queryable, lat: number, lng: number): Promise<AddressRow | undefined> {
  const [row]: AddressRow[] = await db.query(
    `SELECT * FROM (
       SELECT ${ADDRESS_COLUMNS}
       FROM geo.addresses a
       ORDER BY a.point <-> ${POINT}
       LIMIT 8
     ) nearest
     WHERE distance <= $3
     ORDER BY distance, id
     LIMIT 1`,
    [lng, lat, NEAREST_ADDRESS_MAX_METRES],
  );
  return row;
}

/** The suburb around the point, else the town (the marker search's area shape). */
export async function areaAt(db: Queryable, lat: number, lng: number): Promise<NamedGeometry | null> {
  const [row]: { id: string; name: string; geometry: string }[] = await db.query(
    `SELECT pl.id::text AS id, pl.name, ST_AsGeoJSON(pl.geom, 7) AS geometry
     FROM geo.places pl
     WHERE pl.kind IN ('suburb', 'town') AND ST_Contains(pl.geom, ${POINT})
     ORDER BY pl.kind = 'suburb' DESC, ST_Area(pl.geom), pl.id
     LIMIT 1`,
    [lng, lat],
  );
  return row ? { id: row.id, type: 'place', name: row.name, geometry: JSON.parse(row.geometry) } : null;
}

export interface ReverseQuery {
  lat: number;
  lng: number;
  searchOption?: string;
  includeIds: boolean;
}

export async function reverseGeocode(db: Queryable, query: ReverseQuery): Promise<ReverseAnswer['result']> {
  const { lat, lng, includeIds } = query;
  if (!(await insideSouthAfrica(db, lat, lng))) throw badRequest(REVERSE_TEXT.outside);
  const [parcelRow, area] = await Promise.all([
    parcelAt(db, lat, lng),
    query.searchOption === 'marker' ? areaAt(db, lat, lng) : Promise.resolve(null),
  ]);
  const onParcel = parcelRow ? await addressesOn(db, parcelRow.id, lat, lng) : [];

  // The address of the point: the street address on the parcel nearest the point (a unit only when the
  // parcel has nothing else), else the nearest address around.
  let best: AddressRow | undefined;
  let score = 1;
  if (onParcel.length) {
    const streetAddresses = onParcel.filter((row) => !row.unit);
    best = (streetAddresses.length ? streetAddresses : onParcel).reduce((a, b) =>
      Number(b.distance) < Number(a.distance) ? b : a,
    );
  } else {
    best = await nearestAddress(db, lat, lng);
    // Not this location's own address: the further away, the less it is the answer.
    if (best) score = 0.9 * (1 - Number(best.distance) / NEAREST_ADDRESS_MAX_METRES) + 0.05;
  }

  let parcel: Parcel | null = null;
  if (parcelRow) {
    const title = erfTitle(parcelRow);
    parcel = {
      id: parcelRow.id,
      formatted_address: onParcel.length
        ? formatAddress(partsOf(best!))
        : [title, formatAddress({ suburb: parcelRow.suburb, town: parcelRow.town })]
            .filter(Boolean)
            .join(', '),
      addresses: onParcel.map((row) => ({ id: row.id, short_formatted_address: shortAddress(partsOf(row)) })),
      geometry: JSON.parse(parcelRow.geometry),
      parcelNumber: parcelRow.parcel_number,
      portion: parcelRow.portion,
      sgKey: parcelRow.sg_key,
      parcelTypeId: parcelRow.parcel_type_id,
      dataQualityId: parcelRow.data_quality_id,
    };
  }
  return {
    parcel,
    address: best ? addressItem(best, score, includeIds) : null,
    distance: best ? Math.round(Number(best.distance) * 10) / 10 : null,
    area,
  };
}
