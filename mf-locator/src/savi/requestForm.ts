import type { LatLng, Orientation, Parcel, SearchResultItem } from '@portal/contracts';
import type { SearchOptionId } from '../search';
import { CANT_LOCATE, REQUEST_TYPE, type RequestSubType } from './texts';

/** The request form as PUT /api/v1.0/request/ receives it (spec 01 §3 "Request form"). */
export interface SaviRequestForm {
  /** The query, capitalised. */
  Searched_For: string;
  /** The search type (wizard option). */
  mode: SearchOptionId | 'cantlocate';
  Selected_Address: string;
  Alternative_Addresses: string[];
  coordinates: LatLng | null;
  coordinateArray: [number, number] | null;
  cantlocate: boolean;
  /** The parcel (or marker area) outline. */
  geojson: unknown;
  /** The map's centre when the request was made. */
  map: LatLng | null;
  requestType: typeof REQUEST_TYPE;
  requestSubType: RequestSubType;
  /** Reference values keyed by reference key. */
  reference: Record<string, string>;
  referenceString: string;
  additional: string;
  type: string;
  needsUpdate: boolean;
  selected: SearchResultItem | null;
  parcel: Parcel | null;
  /** The locator's internal request (spec 01 §3): upper-cased query, imagery used and its URLs. */
  query: string;
  usedIdan: boolean;
  imageUrls: Partial<Record<Orientation, string>>;
  comments: string;
}

export interface RequestInput {
  searchedFor: string;
  option: SearchOptionId | null;
  subType: RequestSubType;
  point: LatLng | null;
  item: SearchResultItem | null;
  address: SearchResultItem | null;
  parcel: Parcel | null;
  area: unknown;
  mapCentre: LatLng | null;
  references: Record<string, string>;
  comments: string;
  imageUrls: Partial<Record<Orientation, string>>;
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
  const references = Object.fromEntries(
    Object.entries(input.references)
      .map(([key, value]) => [key, value.trim()] as const)
      .filter(([, value]) => value !== ''),
  );
  return {
    Searched_For: capitalise(input.searchedFor),
    mode: cantLocate && !input.option ? 'cantlocate' : (input.option ?? 'cantlocate'),
    Selected_Address: selectedAddress,
    Alternative_Addresses: alternatives,
    coordinates: input.point,
    coordinateArray: input.point ? [input.point.lat, input.point.lng] : null,
    cantlocate: cantLocate,
    geojson: cantLocate ? null : (input.parcel?.geometry ?? input.area ?? null),
    map: input.mapCentre,
    requestType: REQUEST_TYPE,
    requestSubType: input.subType,
    reference: references,
    referenceString: JSON.stringify(references),
    additional: input.comments.trim(),
    type: REQUEST_TYPE,
    needsUpdate: false,
    selected: cantLocate ? null : (input.address ?? input.item),
    parcel: cantLocate ? null : input.parcel,
    query: input.searchedFor.trim().toUpperCase(),
    usedIdan: Object.keys(input.imageUrls).length > 0,
    imageUrls: input.imageUrls,
    comments: input.comments.trim(),
  };
}
