import type { Parcel, ReverseAnswer, SearchResultItem, ValidationResult } from '@portal/contracts';

/**
 * The places the locator screens' tests look up: 12 Church Street, Stellenbosch, its parcel (Erf 1234) and
 * what the address service answers for it; each test changes what it is about.
 */

/** A search result for 12 Church Street. */
export const churchStreetItem = (overrides: Partial<SearchResultItem> = {}): SearchResultItem => ({
  id: '42',
  type: 'address',
  formatted_address: '12 Church Street, Stellenbosch, 7600',
  location: { lat: -33.9368, lng: 18.86 },
  confidence: 1,
  ...overrides,
});

/** Erf 1234, with 12 Church Street and a second address on it. */
export const churchStreetParcel = (overrides: Partial<Parcel> = {}): Parcel => ({
  id: '7',
  formatted_address: '12 Church Street, Stellenbosch, 7600',
  addresses: [
    { id: '42', short_formatted_address: '12 Church Street' },
    { id: '43', short_formatted_address: '12A Church Street' },
  ],
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [18.86, -33.93],
        [18.861, -33.93],
        [18.861, -33.931],
        [18.86, -33.93],
      ],
    ],
  },
  parcelNumber: '1234',
  portion: 0,
  sgKey: null,
  parcelTypeId: 1,
  dataQualityId: 1,
  ...overrides,
});

/** POST /api/avs/reverse's answer: the address on its parcel. */
export const reverseAnswer = (address: SearchResultItem, parcel: Parcel): ReverseAnswer => ({
  success: true,
  result: { parcel, address, distance: 0, area: null },
});

/**
 * A group's references (GET /api/v1.0/users/me/references): a required Policy Number with its pattern and
 * message, an optional Broker Name, and a hidden Underwriting Batch (the seventh field).
 */
export const GROUP_REFERENCES = [
  [
    'Policy Number',
    'POLICY_NUMBER',
    0,
    true,
    '^[A-Z]{2}[0-9]{6}$',
    'Policy number must be two letters followed by six digits, e.g. KM123456',
  ],
  ['Broker Name', 'BROKER_NAME', 1, false, '', ''],
  ['Underwriting Batch', 'UNDERWRITING_BATCH', 2, false, '', '', true],
];

/** 12 Church Street validated (POST /api/avs/validate). */
export const validChurchStreet = (overrides: Partial<ValidationResult> = {}): ValidationResult => ({
  query: '12 church st stellenbosch',
  verdict: 'valid',
  confidence: 0.962,
  matchType: 'address',
  formatted_address: '12 Church Street, Stellenbosch Central, Stellenbosch, 7600',
  parts: {
    number: '12',
    street: 'Church Street',
    unit: null,
    estate: null,
    suburb: 'Stellenbosch Central',
    town: 'Stellenbosch',
    postalCode: '7600',
  },
  location: { lat: -33.936612, lng: 18.861299 },
  parcel: { id: '41', number: '1234', portion: 0, title: 'Erf 1234' },
  ...overrides,
});

/** A text the address service found nothing for. */
export const notFound = (query: string): ValidationResult => ({
  query,
  verdict: 'not found',
  confidence: 0,
  matchType: null,
  formatted_address: null,
  parts: null,
  location: null,
  parcel: null,
});
