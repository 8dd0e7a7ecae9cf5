import type { EditorAddress, EditorParcel, EditorPoi, PoiType } from '@portal/contracts';
import { padCode, qualityCode } from '@portal/domain';
import { formatAddress } from '@portal/geo';

/**
 * The geo rows as the editor reads them (one column list per table, so every call answers a feature the
 * same way) and their mapping to the contracts' shapes.
 */

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export const ADDRESS_COLUMNS = `
  a.id::text AS address_id, a.house_number, a.street_id::text AS street_id, a.street_name, a.unit, a.estate,
  a.suburb, a.town, a.postal_code, a.quality, a.official, a.review, a.parcel_id::text AS parcel_id,
  ST_Y(a.point) AS lat, ST_X(a.point) AS lng, a.version, a.edited_by, a.edited_at`;

export interface AddressRow {
  address_id: string;
  house_number: string;
  street_id: string | null;
  street_name: string;
  unit: string | null;
  estate: string | null;
  suburb: string;
  town: string;
  postal_code: string | null;
  quality: number;
  official: boolean;
  review: 'accepted' | 'rejected' | null;
  parcel_id: string | null;
  lat: number;
  lng: number;
  version: number;
  edited_by: string | null;
  edited_at: Date | null;
}

/** An address row's text as formatAddress (libs/geo) writes it. */
export const formattedAddressOf = (
  row: Pick<
    AddressRow,
    'house_number' | 'street_name' | 'unit' | 'estate' | 'suburb' | 'town' | 'postal_code'
  >,
) =>
  formatAddress({
    houseNumber: row.house_number,
    street: row.street_name,
    unit: row.unit,
    estate: row.estate,
    suburb: row.suburb,
    town: row.town,
    postalCode: row.postal_code,
  });

export function toEditorAddress(row: AddressRow): EditorAddress {
  return {
    addressId: row.address_id,
    houseNumber: row.house_number,
    streetId: row.street_id,
    streetName: row.street_name,
    unit: row.unit,
    estate: row.estate,
    suburb: row.suburb,
    town: row.town,
    streetCode: padCode(row.postal_code),
    formattedAddress: formattedAddressOf(row),
    quality: row.quality,
    qualityCode: qualityCode(row.quality),
    official: row.official,
    review: row.review,
    parcelId: row.parcel_id,
    lat: Number(row.lat),
    lng: Number(row.lng),
    version: row.version,
    editedBy: row.edited_by,
    editedAt: iso(row.edited_at),
  };
}

export const POI_COLUMNS = `
  o.id::text AS poi_id, o.name, o.poi_type, o.category, o.address_id::text AS address_id,
  o.parent_id::text AS parent_id, o.parcel_id::text AS parcel_id, ST_Y(o.point) AS lat, ST_X(o.point) AS lng,
  o.version, o.edited_by, o.edited_at`;

export interface PoiRow {
  poi_id: string;
  name: string;
  poi_type: number;
  category: string;
  address_id: string | null;
  parent_id: string | null;
  parcel_id: string | null;
  lat: number;
  lng: number;
  version: number;
  edited_by: string | null;
  edited_at: Date | null;
}

export function toEditorPoi(row: PoiRow): EditorPoi {
  return {
    poiId: row.poi_id,
    name: row.name,
    poiType: row.poi_type as PoiType,
    category: row.category,
    addressId: row.address_id,
    parentId: row.parent_id,
    parcelId: row.parcel_id,
    lat: Number(row.lat),
    lng: Number(row.lng),
    version: row.version,
    editedBy: row.edited_by,
    editedAt: iso(row.edited_at),
  };
}

/** A hold counts while it lasts: an expired one is nobody's. */
export const PARCEL_COLUMNS = `
  p.id::text AS parcel_id, p.parcel_number, p.portion, p.parcel_type_id, p.data_quality_id, p.sg_key,
  p.suburb, p.town, p.address_count, p.reviewed_at IS NOT NULL AS reviewed,
  CASE WHEN p.held_until > now() THEN p.held_by END AS held_by_id,
  CASE WHEN p.held_until > now() THEN p.held_by_email END AS held_by,
  CASE WHEN p.held_until > now() THEN p.held_until END AS held_until,
  p.version, p.edited_by, p.edited_at, p.suburb_id::text AS suburb_id, p.town_id::text AS town_id`;

export interface ParcelRow {
  parcel_id: string;
  parcel_number: string;
  portion: number;
  parcel_type_id: number;
  data_quality_id: number;
  sg_key: string | null;
  suburb: string;
  town: string;
  address_count: number;
  reviewed: boolean;
  held_by_id: string | null;
  held_by: string | null;
  held_until: Date | null;
  version: number;
  edited_by: string | null;
  edited_at: Date | null;
  suburb_id: string | null;
  town_id: string | null;
}

export function toEditorParcel(row: ParcelRow): EditorParcel {
  return {
    parcelId: row.parcel_id,
    parcelNo: row.parcel_number,
    portionNo: row.portion,
    parcelTypeId: row.parcel_type_id,
    dataQualityId: row.data_quality_id,
    sgKey: row.sg_key,
    suburb: row.suburb,
    town: row.town,
    addressCount: row.address_count,
    reviewed: row.reviewed,
    heldBy: row.held_by,
    heldUntil: iso(row.held_until),
    version: row.version,
    editedBy: row.edited_by,
    editedAt: iso(row.edited_at),
  };
}

/** How a parcel is named to a person: 'Erf 123' or 'Erf 123/4' (a portion). */
export const erfName = (parcel: { parcel_number: string; portion: number }) =>
  parcel.portion > 0 ? `Erf ${parcel.parcel_number}/${parcel.portion}` : `Erf ${parcel.parcel_number}`;

/** TypeORM answers an UPDATE or DELETE as [rows, count]: the rows it returned (RETURNING). */
export async function changedRows<T>(
  db: { query(sql: string, params?: unknown[]): Promise<unknown> },
  sql: string,
  params: unknown[],
): Promise<T[]> {
  const [rows] = (await db.query(sql, params)) as [T[], number];
  return rows;
}
