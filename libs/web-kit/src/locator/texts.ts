import { TEXT } from '@portal/domain';

/** Texts of the search components: spec 01 §2, §4, §5, §8 verbatim; the others are ours (docs/decisions.md). */
export const SEARCH_TEXT = {
  choosePlaceholder: 'Please select search option...',
  gpsUnparseable: 'Unable to parse the GPS co-ordinate provided',
  geocoderDown: 'Geocoding service down please try again later',
  pleaseLogIn: TEXT.pleaseLogIn,
  noResults: 'No results found.',
  searching: 'Searching…',
  search: 'Search',
  changeOption: 'Change search option',
  results: (count: number) => `${count} result${count === 1 ? '' : 's'}`,
  suggestions: 'Suggestions',
  ok: 'OK',
} as const;

/** The marker popup (spec 01 §2), verbatim. */
export const POPUP_TEXT = {
  loading: 'Retrieving Information . . .',
  noAddress: 'No address retrieved for this location.',
  noParcel: 'No parcel information retrieved for this location.',
  draggable: 'Marker is draggable',
  getId: 'Get ID',
  copyGps: 'Copy GPS',
  copied: 'Copied',
  addressesOnParcel: 'Addresses on this parcel',
} as const;
