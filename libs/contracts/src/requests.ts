import { literalUnion, nullable } from './common';
import { MAX_MEASUREMENTS_ON_CREATION, MeasurementInput } from './measurements';
import { Type, type Static } from '@sinclair/typebox';

/**
 * Requests (spec 01 §3 "Request form", §7 "Request creation"; spec 02 §3; spec 03 §3, §7), served by
 * services/requests over the `requests` schema. The request tool, the can't-locate screen and IRiS create
 * them with PUT /api/v1.0/request/; the mapping service (/spatialkey) reads them as points.
 */

export const REQUEST_API = {
  /** PUT: creates a request from the request form; answers the plain string 'created'. */
  create: '/api/v1.0/request/',
  /** GET: one request, for its owner or staff (admin, saviOperator, saviQC). */
  any: (id: string) => `/api/v1.0/request/${encodeURIComponent(id)}/any`,
  /** GET: the caller's requests (staff: everyone's) as light points inside a box, for the mapping service. */
  map: '/api/v1.0/request/map',
} as const;

/**
 * The request routes as services/requests registers them (Fastify's `:param` spelling). These are the keys
 * libs/domain/src/routeAccess.ts looks a route up by, so a path here changes only with its entry there; the
 * screens build their URLs with REQUEST_API.
 */
export const REQUEST_ROUTES = {
  create: REQUEST_API.create,
  any: '/api/v1.0/request/:id/any',
  map: REQUEST_API.map,
} as const;

/** The reply of a successful creation (spec 01 §4: "A reply other than 'created' is only logged"). */
export const REQUEST_CREATED = 'created';

/**
 * Headers of the creation reply: Location is the new request's GET …/any path; X-Grip-Reference its GRiP
 * reference, so the finished state can show it. Idempotency-Key is read from the creating call.
 */
export const REQUEST_HEADERS = {
  location: 'location',
  gripReference: 'x-grip-reference',
  idempotencyKey: 'idempotency-key',
} as const;

/**
 * Redis pub/sub channel on which services/requests announces each new request (after its commit), under
 * the portal's prefix (BaseConfig.redisPrefix): two portals sharing a Redis never hear each other.
 */
export const requestCreatedChannel = (redisPrefix: string) => `${redisPrefix}:request-created`;

/** Spec 03 §3: IRIS, SAVI or AVS. */
export const REQUEST_TYPES = ['SAVI', 'AVS', 'IRIS'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

/**
 * Spec 01 §1 and spec 03 §3. 'Report' is the earlier locator reading's default subtype; the request tool
 * uses the other three.
 */
export const REQUEST_SUBTYPE = {
  replacementValueEstimate: 'Replacement Value Estimate',
  buildingSizeCalculation: 'Building Size Calculation',
  cantLocate: "Can't Locate",
  report: 'Report',
} as const;
export const REQUEST_SUBTYPES = Object.values(REQUEST_SUBTYPE);
export type RequestSubType = (typeof REQUEST_SUBTYPE)[keyof typeof REQUEST_SUBTYPE];

/**
 * Which subtypes each type takes (null: none). A SAVI request without a subtype is a 'Report' (spec 01
 * §9); can't-locate is SAVI's from the request tool and AVS's from the can't-locate screen (spec 03 §7).
 */
export const REQUEST_SUBTYPES_BY_TYPE: Record<RequestType, readonly (RequestSubType | null)[]> = {
  SAVI: [
    REQUEST_SUBTYPE.replacementValueEstimate,
    REQUEST_SUBTYPE.buildingSizeCalculation,
    REQUEST_SUBTYPE.cantLocate,
    REQUEST_SUBTYPE.report,
  ],
  AVS: [REQUEST_SUBTYPE.cantLocate, null],
  IRIS: [null],
};

/** Spec 02 §4.1, in workflow order; a request starts as 'New'. */
export const REQUEST_STATUSES = [
  'New',
  'Ready for QS',
  'In progress',
  'Pending',
  'Cancelled_rejected',
  'QC check',
  'Query',
  'Dispatch',
  'Delivered',
  'Finalised',
] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/**
 * The wizard's search options (spec 01 §2), the earlier reading's postal search, the erf search, and
 * 'cantlocate' for a Can't Locate request made without a search option.
 */
export const REQUEST_MODES = [
  'address',
  'gps',
  'farm',
  'poi',
  'marker',
  'postal',
  'erf',
  'cantlocate',
] as const;
export type RequestMode = (typeof REQUEST_MODES)[number];

/** A union of string literals typed as that union. */
/**
 * A schema or null, null tried first: the services' AJV coerces types, and tried after a string schema
 * null would become ''.
 */

export const RequestTypeSchema = literalUnion(REQUEST_TYPES);
export const RequestSubTypeSchema = literalUnion(REQUEST_SUBTYPES);
export const RequestStatusSchema = literalUnion(REQUEST_STATUSES);

const Text = (maxLength: number) => Type.String({ maxLength });
const Url = Type.String({ maxLength: 2000 });

export const RequestLatLng = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
});
export type RequestLatLng = Static<typeof RequestLatLng>;

/** An address as the result list has it (spec 01 §3 search result item); extra properties are kept. */
export const RequestAddress = Type.Object(
  {
    formatted_address: Text(500),
    short_formatted_address: Type.Optional(Text(500)),
    id: Type.Optional(Text(64)),
    type: Type.Optional(Text(20)),
    location: Type.Optional(RequestLatLng),
  },
  { additionalProperties: true },
);
export type RequestAddress = Static<typeof RequestAddress>;

/** Selected_Address / Alternative_Addresses items: the address line alone, or the result item. */
export const RequestAddressValue = Type.Union([Text(500), RequestAddress]);
export type RequestAddressValue = Static<typeof RequestAddressValue>;

/** spec 03 §3 `selected`: the chosen address broken into its parts (codes are 4 digits, zero-padded). */
export const RequestSelected = Type.Object({
  formatted_address: Type.Optional(Text(500)),
  suburb: Type.Optional(Text(200)),
  town: Type.Optional(Text(200)),
  no: Type.Optional(Text(40)),
  name: Type.Optional(Text(200)),
  streetcode: Type.Optional(Text(10)),
  boxcode: Type.Optional(Text(10)),
});
export type RequestSelected = Static<typeof RequestSelected>;

/** A GeoJSON object (geometry, feature or collection): checked for its type, kept as sent. */
export const RequestGeoJson = Type.Object(
  {
    type: Text(40),
    coordinates: Type.Optional(Type.Array(Type.Unknown())),
    geometry: Type.Optional(Type.Unknown()),
    features: Type.Optional(Type.Array(Type.Unknown())),
  },
  { additionalProperties: true },
);

/** The parcel of spec 01 §3; `geometry` is a Polygon or MultiPolygon in EPSG:4326. */
export const RequestParcel = Type.Object(
  {
    id: Text(64),
    formatted_address: Type.Optional(Text(500)),
    addresses: Type.Optional(
      Type.Array(Type.Object({ id: Text(64), short_formatted_address: Text(500) }), { maxItems: 1000 }),
    ),
    geometry: Type.Optional(nullable(RequestGeoJson)),
  },
  { additionalProperties: true },
);
export type RequestParcel = Static<typeof RequestParcel>;

/** Imagery URL set (spec 01 §3): n, e, s, w obliques and o (ortho); null where an orientation failed. */
export const RequestImageUrls = Type.Object({
  n: Type.Optional(nullable(Url)),
  e: Type.Optional(nullable(Url)),
  s: Type.Optional(nullable(Url)),
  w: Type.Optional(nullable(Url)),
  o: Type.Optional(nullable(Url)),
});
export type RequestImageUrls = Static<typeof RequestImageUrls>;

/** The map's view when the request was made ("map (centre)"). */
export const RequestMapView = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
  zoom: Type.Optional(Type.Number({ minimum: 0, maximum: 30 })),
});
export type RequestMapView = Static<typeof RequestMapView>;

/** Longest reference value the form may send (characters). */
export const MAX_REFERENCE_LENGTH = 200;

/**
 * The request form (spec 01 §3), as PUT /api/v1.0/request/ takes it. Field names are the spec's.
 * - `coordinates` is required unless the subtype is Can't Locate, and must lie in South Africa. A Can't
 *   Locate request needs something that says where: coordinates, Searched_For, query, an address or
 *   comments.
 * - `reference` is a map keyed by the group's reference keys (index 1 of each entry); a plain text
 *   is taken as the value of the first visible reference.
 * - `idempotencyKey` (or the Idempotency-Key header, which wins): one key per submission; a retry with
 *   the same key by the same user answers 'created' again and writes nothing.
 */
export const RequestForm = Type.Object({
  requestType: RequestTypeSchema,
  requestSubType: Type.Optional(nullable(RequestSubTypeSchema)),
  Searched_For: Type.Optional(Text(500)),
  mode: Type.Optional(nullable(literalUnion(REQUEST_MODES))),
  Selected_Address: Type.Optional(nullable(RequestAddressValue)),
  Alternative_Addresses: Type.Optional(Type.Array(RequestAddressValue, { maxItems: 200 })),
  coordinates: Type.Optional(nullable(RequestLatLng)),
  /** [lat, lng]. */
  coordinateArray: Type.Optional(nullable(Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }))),
  cantlocate: Type.Optional(Type.Boolean()),
  geojson: Type.Optional(nullable(RequestGeoJson)),
  map: Type.Optional(nullable(RequestMapView)),
  reference: Type.Optional(
    Type.Union([
      Text(MAX_REFERENCE_LENGTH),
      Type.Record(Type.String({ maxLength: 100 }), Text(MAX_REFERENCE_LENGTH), { maxProperties: 50 }),
    ]),
  ),
  referenceString: Type.Optional(Text(4000)),
  /** Comments ("additional"); `comments` is the locator's internal name for the same text. */
  additional: Type.Optional(Text(4000)),
  comments: Type.Optional(Text(4000)),
  /** The tool's own name for what was requested (kept as sent). */
  type: Type.Optional(Text(60)),
  needsUpdate: Type.Optional(Type.Boolean()),
  selected: Type.Optional(nullable(RequestSelected)),
  parcel: Type.Optional(nullable(RequestParcel)),
  /** The query as typed (upper-cased by the locator); the address to validate for an AVS request. */
  query: Type.Optional(Text(500)),
  usedIdan: Type.Optional(Type.Boolean()),
  imageUrls: Type.Optional(nullable(RequestImageUrls)),
  idempotencyKey: Type.Optional(Type.String({ minLength: 8, maxLength: 200 })),
  /** Measurements the requester made in /savi before logging (issue 21): saved with the request, in its transaction. */
  measurements: Type.Optional(Type.Array(MeasurementInput, { maxItems: MAX_MEASUREMENTS_ON_CREATION })),
});
export type RequestForm = Static<typeof RequestForm>;

/** The creation reply: the plain string 'created' (text/plain). */
export const RequestCreatedAnswer = Type.Literal(REQUEST_CREATED);

export const RequestPerson = Type.Object({
  id: nullable(Type.String()),
  name: Type.String(),
  email: Type.String(),
});
export const RequestGroup = Type.Object({
  id: nullable(Type.String()),
  name: Type.String(),
  code: Type.String(),
});

/**
 * A request as GET /api/v1.0/request/{id}/any answers it: the form's fields under their spec names, and
 * what the server keeps (spec 02 §3, spec 03 §3). `_reportId` and `reportPdfUrl` are what the request
 * list reads for downloads.
 */
export const RequestRecord = Type.Object({
  _id: Type.String(),
  gripReference: Type.String(),
  requestType: RequestTypeSchema,
  requestSubType: nullable(RequestSubTypeSchema),
  status: RequestStatusSchema,
  created: Type.String({ format: 'date-time' }),
  user: RequestPerson,
  group: nullable(RequestGroup),
  forGroup: nullable(Type.String()),
  Searched_For: nullable(Type.String()),
  mode: nullable(Type.String()),
  Selected_Address: nullable(RequestAddressValue),
  Alternative_Addresses: Type.Array(RequestAddressValue),
  coordinates: nullable(RequestLatLng),
  coordinateArray: nullable(Type.Array(Type.Number())),
  cantlocate: Type.Boolean(),
  geojson: nullable(RequestGeoJson),
  map: nullable(RequestMapView),
  reference: Type.Record(Type.String(), Type.String()),
  referenceString: Type.String(),
  additional: Type.String(),
  type: nullable(Type.String()),
  needsUpdate: Type.Boolean(),
  selected: nullable(RequestSelected),
  parcel: nullable(RequestParcel),
  query: nullable(Type.String()),
  usedIdan: Type.Boolean(),
  imageUrls: nullable(RequestImageUrls),
  priority: Type.Boolean(),
  reportPdfUrl: nullable(Type.String()),
  _reportId: nullable(Type.String()),
  dateFinalised: nullable(Type.String({ format: 'date-time' })),
  RVETotal: nullable(Type.Number()),
  propertyType: nullable(Type.String()),
  // Spec 02 §3 "Server fields read for a request" (issue 22; optional: older clients do without them).
  /** The requester's email. */
  email: Type.Optional(Type.String()),
  /** The first QS's name (who saved the QS checklist or started the report), or null. */
  firstUser: Type.Optional(nullable(Type.String())),
  reportInvoiceNumber: Type.Optional(nullable(Type.String())),
  reportDisputed: Type.Optional(Type.Boolean()),
  reportPdfDownloaded: Type.Optional(Type.Boolean()),
  /** The unit price (rand per building, the QC checklist's `price`); the report fee is buildings × price. */
  price: Type.Optional(nullable(Type.Number())),
  /** The request's point as GeoJSON ([lng, lat]), or null when it has none. */
  location: Type.Optional(
    nullable(
      Type.Object({
        type: Type.Literal('Point'),
        coordinates: Type.Tuple([Type.Number(), Type.Number()]),
      }),
    ),
  ),
});
export type RequestRecord = Static<typeof RequestRecord>;

/** Most points GET /api/v1.0/request/map answers (the default is all of them up to this). */
export const REQUEST_MAP_MAX_LIMIT = 5000;

/**
 * GET /api/v1.0/request/map: requests inside the box west/south/east/north (all four or none), by status
 * and type (comma-separated lists), created from `from` to `to` (ISO dates or date-times; a date alone
 * covers its whole South African day), newest first, at most `limit`.
 */
export const RequestMapQuery = Type.Object({
  west: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
  south: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
  east: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
  north: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
  status: Type.Optional(Type.String({ maxLength: 400 })),
  type: Type.Optional(Type.String({ maxLength: 100 })),
  from: Type.Optional(Type.String({ maxLength: 40 })),
  to: Type.Optional(Type.String({ maxLength: 40 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: REQUEST_MAP_MAX_LIMIT })),
});
export type RequestMapQuery = Static<typeof RequestMapQuery>;

export const RequestMapPoint = Type.Object({
  id: Type.String(),
  gripReference: Type.String(),
  requestType: RequestTypeSchema,
  requestSubType: nullable(RequestSubTypeSchema),
  status: RequestStatusSchema,
  created: Type.String({ format: 'date-time' }),
  address: Type.String(),
  lat: Type.Number(),
  lng: Type.Number(),
});
export type RequestMapPoint = Static<typeof RequestMapPoint>;

export const RequestMapAnswer = Type.Object({
  /** How many requests match (all of them, not only those answered). */
  total: Type.Integer(),
  /** True when `total` is more than the points answered. */
  truncated: Type.Boolean(),
  points: Type.Array(RequestMapPoint),
});
export type RequestMapAnswer = Static<typeof RequestMapAnswer>;

/** The payload published on requestCreatedChannel (JSON). */
export interface RequestCreatedEvent {
  id: string;
  gripReference: string;
  requestType: RequestType;
  requestSubType: RequestSubType | null;
  status: RequestStatus;
  userId: string;
  groupId: string | null;
  /** ISO 8601. */
  createdAt: string;
}
