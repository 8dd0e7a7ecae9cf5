import { roundCoordinate } from '@portal/domain';
import type { LatLng, RequestForm, SearchResultItem } from '@portal/contracts';
import { requestReferences } from '@portal/web-kit/locator';

/** What the screen knows of the chosen location. */
export interface OrderInput {
  point: LatLng;
  /** The search option used ('address', 'gps', 'marker', …), or null. */
  mode: RequestForm['mode'];
  searchedFor: string;
  address: string | null;
  item: SearchResultItem | null;
  /** The group's reference values by key, as the form holds them (`referenceMap` of the locator kit). */
  references: Record<string, string>;
}

/**
 * The IRiS request as PUT /api/v1.0/request/ takes it (spec 03 §7): type IRIS, no subtype, the point
 * (6 decimals, spec 03 §9), what was searched for and the group's references (`reference` and
 * `referenceString`, as /savi sends them: trimmed, the empty ones left out).
 */
export function buildIrisRequest(input: OrderInput): RequestForm {
  const coordinates = { lat: roundCoordinate(input.point.lat), lng: roundCoordinate(input.point.lng) };
  return {
    requestType: 'IRIS',
    requestSubType: null,
    mode: input.mode ?? 'marker',
    Searched_For: input.searchedFor.trim().slice(0, 500),
    Selected_Address: input.address ?? '',
    coordinates,
    coordinateArray: [coordinates.lat, coordinates.lng],
    cantlocate: false,
    ...requestReferences(input.references),
    type: 'IRiS risk report',
  };
}

/** The request id in the creation reply's Location ('/api/v1.0/request/{id}/any'), or null. */
export function requestIdFromLocation(location: string | null): string | null {
  const match = location?.match(/\/request\/([^/?#]+)\/any\/?(?:[?#].*)?$/);
  return match ? decodeURIComponent(match[1]) : null;
}
