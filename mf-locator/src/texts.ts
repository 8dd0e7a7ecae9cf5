import { REFERENCE_TEXT, VALIDATION_BATCH_MAX, type ValidationVerdict } from '@portal/contracts';

/**
 * The locator remote's user-facing texts, one section per screen: the request tool (/savi), address
 * validation and can't-locate (/avs), locate (/locate) and the mapping service (/spatialkey). The spec's
 * are verbatim (spec 01 §1, §2, §5, §8; spec 03 §8); the others are ours (docs/decisions.md). How long to
 * wait, how often to retry and the like are not texts: they are in config.ts.
 */

// ---- The request tool (/savi) ----

/** The request tool's texts: spec 01 §1, §2, §5, §8 verbatim; the others are ours. */
export const SAVI_TEXT = {
  title: 'SAVi request tool',
  generalInfo: 'General Info',
  requestConfirmation: 'Request Confirmation',
  newRequest: 'New Request',
  cantLocate: "Can't Locate",
  back: 'Back',
  next: 'Next',
  submit: 'Submit',
  submitting: 'Submitting…',
  placeholder: REFERENCE_TEXT.placeholder,
  comments: 'Additional comments',
  pictureView: 'Picture view',
  requestType: 'Request type',
  requestTypeNeedsImagery: 'Needs high-resolution or ortho imagery at this location.',
  chooseLocation: 'Find the property, then choose the request type.',
  submitted: 'Your request has been logged.',
  gripReference: (reference: string) => `GRiP reference: ${reference}`,
  submitFailed: 'The request could not be logged.',
  loadingReferences: 'Loading the form…',
  referencesFailed: 'The form could not be loaded. Please try again later.',
  review: {
    searchedFor: 'Searched for',
    selectedAddress: 'Selected address',
    alternativeAddresses: 'Other addresses on the parcel',
    coordinates: 'Co-ordinates',
    requestType: 'Request type',
    references: 'References',
    comments: 'Comments',
    measurements: 'Measurements',
  },
} as const;

/** Spec 01 §8 imagery alerts, verbatim (including the spec's spelling). */
export const IMAGERY_TEXT = {
  notAvailableSatelliteIs:
    'High resolution imagery is not available for this area. Please refer to the coverage area in our FAQ section. We do however have satellite imagery available. Click OK to continue.',
  unableToLoad:
    'We are unable to load High Resolution Imagery from our online imagery service. This location falls within the bounds of our coverage area. Please proceed to log the request for our team to assit with your request.',
  serviceDown:
    'High resolution imagery service is down at the moment. We are unable to handle your request at this time.',
  obliqueMissing: 'Oblique Imagery could not be found.',
  loading: 'Loading imagery…',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  orientation: { n: 'North', e: 'East', s: 'South', w: 'West', o: 'Ortho' },
  surveyFailed: 'The pictures of that survey could not be loaded. The pictures shown are unchanged.',
} as const;

/** The picture view's tools (issue 21): stepping back through surveys, comparing, measuring. */
export const PICTURE_TOOLS_TEXT = {
  views: 'Picture view',
  pictures: 'Pictures',
  measure: 'Measure',
  compare: 'Compare',
  measureHeight: 'Measure a height',
  measureHint:
    'Measure on the ortho picture: the measurements travel with the request when you log it. Buildings and the parcel are outlined for snapping.',
  heightHint: 'Pick the base and top of a wall on this oblique picture to measure its height.',
  measurementsLabel: (count: number) => (count === 1 ? '1 measurement' : `${count} measurements`),
} as const;

// ---- Address validation and can't-locate (/avs) ----

/**
 * Texts of the address validation screen (/avs). The can't-locate errors are spec 03 §8 verbatim; the
 * others are ours.
 */
export const AVS_TEXT = {
  title: 'Address validation',
  tabs: { single: 'Validate an address', batch: 'Validate a CSV file', cantLocate: "Can't locate" },

  addressLabel: 'Address',
  addressPlaceholder: 'e.g. 12 Church Street, Stellenbosch Central, Stellenbosch, 7600',
  validate: 'Validate',
  validating: 'Validating…',
  standardised: 'Standardised address',
  confidence: 'Confidence',
  parcel: 'Parcel',
  noParcel: 'No parcel on record for this address.',
  notFound:
    'No address matching this text was found. Check the spelling, or log a can\u2019t-locate request.',
  logCantLocate: 'Log a can\u2019t-locate request',
  matchedStreet: 'The street was found, but not this house number.',
  parts: {
    number: 'Number',
    street: 'Street',
    unit: 'Unit',
    estate: 'Estate',
    suburb: 'Suburb',
    town: 'Town',
    postalCode: 'Postal code',
  },
  verdict: { valid: 'Valid', probable: 'Probable', 'not found': 'Not found' } satisfies Record<
    ValidationVerdict,
    string
  >,

  batchHint: `Upload a CSV file with one address per row: the column named "address" (with a header row), or else the first column. It is validated ${VALIDATION_BATCH_MAX} rows at a time.`,
  chooseFile: 'Choose CSV file',
  readingFile: 'Reading the file…',
  rowsRead: (rows: number, name: string) => `${rows} row${rows === 1 ? '' : 's'} read from ${name}.`,
  start: 'Validate rows',
  stop: 'Stop',
  retry: 'Retry',
  download: 'Download results (CSV)',
  progress: (done: number, total: number) => `${done} of ${total} rows validated`,
  chunkFailed: (from: number, to: number, message: string) =>
    `Rows ${from}–${to} could not be validated (${message}). The rows done so far are kept: retry to go on.`,
  stopped: 'Stopped. The rows done so far are kept: retry to go on, or download what is done.',
  summary: 'Summary',
  rowError: 'Unreadable',

  cantLocateIntro:
    'Cannot find an address? Log it as a can\u2019t-locate request and our team will locate it for you.',
  cantLocateAddress: 'Address as you have it',
  comments: 'Comments',
  commentsPlaceholder: 'Anything that helps us find it: a landmark, the owner, an erf number…',
  submit: 'Log request',
  submitting: 'Logging…',
  required: (label: string) => `${label} is required.`,
  logged: 'Your request has been logged.',
  gripReference: 'GRiP reference',
  another: 'Log another request',
} as const;

/** Bad CSV files, said plainly. */
export const CSV_TEXT = {
  notCsv: 'This is not a CSV file: choose a text file with one address per row (.csv or .txt).',
  tooBig: (megabytes: number) => `The file is too large: at most ${megabytes} MB.`,
  empty: 'The file is empty: there are no rows to validate.',
  noAddresses: 'The file has no addresses: the address column is empty on every row.',
  tooManyRows: (max: number) => `The file has too many rows: at most ${max.toLocaleString('en-ZA')}.`,
  unreadable: (detail: string) => `The file could not be read as CSV: ${detail}`,
} as const;

/** Spec 03 §8, verbatim: a failed registration, and the can't-locate creation errors. */
export const CANT_LOCATE_ERRORS = {
  registration:
    'An error occurred while registering your request. Please try again later and contact us if the issue persists.',
  requestNull: 'Request is null',
  nullResult: 'Creating report returned null result.',
} as const;

// ---- Locate (/locate) ----

/** Texts of the locate screen (/locate): ours; the search and popup texts are the search components'. */
export const LOCATE_TEXT = {
  title: 'Locate',
  intro: 'Find a property by address, co-ordinates, farm, point of interest or a click on the map.',
  place: 'Selected location',
  address: 'Address',
  parcel: 'Parcel',
  noParcel: 'No parcel at this point.',
  addressesOnParcel: 'Addresses on this parcel',
  area: 'Area',
  gps: 'GPS',
  loading: 'Retrieving Information . . .',
  failed: 'The details of this location could not be retrieved.',
} as const;

// ---- The mapping service (/spatialkey) ----

/** Texts of the mapping service (/spatialkey): ours. */
export const SPATIALKEY_TEXT = {
  title: 'Mapping service',
  status: 'Status',
  type: 'Type',
  from: 'Created from',
  to: 'Created to',
  clear: 'Clear filters',
  allStatuses: 'All statuses',
  allTypes: 'All types',
  datesReversed: 'The start date is after the end date.',
  loading: 'Loading requests…',
  failed: 'The requests could not be loaded.',
  retry: 'Try again',
  count: (shown: number, total: number) =>
    shown === total
      ? `${total} request${total === 1 ? '' : 's'} in view`
      : `${shown} of ${total} requests in view`,
  truncated: (shown: number, total: number) =>
    `Showing the newest ${shown.toLocaleString('en-ZA')} of ${total.toLocaleString('en-ZA')} requests here: zoom in or narrow the filters to see the rest.`,
} as const;

/** Texts of the mapping service's request popup: ours. */
export const REQUEST_POPUP_TEXT = {
  gripReference: 'GRiP reference',
  type: 'Type',
  status: 'Status',
  created: 'Created',
  address: 'Address',
  close: 'Close',
  more: (count: number) => `${count} requests here`,
} as const;
