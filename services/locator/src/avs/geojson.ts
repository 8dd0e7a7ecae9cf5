import { FEATURE_TYPES, type FeatureType, type NamedGeometry } from '@portal/contracts';
import { formatAddress, type Queryable } from '@portal/geo';
import { badRequest, notFound } from '@portal/server-kit';
import { erfTitle, farmTitle } from './search';

/**
 * POST /api/avs/geojson: the name and shape of one feature named by (id, type), the pair every search
 * result carries. Areas (parcels, farms, suburbs, towns, streets) answer their outline or line; points
 * (addresses, POIs) their point; a postal code the shape of its place when it has one, else its point.
 */

export const GEOJSON_TEXT = {
  badId: (id: string) => `'${id}' is not a feature id: ids are whole numbers.`,
  badType: (type: string) => `'${type}' is not a feature type: use one of ${FEATURE_TYPES.join(', ')}.`,
  notFound: (type: string, id: string) => `There is no ${type} with id ${id}.`,
} as const;

/** Largest bigint: a longer run of digits cannot be an id. */
const MAX_ID = 9223372036854775807n;

export function readFeatureId(id: string): string {
  const trimmed = id.trim();
  if (!/^\d{1,19}$/.test(trimmed) || BigInt(trimmed) > MAX_ID) throw badRequest(GEOJSON_TEXT.badId(id));
  return String(BigInt(trimmed));
}

export function readFeatureType(type: string): FeatureType {
  const trimmed = type.trim().toLowerCase();
  if (!(FEATURE_TYPES as readonly string[]).includes(trimmed)) throw badRequest(GEOJSON_TEXT.badType(type));
  return trimmed as FeatureType;
}

/** Each type's statement: the feature's parts for its name, and its geometry as GeoJSON text. */
const STATEMENTS: Record<FeatureType, string> = {
  address: `SELECT house_number, street_name AS street, unit, estate, suburb, town, postal_code,
                   ST_AsGeoJSON(point, 7) AS geometry
            FROM geo.addresses WHERE id = $1`,
  poi: `SELECT name, ST_AsGeoJSON(point, 7) AS geometry FROM geo.pois WHERE id = $1`,
  farm: `SELECT name, farm_number, portion, division, ST_AsGeoJSON(geom, 7) AS geometry FROM geo.farms WHERE id = $1`,
  erf: `SELECT parcel_number, portion, suburb, town, ST_AsGeoJSON(geom, 7) AS geometry FROM geo.parcels WHERE id = $1`,
  parcel: `SELECT parcel_number, portion, suburb, town, ST_AsGeoJSON(geom, 7) AS geometry FROM geo.parcels WHERE id = $1`,
  postal: `SELECT pc.suburb, pc.town, coalesce(pc.street_code, pc.box_code) AS code,
                  ST_AsGeoJSON(coalesce(pl.geom, pc.point, pl.point), 7) AS geometry
           FROM geo.postal_codes pc LEFT JOIN geo.places pl ON pl.id = pc.place_id WHERE pc.id = $1`,
  place: `SELECT name, ST_AsGeoJSON(coalesce(geom, point), 7) AS geometry FROM geo.places WHERE id = $1`,
  // A street without a line is drawn as the points of its addresses.
  street: `SELECT s.name AS street, s.suburb, s.town,
                  ST_AsGeoJSON(coalesce(s.geom, (SELECT ST_Collect(a.point) FROM geo.addresses a WHERE a.street_id = s.id)), 7) AS geometry
           FROM geo.streets s WHERE s.id = $1`,
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each statement's own columns
function nameOf(type: FeatureType, row: any): string {
  switch (type) {
    case 'address':
      return formatAddress({
        houseNumber: row.house_number,
        street: row.street,
        unit: row.unit,
        estate: row.estate,
        suburb: row.suburb,
        town: row.town,
        postalCode: row.postal_code,
      });
    case 'farm':
      return farmTitle(row);
    case 'erf':
    case 'parcel':
      return [erfTitle(row), formatAddress({ suburb: row.suburb, town: row.town })]
        .filter(Boolean)
        .join(', ');
    case 'postal':
      return [formatAddress({ suburb: row.suburb, town: row.town }), row.code].filter(Boolean).join(', ');
    case 'street':
      return formatAddress({ street: row.street, suburb: row.suburb, town: row.town });
    default:
      return row.name;
  }
}

export async function featureGeometry(db: Queryable, rawId: string, rawType: string): Promise<NamedGeometry> {
  const type = readFeatureType(rawType);
  const id = readFeatureId(rawId);
  const [row] = await db.query(STATEMENTS[type], [id]);
  if (!row || !row.geometry) throw notFound(GEOJSON_TEXT.notFound(type, id));
  return { id, type, name: nameOf(type, row), geometry: JSON.parse(row.geometry) };
}
