import { literalUnion } from './common';
import { Type, type Static } from '@sinclair/typebox';

/**
 * The address service and imagery (spec 01 §7 "Address service" and "Imagery"), served by
 * services/locator over the geo schema. Ids are the database's bigints as strings; `type` says which table
 * an id belongs to, so (id, type) names any feature for POST /api/avs/geojson.
 */

export const AVS_API = {
  geocode: '/api/avs/geocode',
  search: '/api/avs/search',
  searchPostal: '/api/avs/searchPostal',
  reverse: '/api/avs/reverse',
  geojson: '/api/avs/geojson',
} as const;

export const IMAGERY_API = {
  imageUrl: '/api/idanImageUrl',
  smallImageUrl: '/api/idanSmallImageUrl',
  coverage: '/api/idanCoverage',
  pictometryProxy: '/api/pictometry/proxy',
  /** Where the built-in provider's rendered images are served from: `${images}${key}`. */
  images: '/api/imagery/images/',
} as const;

/** The vector tile layers (GET /api/v1.0/tiles/{layer}/{z}/{x}/{y}.mvt). */
export const TILE_LAYERS = ['places', 'roads', 'parcels', 'addresses'] as const;
export type TileLayer = (typeof TILE_LAYERS)[number];
export const TILES_API = {
  prefix: '/api/v1.0/tiles/',
  /** An OpenLayers/XYZ URL template. */
  template: (layer: TileLayer) => `/api/v1.0/tiles/${layer}/{z}/{x}/{y}.mvt`,
  tile: (layer: TileLayer, z: number, x: number, y: number) => `/api/v1.0/tiles/${layer}/${z}/${x}/${y}.mvt`,
  /**
   * The portal's own satellite view (512-pixel JPEG tiles, z 13–19; 204 below), an XYZ raster template.
   * Not a vector layer, so not in TILE_LAYERS.
   */
  satellite: '/api/v1.0/tiles/satellite/{z}/{x}/{y}.jpg',
} as const;

/** Longest query the search calls accept (characters), after trimming. */
export const MAX_QUERY_LENGTH = 200;

/**
 * A union of string literals typed as that union (a literal per value; mapping over the array alone would
 * lose the tuple and type the schema's values as never).
 */
/** What a result or a feature is: the table its id belongs to. */
export const FEATURE_TYPES = [
  'address',
  'poi',
  'farm',
  'erf',
  'postal',
  'place',
  'street',
  'parcel',
] as const;
export type FeatureType = (typeof FEATURE_TYPES)[number];
export const FeatureTypeSchema = literalUnion(FEATURE_TYPES);

/** The per-user options every address-service call carries (spec 01 §6: avsServiceUrl, includeIds, includeAll). */
export const AvsOptions = Type.Object({
  serviceUrl: Type.Optional(Type.String({ maxLength: 500 })),
  /** Answer the ids of the features (the popup's 'Get ID'). */
  includeIds: Type.Optional(Type.Boolean()),
  /** Answer every match (up to the page size) instead of the best few. */
  includeAll: Type.Optional(Type.Boolean()),
});
export type AvsOptions = Static<typeof AvsOptions>;

export const LatLng = Type.Object({ lat: Type.Number(), lng: Type.Number() });
export type LatLng = Static<typeof LatLng>;

/** A search result item (spec 01 §3): the address as one line, where it is, and what it is. */
export const SearchResultItem = Type.Object({
  id: Type.String(),
  type: FeatureTypeSchema,
  formatted_address: Type.String(),
  /** The address without suburb, town and code ("12 Church Street"), for lists on a parcel. */
  short_formatted_address: Type.Optional(Type.String()),
  location: LatLng,
  /** How well the item matches the query, 0..1; results come best first. */
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  /** The parcel the item lies on, when known (for an address or erf). */
  parcelId: Type.Optional(Type.String()),
  /**
   * The feature's stable key in its source ("source:source_id", or a parcel's SG key), which survives a
   * reload of the data where the database id does not; answered with includeIds (the popup's 'Get ID').
   */
  sourceKey: Type.Optional(Type.String()),
  suburb: Type.Optional(Type.String()),
  town: Type.Optional(Type.String()),
  postalCode: Type.Optional(Type.String()),
});
export type SearchResultItem = Static<typeof SearchResultItem>;

const Query = Type.String({ minLength: 1, maxLength: MAX_QUERY_LENGTH + ' South Africa'.length });

export const GeocodeInput = Type.Object({ address: Query, options: Type.Optional(AvsOptions) });
export type GeocodeInput = Static<typeof GeocodeInput>;

export const SearchFlags = Type.Object({
  address: Type.Optional(Type.Boolean()),
  poi: Type.Optional(Type.Boolean()),
  farm: Type.Optional(Type.Boolean()),
  erf: Type.Optional(Type.Boolean()),
  marker: Type.Optional(Type.Boolean()),
  postal: Type.Optional(Type.Boolean()),
});
export type SearchFlags = Static<typeof SearchFlags>;

export const SearchInput = Type.Object({
  query: Query,
  searchOptions: Type.Optional(SearchFlags),
  options: Type.Optional(AvsOptions),
});
export type SearchInput = Static<typeof SearchInput>;

export const SearchPostalInput = Type.Object({ query: Query, options: Type.Optional(AvsOptions) });
export type SearchPostalInput = Static<typeof SearchPostalInput>;

export const SearchAnswer = Type.Object({ success: Type.Boolean(), result: Type.Array(SearchResultItem) });
export type SearchAnswer = Static<typeof SearchAnswer>;

/** A GeoJSON geometry, as PostGIS writes it (ST_AsGeoJSON). */
export const GeometrySchema = Type.Object(
  { type: Type.String(), coordinates: Type.Optional(Type.Array(Type.Unknown())) },
  { additionalProperties: true },
);

/** A parcel (spec 01 §3): the addresses on it and its outline. */
export const Parcel = Type.Object({
  id: Type.String(),
  formatted_address: Type.String(),
  addresses: Type.Array(Type.Object({ id: Type.String(), short_formatted_address: Type.String() })),
  geometry: GeometrySchema,
  parcelNumber: Type.String(),
  portion: Type.Integer(),
  sgKey: Type.Union([Type.String(), Type.Null()]),
  parcelTypeId: Type.Integer(),
  dataQualityId: Type.Integer(),
});
export type Parcel = Static<typeof Parcel>;

/** The shape of an area (suburb, town, farm...), for marker and area searches. */
export const NamedGeometry = Type.Object({
  id: Type.String(),
  type: FeatureTypeSchema,
  name: Type.String(),
  geometry: GeometrySchema,
});
export type NamedGeometry = Static<typeof NamedGeometry>;

export const ReverseInput = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
  /** The wizard's search option (address, gps, farm, poi, marker); 'marker' also answers the area. */
  searchOption: Type.Optional(Type.String({ maxLength: 20 })),
  options: Type.Optional(AvsOptions),
});
export type ReverseInput = Static<typeof ReverseInput>;

export const ReverseAnswer = Type.Object({
  success: Type.Boolean(),
  result: Type.Object({
    /** The parcel containing the point, or null. */
    parcel: Type.Union([Parcel, Type.Null()]),
    /** The best address for the point: on the parcel, or the nearest one when the parcel has none. */
    address: Type.Union([SearchResultItem, Type.Null()]),
    /** How far the address is from the point, in metres. */
    distance: Type.Union([Type.Number(), Type.Null()]),
    /** The suburb or town around the point (marker searches). */
    area: Type.Union([NamedGeometry, Type.Null()]),
  }),
});
export type ReverseAnswer = Static<typeof ReverseAnswer>;

export const GeoJsonInput = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 40 }),
  type: Type.String({ minLength: 1, maxLength: 20 }),
  options: Type.Optional(AvsOptions),
});
export type GeoJsonInput = Static<typeof GeoJsonInput>;

export const GeoJsonAnswer = Type.Object({ success: Type.Boolean(), result: NamedGeometry });
export type GeoJsonAnswer = Static<typeof GeoJsonAnswer>;

/** Imagery orientations (spec 01 §9): north, west, south, east oblique and ortho. */
export const ORIENTATIONS = ['n', 'w', 's', 'e', 'o'] as const;
export type Orientation = (typeof ORIENTATIONS)[number];

/**
 * How an oblique picture was taken, so a height can be read off it: the camera looks from `bearingDegrees`
 * (where it stands, seen from the location) down at `tiltDegrees`; the ground across the picture's width is
 * `metresAcross`. A vertical edge of h metres spans h × pixelsPerMetre × cos(tilt) pixels upright.
 */
export const ObliqueCamera = Type.Object({
  orientation: literalUnion(ORIENTATIONS),
  width: Type.Integer({ minimum: 1, maximum: 20_000 }),
  height: Type.Integer({ minimum: 1, maximum: 20_000 }),
  metresAcross: Type.Number({ exclusiveMinimum: 0, maximum: 100_000 }),
  tiltDegrees: Type.Number({ exclusiveMinimum: 0, maximum: 90 }),
  bearingDegrees: Type.Number({ minimum: 0, maximum: 360 }),
});
export type ObliqueCamera = Static<typeof ObliqueCamera>;

export const ImageUrlQuery = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
  orientation: literalUnion(ORIENTATIONS),
  /** Issue 21: the survey to show (GET /api/imagery/surveys lists them); the newest at the point without. */
  survey: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
});
export type ImageUrlQuery = Static<typeof ImageUrlQuery>;

export const ImageUrlAnswer = Type.Object({
  success: Type.Boolean(),
  url: Type.Union([Type.String(), Type.Null()]),
  /** Issue 21: the capture date of the survey the picture comes from (null when there is no picture). */
  capturedOn: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  surveyId: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  /** The camera the picture was taken with (obliques: heights can be read off it). */
  camera: Type.Optional(Type.Union([ObliqueCamera, Type.Null()])),
});
export type ImageUrlAnswer = Static<typeof ImageUrlAnswer>;

export const CoverageQuery = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
});
export type CoverageQuery = Static<typeof CoverageQuery>;

/** Coverage (spec 01 §3): covered = high-resolution oblique + ortho; ortho = ortho only. */
export const CoverageAnswer = Type.Object({
  success: Type.Boolean(),
  covered: Type.Boolean(),
  ortho: Type.Boolean(),
  /** Issue 21: the capture date of the newest survey at the point (null outside coverage). */
  capturedOn: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type CoverageAnswer = Static<typeof CoverageAnswer>;
