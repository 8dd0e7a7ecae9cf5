import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { literalUnion } from './common';
import { GeometrySchema, LatLng } from './geo';

/**
 * The address editor ('AVS Address Editor', spec 03 §2, §3, §5, §7; issue 14), served by
 * services/avs-editor over the geo schema that services/locator reads, so an edit is found by the address
 * service at once. The §7 calls keep the spec's paths; the popup's calls (not shown in the spec) are ours
 * (docs/decisions.md "Address editor"). Ids are the database's bigints as strings, as in the locator.
 */

const EDITOR = '/api/v1.0/addresseditor';
const ADD = '/api/v1.0/addaddress';
const coordinate = (value: number) => encodeURIComponent(String(value));

export const AVS_EDITOR_API = {
  /** Spec 03 §7: voronoiData, parcelData, addressData and poiData around a point, each with data.features. */
  displayData: (lat: number, lng: number) => `${EDITOR}/display_data/${coordinate(lat)}/${coordinate(lng)}`,
  /** Spec 03 §7: take the next parcel with more than one address (held for the caller). */
  multiParcel: `${EDITOR}/multi_parcel`,
  /** Spec 03 §7: take the next parcel to validate (validators only: the e-mail prefix rule). */
  dequeueValidateParcel: `${EDITOR}/dequeue_validate_parcel`,
  /** Spec 03 §7: the address editor data of a point (the parcel under it, roads, area, addresses, POIs). */
  pointData: (lat: number, lng: number) => `${ADD}/get_point_data/${coordinate(lat)}/${coordinate(lng)}`,
  /** Spec 03 §7: take the next parcel without an address. */
  noAddressParcel: `${ADD}/no_address_parcel`,

  // Ours (the spec does not show them): the popup's actions, the can't-locate queue, holds, settings.
  settings: `${EDITOR}/settings`,
  /** Take the next can't-locate request (AVS, subtype Can't Locate) waiting to be resolved. */
  cantLocate: `${EDITOR}/cant_locate`,
  resolveCantLocate: (requestId: string) => `${EDITOR}/cant_locate/${encodeURIComponent(requestId)}/resolve`,
  /** Give back a held parcel or request (the next operator may take it at once). */
  release: `${EDITOR}/release`,
  addAddress: `${ADD}/address`,
  addPoi: `${ADD}/poi`,
  official: (addressId: string) => `${EDITOR}/address/${encodeURIComponent(addressId)}/official`,
  accept: (addressId: string) => `${EDITOR}/address/${encodeURIComponent(addressId)}/accept`,
  reject: (addressId: string) => `${EDITOR}/address/${encodeURIComponent(addressId)}/reject`,
  investigate: (parcelId: string) => `${EDITOR}/parcel/${encodeURIComponent(parcelId)}/investigate`,
  unaddressable: (parcelId: string) => `${EDITOR}/parcel/${encodeURIComponent(parcelId)}/unaddressable`,
  validateParcel: (parcelId: string) => `${EDITOR}/parcel/${encodeURIComponent(parcelId)}/validate`,
  /** The operator is done with a multi-address parcel: it leaves that queue. */
  reviewed: (parcelId: string) => `${EDITOR}/parcel/${encodeURIComponent(parcelId)}/reviewed`,
  detachPoi: (poiId: string) => `${EDITOR}/poi/${encodeURIComponent(poiId)}/detach`,
  /** The audit trail of a parcel and what is on it, newest first. */
  edits: (parcelId: string) => `${EDITOR}/parcel/${encodeURIComponent(parcelId)}/edits`,
} as const;

/** The gateway's prefixes for the service (config/services.json). */
export const AVS_EDITOR_PREFIXES = [`${EDITOR}/`, `${ADD}/`] as const;

/** Spec 03 §9: the address editor's map zoom. */
export const AVS_EDITOR_ZOOM = 18;

/** Spec 03 §3: POI types — 10000 address POI, 10500 estate POI, 11000 unit in estate. */
export const POI_TYPES = { address: 10000, estate: 10500, unit: 11000 } as const;
export const POI_TYPE_VALUES = [POI_TYPES.address, POI_TYPES.estate, POI_TYPES.unit] as const;
export type PoiType = (typeof POI_TYPE_VALUES)[number];

/** Spec 03 §5: the address quality options. */
export const ADDRESS_QUALITY_CODES = ['CNF', 'EST', 'DDS', 'VR', 'SV'] as const;
export type AddressQualityCode = (typeof ADDRESS_QUALITY_CODES)[number];

/**
 * Request-side schemas of the two code lists, spelled out: the route type provider reads a plain union of
 * literals (a literalUnion would reach the handlers as unknown).
 */
const QualityCodeSchema = Type.Union([
  Type.Literal('CNF'),
  Type.Literal('EST'),
  Type.Literal('DDS'),
  Type.Literal('VR'),
  Type.Literal('SV'),
]);
const PoiTypeSchema = Type.Union([Type.Literal(10000), Type.Literal(10500), Type.Literal(11000)]);

const Id = Type.String({ minLength: 1, maxLength: 20, pattern: '^[0-9]+$' });
const Uuid = Type.String({
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
});
const Version = Type.Integer({ minimum: 1 });
const Lat = Type.Number({ minimum: -90, maximum: 90 });
const Lng = Type.Number({ minimum: -180, maximum: 180 });

/** Path parameters of display_data and get_point_data: decimal degrees. */
export const EditorPointParams = Type.Object({ lat: Lat, lng: Lng });
export type EditorPointParams = Static<typeof EditorPointParams>;
export const EditorIdParams = Type.Object({ id: Id });
export type EditorIdParams = Static<typeof EditorIdParams>;
export const EditorRequestParams = Type.Object({ id: Uuid });
export type EditorRequestParams = Static<typeof EditorRequestParams>;

/** Who changed a feature last, and when (spec 03 §3 editedBy). */
const Edited = {
  editedBy: Type.Union([Type.String(), Type.Null()]),
  editedAt: Type.Union([Type.String(), Type.Null()]),
};

/** An address as the editor shows it (addressData's feature properties; get_point_data's addresses). */
export const EditorAddress = Type.Object({
  addressId: Type.String(),
  houseNumber: Type.String(),
  streetId: Type.Union([Type.String(), Type.Null()]),
  streetName: Type.String(),
  unit: Type.Union([Type.String(), Type.Null()]),
  estate: Type.Union([Type.String(), Type.Null()]),
  suburb: Type.String(),
  town: Type.String(),
  /** The street code, 4 digits (spec 03 §5), or '' when unknown. */
  streetCode: Type.String(),
  formattedAddress: Type.String(),
  quality: Type.Integer(),
  qualityCode: literalUnion(ADDRESS_QUALITY_CODES),
  /** OFA: the municipality's official address. */
  official: Type.Boolean(),
  /** The operator's verdict: accepted, rejected, or not reviewed (null). */
  review: Type.Union([Type.Literal('accepted'), Type.Literal('rejected'), Type.Null()]),
  parcelId: Type.Union([Type.String(), Type.Null()]),
  lat: Type.Number(),
  lng: Type.Number(),
  version: Type.Integer(),
  ...Edited,
});
export type EditorAddress = Static<typeof EditorAddress>;

export const EditorPoi = Type.Object({
  poiId: Type.String(),
  name: Type.String(),
  poiType: literalUnion(POI_TYPE_VALUES),
  category: Type.String(),
  addressId: Type.Union([Type.String(), Type.Null()]),
  parentId: Type.Union([Type.String(), Type.Null()]),
  parcelId: Type.Union([Type.String(), Type.Null()]),
  lat: Type.Number(),
  lng: Type.Number(),
  version: Type.Integer(),
  ...Edited,
});
export type EditorPoi = Static<typeof EditorPoi>;

export const EditorParcel = Type.Object({
  parcelId: Type.String(),
  parcelNo: Type.String(),
  portionNo: Type.Integer(),
  parcelTypeId: Type.Integer(),
  dataQualityId: Type.Integer(),
  sgKey: Type.Union([Type.String(), Type.Null()]),
  suburb: Type.String(),
  town: Type.String(),
  addressCount: Type.Integer(),
  reviewed: Type.Boolean(),
  /** Who holds the parcel now (another operator's hold refuses edits), with the hold's end. */
  heldBy: Type.Union([Type.String(), Type.Null()]),
  heldUntil: Type.Union([Type.String(), Type.Null()]),
  version: Type.Integer(),
  ...Edited,
});
export type EditorParcel = Static<typeof EditorParcel>;

const Feature = <P extends TSchema>(properties: P) =>
  Type.Object({
    type: Type.Literal('Feature'),
    id: Type.String(),
    geometry: GeometrySchema,
    properties,
  });
const Collection = <F extends TSchema>(feature: F) =>
  Type.Object({
    data: Type.Object({ type: Type.Literal('FeatureCollection'), features: Type.Array(feature) }),
  });

export const ParcelFeature = Feature(Type.Object({ ...EditorParcel.properties, selected: Type.Boolean() }));
export type ParcelFeature = Static<typeof ParcelFeature>;
/** One area per address point of a parcel (addresses at the same point share it), clipped to the parcel. */
export const VoronoiFeature = Feature(
  Type.Object({ parcelId: Type.String(), addressIds: Type.Array(Type.String()) }),
);
export type VoronoiFeature = Static<typeof VoronoiFeature>;
export const AddressFeature = Feature(EditorAddress);
export type AddressFeature = Static<typeof AddressFeature>;
export const PoiFeature = Feature(EditorPoi);
export type PoiFeature = Static<typeof PoiFeature>;

/** GET display_data/{lat}/{lng} (spec 03 §7). */
export const DisplayDataAnswer = Type.Object({
  success: Type.Boolean(),
  /** The parcel under the point (null: none), the one the map centres on. */
  parcelId: Type.Union([Type.String(), Type.Null()]),
  voronoiData: Collection(VoronoiFeature),
  parcelData: Collection(ParcelFeature),
  addressData: Collection(AddressFeature),
  poiData: Collection(PoiFeature),
});
export type DisplayDataAnswer = Static<typeof DisplayDataAnswer>;

/** A road near the point (spec 03 §3 closestRoads): the nearest is `closest`. */
export const ClosestRoad = Type.Object({
  roadId: Type.String(),
  roadNameEng: Type.String(),
  closest: Type.Boolean(),
  /** Metres from the point. */
  distance: Type.Number(),
  suburb: Type.String(),
  town: Type.String(),
});
export type ClosestRoad = Static<typeof ClosestRoad>;

/** Spec 03 §3 "Address editor data": what the editor knows of a point. */
export const AddressEditorData = Type.Object({
  parcelId: Type.Union([Type.String(), Type.Null()]),
  parcelNo: Type.Union([Type.String(), Type.Null()]),
  portionNo: Type.Union([Type.Integer(), Type.Null()]),
  parcelTypeId: Type.Union([Type.Integer(), Type.Null()]),
  dataQualityId: Type.Union([Type.Integer(), Type.Null()]),
  /** The parcel's version: edits of the parcel send it back (optimistic concurrency). */
  parcelVersion: Type.Union([Type.Integer(), Type.Null()]),
  parcel: Type.Union([EditorParcel, Type.Null()]),
  /** The nearest road's name ('' when none is near). */
  road: Type.String(),
  closestRoads: Type.Array(ClosestRoad),
  suburb: Type.String(),
  town: Type.String(),
  municipality: Type.String(),
  district: Type.String(),
  /** The suburb's codes, 4 digits (spec 03 §5), or '' when unknown. */
  streetCode: Type.String(),
  boxCode: Type.String(),
  editedBy: Type.Union([Type.String(), Type.Null()]),
  lat: Type.Number(),
  lng: Type.Number(),
  /** The parcel's centre (a point inside it), or the point when there is no parcel. */
  centre: LatLng,
  addresses: Type.Array(EditorAddress),
  pois: Type.Array(EditorPoi),
});
export type AddressEditorData = Static<typeof AddressEditorData>;

export const PointDataAnswer = Type.Object({ success: Type.Boolean(), data: AddressEditorData });
export type PointDataAnswer = Static<typeof PointDataAnswer>;

/** A queue's `remaining` is counted up to this (a count of tens of thousands would cost each dequeue). */
export const QUEUE_COUNT_LIMIT = 1000;

/** A parcel taken from a queue, held for the caller until `heldUntil`. */
export const QueuedParcel = Type.Object({
  parcelId: Type.String(),
  version: Type.Integer(),
  lat: Type.Number(),
  lng: Type.Number(),
  heldUntil: Type.String(),
});
export type QueuedParcel = Static<typeof QueuedParcel>;

/** What a parcel queue answers: the parcel taken, or null when the queue is empty. */
export const DequeueParcelAnswer = Type.Object({
  success: Type.Boolean(),
  parcel: Type.Union([QueuedParcel, Type.Null()]),
  /**
   * Parcels left in the queue that nobody holds (the one taken not counted), counted up to
   * QUEUE_COUNT_LIMIT: that number means "at least".
   */
  remaining: Type.Integer(),
});
export type DequeueParcelAnswer = Static<typeof DequeueParcelAnswer>;

/** The queues take `skip`: the parcel the operator is passing over (given back, and not answered again). */
export const DequeueQuery = Type.Object({ skip: Type.Optional(Id) });
export type DequeueQuery = Static<typeof DequeueQuery>;
export const DequeueRequestQuery = Type.Object({ skip: Type.Optional(Uuid) });
export type DequeueRequestQuery = Static<typeof DequeueRequestQuery>;

/** A can't-locate request (spec 03 "Can't-locate address screen") as the editor works it. */
export const CantLocateItem = Type.Object({
  requestId: Type.String(),
  gripReference: Type.String(),
  status: Type.String(),
  version: Type.Integer(),
  /** What the user had: the address as typed, what they searched for, their comments. */
  query: Type.Union([Type.String(), Type.Null()]),
  searchedFor: Type.Union([Type.String(), Type.Null()]),
  comments: Type.String(),
  address: Type.String(),
  lat: Type.Union([Type.Number(), Type.Null()]),
  lng: Type.Union([Type.Number(), Type.Null()]),
  requestedBy: Type.String(),
  group: Type.Union([Type.String(), Type.Null()]),
  created: Type.String(),
  heldUntil: Type.String(),
});
export type CantLocateItem = Static<typeof CantLocateItem>;

export const DequeueRequestAnswer = Type.Object({
  success: Type.Boolean(),
  request: Type.Union([CantLocateItem, Type.Null()]),
  /** Requests left that nobody holds, counted up to QUEUE_COUNT_LIMIT. */
  remaining: Type.Integer(),
});
export type DequeueRequestAnswer = Static<typeof DequeueRequestAnswer>;

export const ReleaseBody = Type.Object({
  kind: Type.Union([Type.Literal('parcel'), Type.Literal('request')]),
  id: Type.String({ minLength: 1, maxLength: 64 }),
});
export type ReleaseBody = Static<typeof ReleaseBody>;

export const AvsEditorSettings = Type.Object({
  /** 'Validate Parcel' and dequeue_validate_parcel: the caller's e-mail starts with a configured prefix. */
  canValidate: Type.Boolean(),
  /** How long a dequeued item stays held without an edit (seconds). */
  holdSeconds: Type.Integer(),
  zoom: Type.Integer(),
  qualities: Type.Array(Type.Object({ code: literalUnion(ADDRESS_QUALITY_CODES), value: Type.Integer() })),
  /** The parcel types 'Validate Parcel' may set. */
  parcelTypes: Type.Array(Type.Object({ id: Type.Integer(), label: Type.String() })),
});
export type AvsEditorSettings = Static<typeof AvsEditorSettings>;

// ------------------------------------------------------------------ edits

/** Edits of an address send the version they saw; an older one is a 409 with the address as it is now. */
export const AddressVersionBody = Type.Object({ version: Version });
export type AddressVersionBody = Static<typeof AddressVersionBody>;

export const QualityBody = Type.Object({
  version: Version,
  quality: QualityCodeSchema,
});
export type QualityBody = Static<typeof QualityBody>;

export const ParcelVersionBody = Type.Object({ version: Version });
export type ParcelVersionBody = Static<typeof ParcelVersionBody>;

export const ValidateParcelBody = Type.Object({
  version: Version,
  /** The parcel's type as validated (not 90: validating ends the investigation). */
  parcelTypeId: Type.Integer(),
});
export type ValidateParcelBody = Static<typeof ValidateParcelBody>;

export const AddAddressBody = Type.Object({
  parcelId: Id,
  /** The parcel's version the operator saw: a parcel changed meanwhile is a 409. */
  parcelVersion: Version,
  lat: Lat,
  lng: Lng,
  /** A road of closestRoads. */
  roadId: Id,
  houseNumber: Type.String({ maxLength: 20 }),
  unit: Type.Optional(Type.String({ maxLength: 20 })),
  quality: Type.Optional(QualityCodeSchema),
});
export type AddAddressBody = Static<typeof AddAddressBody>;

export const AddPoiBody = Type.Object({
  parcelId: Id,
  parcelVersion: Version,
  lat: Lat,
  lng: Lng,
  name: Type.String({ maxLength: 200 }),
  poiType: PoiTypeSchema,
  category: Type.Optional(Type.String({ maxLength: 60 })),
  /** Attach it to an address on the parcel. */
  addressId: Type.Optional(Id),
});
export type AddPoiBody = Static<typeof AddPoiBody>;

export const PoiVersionBody = Type.Object({ version: Version });
export type PoiVersionBody = Static<typeof PoiVersionBody>;

/** Resolving a can't-locate request: the address found for it, or else the point placed. */
export const ResolveCantLocateBody = Type.Object({
  version: Version,
  addressId: Type.Optional(Id),
  lat: Type.Optional(Lat),
  lng: Type.Optional(Lng),
  comment: Type.Optional(Type.String({ maxLength: 1000 })),
});
export type ResolveCantLocateBody = Static<typeof ResolveCantLocateBody>;

export const AddressEditAnswer = Type.Object({ success: Type.Boolean(), address: EditorAddress });
export type AddressEditAnswer = Static<typeof AddressEditAnswer>;
export const PoiEditAnswer = Type.Object({ success: Type.Boolean(), poi: EditorPoi });
export type PoiEditAnswer = Static<typeof PoiEditAnswer>;
export const ParcelEditAnswer = Type.Object({ success: Type.Boolean(), parcel: EditorParcel });
export type ParcelEditAnswer = Static<typeof ParcelEditAnswer>;

export const ResolveCantLocateAnswer = Type.Object({
  success: Type.Boolean(),
  requestId: Type.String(),
  gripReference: Type.String(),
  status: Type.String(),
  version: Type.Integer(),
  address: Type.String(),
  lat: Type.Number(),
  lng: Type.Number(),
});
export type ResolveCantLocateAnswer = Static<typeof ResolveCantLocateAnswer>;

/** A stale or refused edit: 409 with the thing as it is now (an address, POI, parcel or request). */
export const EditorConflictAnswer = Type.Object({
  statusCode: Type.Literal(409),
  error: Type.String(),
  message: Type.String(),
  requestId: Type.Optional(Type.String()),
  current: Type.Optional(Type.Unknown()),
});
export type EditorConflictAnswer = Static<typeof EditorConflictAnswer>;

/** One audit row: who, when, what, before → after. */
export const EditorEdit = Type.Object({
  at: Type.String(),
  user: Type.String(),
  action: Type.String(),
  entity: Type.String(),
  entityId: Type.String(),
  before: Type.Unknown(),
  after: Type.Unknown(),
});
export type EditorEdit = Static<typeof EditorEdit>;
export const EditorEditsAnswer = Type.Object({ success: Type.Boolean(), edits: Type.Array(EditorEdit) });
export type EditorEditsAnswer = Static<typeof EditorEditsAnswer>;
