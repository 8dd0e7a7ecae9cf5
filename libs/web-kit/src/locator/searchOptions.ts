import type { SearchFlags } from '@portal/contracts';

/** The wizard's search options: the spec's five (spec 01 §2) and the earlier reading's postal code. */
export const SEARCH_OPTION_IDS = ['address', 'gps', 'farm', 'poi', 'postal', 'marker'] as const;
export type SearchOptionId = (typeof SEARCH_OPTION_IDS)[number];

export interface SearchOption {
  id: SearchOptionId;
  /** Spec 01 §2 verbatim for the five; ours for postal code. */
  title: string;
  hint: string;
  placeholder: string;
  /** The input format, shown under the box. */
  format: string;
  /** Whether the option reads typed text (marker mode places the marker on the map instead). */
  typed: boolean;
  /** The flags POST /api/avs/search gets for this option's suggestions and results. */
  flags?: SearchFlags;
}

/** Hints, placeholders and formats are ours (the spec gives titles only): see docs/decisions.md. */
export const SEARCH_OPTIONS: Record<SearchOptionId, SearchOption> = {
  address: {
    id: 'address',
    title: 'Search by Street Address',
    hint: 'Type the street number and name, then the suburb or town. Press Enter to search.',
    placeholder: 'e.g. 12 Church Street, Stellenbosch',
    format: 'Number Street, Suburb, Town',
    typed: true,
    flags: { address: true, erf: true },
  },
  gps: {
    id: 'gps',
    title: 'Search by Geo-co-ordinates',
    hint: 'Type the latitude and longitude, separated by a comma or a space, in decimal degrees or degrees, minutes and seconds.',
    placeholder: 'e.g. 33.9368 S, 18.8600 E',
    format: 'decimal number S, decimal number E',
    typed: true,
  },
  farm: {
    id: 'farm',
    title: 'Search by Farm Name',
    hint: 'Type the farm name or number, optionally with the portion and the nearest town.',
    placeholder: 'e.g. Welgelegen 123, Stellenbosch',
    format: 'Farm name or number, Town',
    typed: true,
    flags: { farm: true },
  },
  poi: {
    id: 'poi',
    title: 'Search by POI',
    hint: 'Type the name of a point of interest: a school, hospital, shopping centre or landmark.',
    placeholder: 'e.g. Stellenbosch Hospital',
    format: 'Place name, Town',
    typed: true,
    flags: { poi: true },
  },
  postal: {
    id: 'postal',
    title: 'Search by Postal Code',
    hint: 'Type a four-digit South African postal code to see its area.',
    placeholder: 'e.g. 7600',
    format: 'Four digits',
    typed: true,
    flags: { postal: true },
  },
  marker: {
    id: 'marker',
    title: 'Search by Map Click',
    hint: 'Click on the map to place the marker, or drag the marker to move it.',
    placeholder: 'Click on the map to place the marker',
    format: 'A click on the map',
    typed: false,
  },
};

/** Autocomplete starts at this many typed characters, this long after the last key (ms). */
export const AUTOCOMPLETE_MIN_CHARS = 3;
export const AUTOCOMPLETE_DEBOUNCE_MS = 250;

/** Spec 01 §9: the query sent to geocoding ends with ' South Africa'. */
export const COUNTRY_SUFFIX = ' South Africa';
export const withCountry = (query: string) =>
  query.trim().toLowerCase().endsWith(COUNTRY_SUFFIX.trim().toLowerCase())
    ? query.trim()
    : `${query.trim()}${COUNTRY_SUFFIX}`;

/** Spec 01 §2 keyboard: Enter runs the search, Escape resets the wizard, any other key clears results. */
export type KeyAction = 'search' | 'reset' | 'clear' | 'none';

/** Keys that change nothing in the box (modifiers, focus moves, IME) do not clear the results. */
const INERT_KEYS = new Set([
  'Shift',
  'Control',
  'Alt',
  'Meta',
  'CapsLock',
  'Tab',
  'Dead',
  'Process',
  'Unidentified',
]);

export function keyAction(key: string): KeyAction {
  if (key === 'Enter') return 'search';
  if (key === 'Escape') return 'reset';
  if (INERT_KEYS.has(key)) return 'none';
  return 'clear';
}
