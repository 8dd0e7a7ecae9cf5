import { VALIDATION_BATCH_MAX, type ValidationVerdict } from '@portal/contracts';

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
