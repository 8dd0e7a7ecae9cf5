import type {
  LatLng,
  MeasurementInput,
  Orientation,
  Parcel,
  RequestForm,
  RequestMapView,
  RequestSelected,
  SearchResultItem,
} from '@portal/contracts';
import { REQUEST_SUBTYPE } from '@portal/contracts';
import { requestReferences, type SearchOptionId } from '@portal/web-kit/locator';

/** Spec 01 §1: the request tool's subtypes; the request type is always SAVI (spec 01 §9). */
export const REQUEST_SUBTYPES = [
  REQUEST_SUBTYPE.replacementValueEstimate,
  REQUEST_SUBTYPE.buildingSizeCalculation,
  REQUEST_SUBTYPE.cantLocate,
] as const;
export type RequestSubType = (typeof REQUEST_SUBTYPES)[number];
export const CANT_LOCATE: RequestSubType = REQUEST_SUBTYPE.cantLocate;
export const REQUEST_TYPE = 'SAVI' as const;

/** The request form as PUT /api/v1.0/request/ takes it (libs/contracts/src/requests.ts, spec 01 §3). */
export type SaviRequestForm = RequestForm & {
  requestSubType: RequestSubType;
  reference: Record<string, string>;
  Selected_Address: string;
  Alternative_Addresses: string[];
  Searched_For: string;
  additional: string;
};

export interface RequestInput {
  searchedFor: string;
  option: SearchOptionId | null;
  subType: RequestSubType;
  point: LatLng | null;
  item: SearchResultItem | null;
  address: SearchResultItem | null;
  parcel: Parcel | null;
  area: unknown;
  mapView: RequestMapView | null;
  references: Record<string, string>;
  comments: string;
  imageUrls: Partial<Record<Orientation, string>>;
  /** Measurements made on the pictures before logging (issue 21): saved with the request. */
  measurements?: readonly MeasurementInput[];
}

/** "12 church street" -> "12 Church Street". */
export const capitalise = (text: string) =>
  text.trim().replace(/(^|\s)(\p{L})/gu, (_m, space, letter) => space + letter.toUpperCase());

/** Builds the request from what the tool knows. Can't Locate carries no address sections (spec 01 §4). */
export function buildRequestForm(input: RequestInput): SaviRequestForm {
  const cantLocate = input.subType === CANT_LOCATE;
  const selectedAddress = cantLocate
    ? ''
    : (input.address?.formatted_address ?? input.item?.formatted_address ?? '');
  const alternatives = cantLocate
    ? []
    : (input.parcel?.addresses ?? [])
        .filter((entry) => entry.id !== input.address?.id)
        .map((entry) => entry.short_formatted_address);
  const { reference, referenceString } = requestReferences(input.references);
  return {
    Searched_For: capitalise(input.searchedFor),
    mode: input.option ?? 'cantlocate',
    Selected_Address: selectedAddress,
    Alternative_Addresses: alternatives,
    coordinates: input.point,
    coordinateArray: input.point ? [input.point.lat, input.point.lng] : null,
    cantlocate: cantLocate,
    geojson: cantLocate ? null : ((input.parcel?.geometry ?? input.area ?? null) as RequestForm['geojson']),
    map: input.mapView,
    requestType: REQUEST_TYPE,
    requestSubType: input.subType,
    reference,
    referenceString,
    additional: input.comments.trim(),
    type: REQUEST_TYPE,
    needsUpdate: false,
    selected: cantLocate ? null : selectedParts(input.address ?? input.item),
    parcel: cantLocate ? null : input.parcel,
    query: input.searchedFor.trim().toUpperCase(),
    usedIdan: Object.keys(input.imageUrls).length > 0,
    imageUrls: input.imageUrls,
    comments: input.comments.trim(),
    // Only a located property's pictures were measured; the field is left out when there are none.
    ...(!cantLocate && input.measurements?.length ? { measurements: [...input.measurements] } : {}),
  };
}

/** Spec 03 §3 `selected`: the chosen address in parts, as far as the search result item has them. */
function selectedParts(item: SearchResultItem | null): RequestSelected | null {
  if (!item) return null;
  const parts: RequestSelected = { formatted_address: item.formatted_address };
  if (item.suburb) parts.suburb = item.suburb;
  if (item.town) parts.town = item.town;
  if (item.postalCode) parts.streetcode = item.postalCode.padStart(4, '0');
  return parts;
}
