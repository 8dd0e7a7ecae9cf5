import { createHash } from 'node:crypto';
import {
  REQUEST_SUBTYPE,
  REQUEST_SUBTYPES_BY_TYPE,
  REFERENCE_TEXT,
  referenceFields,
  referenceProblems,
  type RequestAddressValue,
  type RequestForm,
  type RequestSubType,
  type RequestType,
  type ServiceIdentifier,
} from '@portal/contracts';
import { badRequest, forbidden } from '@portal/server-kit';
import type { Caller } from '@portal/server-kit';

/**
 * South Africa's mainland and coast with some sea around it (the locator's fallback box when no outline is
 * loaded). A box, not the outline: the locator has already placed the point on a parcel or an address, and
 * this check only catches a form sent with swapped or made-up coordinates.
 */
export const SOUTH_AFRICA_BBOX = { west: 16.3, south: -35.0, east: 33.0, north: -22.1 } as const;

export const FORM_TEXT = {
  hasErrors: 'The request form has errors.',
  badSubType: (type: string, subType: string | null) =>
    subType === null
      ? `A ${type} request needs a subtype.`
      : `A ${type} request cannot have the subtype '${subType}'.`,
  needsCoordinates: 'The location (coordinates) of the property is required.',
  outsideSouthAfrica: (lat: number, lng: number) => `The location ${lat}, ${lng} is outside South Africa.`,
  cantLocateFlag: "cantlocate may only be set on a Can't Locate request.",
  cantLocateNeedsText:
    "A Can't Locate request needs a description of the property: what was searched for, the address, a comment or a location.",
  avsNeedsQuery: 'An address validation request needs the address to validate (query).',
  coordinateArray: 'coordinateArray must be [lat, lng] within the ranges of latitude and longitude.',
  referenceText: 'Your group has no references: reference must be left out.',
  badParcelGeometry: 'The parcel geometry must be a GeoJSON Polygon or MultiPolygon of closed rings.',
  idempotencyKey: 'The Idempotency-Key header must be 8 to 200 visible characters.',
  needsService: (service: string) => `The ${service} service is not active for your account.`,
} as const;

/** Which service a request type belongs to; a can't-locate request may come from the request tool or /avs. */
function servicesFor(type: RequestType, subType: RequestSubType | null): ServiceIdentifier[] {
  if (subType === REQUEST_SUBTYPE.cantLocate) return ['savi', 'avs'];
  return [({ SAVI: 'savi', AVS: 'avs', IRIS: 'iris' } as const)[type]];
}

/** What is written to requests.requests for a new request (the server fills the rest). */
export interface NewRequest {
  requestType: RequestType;
  requestSubType: RequestSubType | null;
  cantLocate: boolean;
  address: string;
  searchedFor: string | null;
  mode: string | null;
  formType: string | null;
  selectedAddress: RequestAddressValue | null;
  alternativeAddresses: RequestAddressValue[];
  lat: number | null;
  lng: number | null;
  coordinateArray: number[] | null;
  geojson: object | null;
  mapView: object | null;
  reference: Record<string, string>;
  referenceString: string;
  additional: string;
  needsUpdate: boolean;
  selected: object | null;
  parcelId: string | null;
  parcel: object | null;
  /** The parcel outline as GeoJSON text (Polygon or MultiPolygon), for ST_GeomFromGeoJSON. */
  parcelGeometry: string | null;
  usedIdan: boolean;
  imageUrls: object | null;
  query: string | null;
  idempotencyKey: string | null;
  /** A digest of the form, so a key reused for a different request is noticed. */
  requestHash: string;
}

const trimmed = (value: string | null | undefined) => {
  const text = value?.trim();
  return text ? text : null;
};

const addressLine = (value: RequestAddressValue | null | undefined) =>
  (typeof value === 'string' ? value : value?.formatted_address)?.trim() || null;

/** JSON with keys in order, so the same form always has the same digest. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const isPosition = (value: unknown) =>
  Array.isArray(value) &&
  value.length >= 2 &&
  value.every((n) => typeof n === 'number' && Number.isFinite(n)) &&
  Math.abs(value[0] as number) <= 180 &&
  Math.abs(value[1] as number) <= 90;

const isRing = (value: unknown) => {
  if (!Array.isArray(value) || value.length < 4 || !value.every(isPosition)) return false;
  const [first, last] = [value[0] as number[], value[value.length - 1] as number[]];
  return first[0] === last[0] && first[1] === last[1];
};
const isPolygon = (value: unknown) => Array.isArray(value) && value.length > 0 && value.every(isRing);

/**
 * The parcel outline as GeoJSON text, or null when the form has none. A Feature's geometry is taken; the
 * structure is checked here so PostGIS never sees what it would refuse with an internal error.
 */
function parcelGeometry(geometry: unknown): string | null {
  if (geometry === null || geometry === undefined) return null;
  let shape = geometry as { type?: unknown; coordinates?: unknown; geometry?: unknown };
  if (shape.type === 'Feature') shape = (shape.geometry ?? {}) as typeof shape;
  const ok =
    (shape.type === 'Polygon' && isPolygon(shape.coordinates)) ||
    (shape.type === 'MultiPolygon' &&
      Array.isArray(shape.coordinates) &&
      shape.coordinates.length > 0 &&
      shape.coordinates.every(isPolygon));
  if (!ok) throw badRequest(FORM_TEXT.badParcelGeometry);
  return JSON.stringify({ type: shape.type, coordinates: shape.coordinates });
}

/**
 * Checks a request form against the spec's rules and the caller's group and turns it into the row to
 * write. Every problem with the form is collected and answered at once (400, `messages`), so the form
 * can show them together; a missing service is a 403.
 */
export function readRequestForm(
  form: RequestForm,
  caller: Caller,
  idempotencyKey: string | null,
): NewRequest {
  const problems: string[] = [];
  const requestType = form.requestType;
  // Spec 01 §9: the earlier locator reading's default subtype is 'Report'.
  const requestSubType: RequestSubType | null =
    form.requestSubType ?? (requestType === 'SAVI' ? REQUEST_SUBTYPE.report : null);
  if (!REQUEST_SUBTYPES_BY_TYPE[requestType].includes(requestSubType)) {
    throw badRequest(FORM_TEXT.badSubType(requestType, requestSubType));
  }
  const services = servicesFor(requestType, requestSubType);
  if (!services.some((service) => caller.services.includes(service))) {
    throw forbidden(FORM_TEXT.needsService(services[0]));
  }

  const cantLocate = requestSubType === REQUEST_SUBTYPE.cantLocate;
  if (form.cantlocate && !cantLocate) problems.push(FORM_TEXT.cantLocateFlag);

  const coordinates = form.coordinates ?? null;
  if (!coordinates && !cantLocate) problems.push(FORM_TEXT.needsCoordinates);
  if (coordinates && !cantLocate) {
    const box = SOUTH_AFRICA_BBOX;
    const { lat, lng } = coordinates;
    if (lng < box.west || lng > box.east || lat < box.south || lat > box.north) {
      problems.push(FORM_TEXT.outsideSouthAfrica(lat, lng));
    }
  }
  const coordinateArray = form.coordinateArray ?? null;
  if (coordinateArray && (Math.abs(coordinateArray[0]) > 90 || Math.abs(coordinateArray[1]) > 180)) {
    problems.push(FORM_TEXT.coordinateArray);
  }

  const searchedFor = trimmed(form.Searched_For);
  const query = trimmed(form.query);
  const additional = (form.additional ?? form.comments ?? '').trim();
  const selectedAddress = form.Selected_Address ?? null;
  if (cantLocate && !coordinates && !searchedFor && !query && !additional && !addressLine(selectedAddress)) {
    problems.push(FORM_TEXT.cantLocateNeedsText);
  }
  if (requestType === 'AVS' && !cantLocate && !query) problems.push(FORM_TEXT.avsNeedsQuery);

  // References: the group's (or, for a claims user, its claims references), hidden entries dropped.
  const group = caller.group;
  const fields = referenceFields(caller.claimsUser ? group?.claimsReferences : group?.references);
  let values: Record<string, string> = {};
  if (typeof form.reference === 'string') {
    // A plain text is the first reference's value; with no references it is kept as the reference text.
    if (fields.length > 0) values = { [fields[0].key]: form.reference };
    else if (form.reference.trim() !== '') problems.push(FORM_TEXT.referenceText);
  } else if (form.reference) {
    values = form.reference;
  }
  const known = new Set(fields.map((field) => field.key));
  for (const key of Object.keys(values)) if (!known.has(key)) problems.push(REFERENCE_TEXT.unknown(key));
  problems.push(...referenceProblems(fields, values));
  const reference = Object.fromEntries(
    fields.flatMap((field) => {
      const value = values[field.key]?.trim();
      return value ? [[field.key, value]] : [];
    }),
  );

  if (problems.length > 0) throw badRequest(problems.join(' '), problems);

  const parcel = form.parcel ?? null;
  const selected = form.selected ?? null;
  const address =
    trimmed(selected?.formatted_address) ??
    addressLine(selectedAddress) ??
    trimmed(parcel?.formatted_address) ??
    searchedFor ??
    query ??
    '';
  const { idempotencyKey: _bodyKey, ...rest } = form;
  return {
    requestType,
    requestSubType,
    cantLocate,
    address,
    searchedFor,
    mode: form.mode ?? null,
    formType: trimmed(form.type),
    selectedAddress,
    alternativeAddresses: form.Alternative_Addresses ?? [],
    lat: coordinates?.lat ?? null,
    lng: coordinates?.lng ?? null,
    coordinateArray,
    geojson: form.geojson ?? null,
    mapView: form.map ?? null,
    reference,
    referenceString: trimmed(form.referenceString) ?? (fields.length > 0 ? JSON.stringify(reference) : ''),
    additional,
    needsUpdate: form.needsUpdate ?? false,
    selected,
    parcelId: trimmed(parcel?.id),
    parcel: parcel ? { ...parcel, geometry: undefined } : null,
    parcelGeometry: parcelGeometry(parcel?.geometry),
    usedIdan: form.usedIdan ?? false,
    imageUrls: form.imageUrls ?? null,
    query,
    idempotencyKey,
    requestHash: createHash('sha256').update(canonical(rest)).digest('base64url'),
  };
}
