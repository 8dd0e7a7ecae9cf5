import { Type, type Static } from '@sinclair/typebox';

/**
 * The portal opened to GIS tools (issue 23): TileJSON 3.0.0 for each vector tile layer, and OGC API –
 * Features Part 1 (Core, GeoJSON) at /ogc, both served by the locator. docs/gis.md shows QGIS and GDAL
 * reading them.
 */

export const OGC_API = {
  landing: '/ogc',
  conformance: '/ogc/conformance',
  collections: '/ogc/collections',
  collection: (id: string) => `/ogc/collections/${id}`,
  items: (id: string) => `/ogc/collections/${id}/items`,
  item: (id: string, featureId: string) => `/ogc/collections/${id}/items/${featureId}`,
} as const;

/** The collections every signed-in caller (or key holding spatialkey) sees. */
export const OGC_COLLECTIONS = ['parcels', 'addresses', 'buildings', 'surveys'] as const;
/** The collections only the operations team (admin, SAVi operator, SAVi QC) sees: to others they do not exist. */
export const OGC_STAFF_COLLECTIONS = ['requests'] as const;
export type OgcCollectionId = (typeof OGC_COLLECTIONS)[number] | (typeof OGC_STAFF_COLLECTIONS)[number];

/** Items per page when `limit` is absent, and the most a page holds (a larger `limit` is clamped). */
export const OGC_DEFAULT_LIMIT = 100;
export const OGC_MAX_LIMIT = 1000;

export const OGC_CONFORMANCE = [
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30',
] as const;

export const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';

export const OgcLink = Type.Object({
  href: Type.String(),
  rel: Type.String(),
  type: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
});
export type OgcLink = Static<typeof OgcLink>;

export const OgcLanding = Type.Object({
  title: Type.String(),
  description: Type.String(),
  links: Type.Array(OgcLink),
});
export type OgcLanding = Static<typeof OgcLanding>;

export const OgcConformance = Type.Object({ conformsTo: Type.Array(Type.String()) });
export type OgcConformance = Static<typeof OgcConformance>;

export const OgcCollection = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  itemType: Type.Literal('feature'),
  crs: Type.Array(Type.String()),
  extent: Type.Object({
    spatial: Type.Object({
      bbox: Type.Array(Type.Array(Type.Number(), { minItems: 4, maxItems: 4 })),
      crs: Type.String(),
    }),
    temporal: Type.Optional(
      Type.Object({
        interval: Type.Array(
          Type.Array(Type.Union([Type.String(), Type.Null()]), { minItems: 2, maxItems: 2 }),
        ),
        trs: Type.String(),
      }),
    ),
  }),
  links: Type.Array(OgcLink),
});
export type OgcCollection = Static<typeof OgcCollection>;

export const OgcCollections = Type.Object({
  links: Type.Array(OgcLink),
  collections: Type.Array(OgcCollection),
});
export type OgcCollections = Static<typeof OgcCollections>;

const GeoJsonGeometry = Type.Unknown({ description: 'A GeoJSON geometry (WGS 84 longitude, latitude).' });

export const OgcFeature = Type.Object({
  type: Type.Literal('Feature'),
  id: Type.String(),
  geometry: GeoJsonGeometry,
  properties: Type.Record(Type.String(), Type.Unknown()),
  links: Type.Optional(Type.Array(OgcLink)),
});
export type OgcFeature = Static<typeof OgcFeature>;

export const OgcFeatureCollection = Type.Object({
  type: Type.Literal('FeatureCollection'),
  features: Type.Array(OgcFeature),
  links: Type.Array(OgcLink),
  timeStamp: Type.String(),
  numberReturned: Type.Integer(),
  numberMatched: Type.Optional(Type.Integer()),
});
export type OgcFeatureCollection = Static<typeof OgcFeatureCollection>;

export const OgcCollectionParams = Type.Object({ collectionId: Type.String({ maxLength: 40 }) });
export const OgcItemParams = Type.Object({
  collectionId: Type.String({ maxLength: 40 }),
  featureId: Type.String({ maxLength: 40 }),
});

/** `f=json` is the only encoding (GeoJSON for features); other values are refused. */
export const OgcFormatQuery = Type.Object({ f: Type.Optional(Type.String({ maxLength: 20 })) });

export const OgcItemsQuery = Type.Object({
  f: Type.Optional(Type.String({ maxLength: 20 })),
  bbox: Type.Optional(
    Type.String({ maxLength: 200, description: 'west,south,east,north in degrees (CRS84).' }),
  ),
  limit: Type.Optional(
    Type.String({
      maxLength: 12,
      description: 'Items per page, 1 to 1000 (larger is clamped); 100 by default.',
    }),
  ),
  offset: Type.Optional(
    Type.String({ maxLength: 12, description: 'Items to skip (the next link sets it).' }),
  ),
  datetime: Type.Optional(
    Type.String({
      maxLength: 60,
      description:
        'An RFC 3339 date or date-time, or an interval a/b with `..` for an open end (dated collections).',
    }),
  ),
});
export type OgcItemsQuery = Static<typeof OgcItemsQuery>;

/** TileJSON 3.0.0 (https://github.com/mapbox/tilejson-spec/tree/master/3.0.0) of one vector tile layer. */
export const TileJson = Type.Object({
  tilejson: Type.Literal('3.0.0'),
  name: Type.String(),
  description: Type.String(),
  attribution: Type.String(),
  scheme: Type.Literal('xyz'),
  tiles: Type.Array(Type.String()),
  minzoom: Type.Integer(),
  maxzoom: Type.Integer(),
  bounds: Type.Array(Type.Number(), { minItems: 4, maxItems: 4 }),
  center: Type.Array(Type.Number(), { minItems: 3, maxItems: 3 }),
  vector_layers: Type.Array(
    Type.Object({
      id: Type.String(),
      description: Type.String(),
      minzoom: Type.Integer(),
      maxzoom: Type.Integer(),
      fields: Type.Record(Type.String(), Type.String()),
    }),
  ),
});
export type TileJson = Static<typeof TileJson>;
