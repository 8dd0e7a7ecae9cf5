import { Type, type Static } from '@sinclair/typebox';
import { LatLng } from './geo';

/**
 * Address validation (the AVS service's own screen, /avs): a typed address checked against the portal's
 * address data, answered as the standardised address, its parts, where it is, the parcel it lies on and
 * how sure the match is. Served by services/locator next to the address service.
 */

export const VALIDATION_API = {
  validate: '/api/avs/validate',
  batch: '/api/avs/validate/batch',
} as const;

/** Addresses validated per batch call: a CSV file is sent in chunks of this many rows. */
export const VALIDATION_BATCH_MAX = 100;

/**
 * Longest text a batch row may carry. A row longer than a search query (MAX_QUERY_LENGTH of geo.ts) is answered
 * with an error of its own rather than refusing the whole chunk; beyond this the file is not an address
 * list and the call is refused.
 */
export const VALIDATION_ROW_MAX_LENGTH = 1000;

/** The confidence from which a match is a valid address, and from which it is a probable one. */
export const VALIDATION_THRESHOLDS = { valid: 0.85, probable: 0.5 } as const;

export const VALIDATION_VERDICTS = ['valid', 'probable', 'not found'] as const;
export type ValidationVerdict = (typeof VALIDATION_VERDICTS)[number];

/** The parts of a standardised address (a street match has no number; an erf's may have no street). */
export const AddressPartsSchema = Type.Object({
  number: Type.Union([Type.String(), Type.Null()]),
  street: Type.Union([Type.String(), Type.Null()]),
  unit: Type.Union([Type.String(), Type.Null()]),
  estate: Type.Union([Type.String(), Type.Null()]),
  suburb: Type.Union([Type.String(), Type.Null()]),
  town: Type.Union([Type.String(), Type.Null()]),
  postalCode: Type.Union([Type.String(), Type.Null()]),
});
export type AddressPartsAnswer = Static<typeof AddressPartsSchema>;

/** The parcel (erf) the address lies on: its id (for /api/avs/geojson type 'parcel') and number. */
export const ValidatedParcel = Type.Object({
  id: Type.String(),
  /** The erf or farm portion number as registered ("1234"). */
  number: Type.String(),
  portion: Type.Integer(),
  /** How it is written: "Erf 1234", "Erf 1234/2". */
  title: Type.String(),
});
export type ValidatedParcel = Static<typeof ValidatedParcel>;

export const ValidationResult = Type.Object({
  /** The address as sent (trimmed). */
  query: Type.String(),
  verdict: Type.Union([Type.Literal('valid'), Type.Literal('probable'), Type.Literal('not found')]),
  /** How well the best match fits what was typed, 0..1 (0 when nothing matched). */
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  /** What was matched: an address, a street (no such number), or an erf. Null when not found. */
  matchType: Type.Union([Type.Literal('address'), Type.Literal('street'), Type.Literal('erf'), Type.Null()]),
  /** The standardised address, written as the portal writes addresses; null when not found. */
  formatted_address: Type.Union([Type.String(), Type.Null()]),
  parts: Type.Union([AddressPartsSchema, Type.Null()]),
  location: Type.Union([LatLng, Type.Null()]),
  parcel: Type.Union([ValidatedParcel, Type.Null()]),
  /** Why a batch row could not be read (empty, too long); the single call answers a 400 instead. */
  error: Type.Optional(Type.String()),
});
export type ValidationResult = Static<typeof ValidationResult>;

/** Empty and too long addresses are answered by the service with a message of its own (a 400). */
export const ValidateInput = Type.Object({ address: Type.String({ maxLength: VALIDATION_ROW_MAX_LENGTH }) });
export type ValidateInput = Static<typeof ValidateInput>;

export const ValidateAnswer = Type.Object({ success: Type.Boolean(), result: ValidationResult });
export type ValidateAnswer = Static<typeof ValidateAnswer>;

/** 1..VALIDATION_BATCH_MAX addresses; the count is checked by the service, which says what is wrong. */
export const ValidateBatchInput = Type.Object({
  addresses: Type.Array(Type.String({ maxLength: VALIDATION_ROW_MAX_LENGTH })),
});
export type ValidateBatchInput = Static<typeof ValidateBatchInput>;

export const ValidateBatchAnswer = Type.Object({
  success: Type.Boolean(),
  /** One result per address sent, in the same order. */
  results: Type.Array(ValidationResult),
});
export type ValidateBatchAnswer = Static<typeof ValidateBatchAnswer>;
