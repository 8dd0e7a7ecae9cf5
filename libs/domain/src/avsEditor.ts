import type { AddressQualityCode, RequestStatus } from '@portal/contracts';

/**
 * The address editor's rules (spec 03 §3, §5; issue 14), pure: services/avs-editor enforces them and
 * mf-avs-editor shows them (a disabled button is the same rule the server answers with a 409/400).
 */

/**
 * Spec 03 §1: "Operators edit addresses and parcels, and resolve can't-locate requests": SAVi operators and
 * administrators (the roles of the session user). The remote's guard and every call of the service check it.
 */
export const ADDRESS_EDITOR_ROLES: readonly string[] = ['admin', 'saviOperator'];

/**
 * Spec 03 §5: the address quality options. CNF is "25 or below" and DDS, VR and SV are 40, 50 and 60; EST's
 * value is not given: 30 here, between CNF and DDS (docs/decisions.md "Address editor").
 */
export const ADDRESS_QUALITY: Readonly<Record<AddressQualityCode, number>> = {
  CNF: 25,
  EST: 30,
  DDS: 40,
  VR: 50,
  SV: 60,
};

/** The options in the spec's order, as the popup lists them. */
export const QUALITY_OPTIONS: readonly { code: AddressQualityCode; value: number }[] = (
  ['CNF', 'EST', 'DDS', 'VR', 'SV'] as const
).map((code) => ({ code, value: ADDRESS_QUALITY[code] }));

/** The code a stored quality shows as: 25 or below CNF, then up to the next option's value. */
export function qualityCode(quality: number): AddressQualityCode {
  if (quality <= ADDRESS_QUALITY.CNF) return 'CNF';
  if (quality < ADDRESS_QUALITY.DDS) return 'EST';
  if (quality < ADDRESS_QUALITY.VR) return 'DDS';
  if (quality < ADDRESS_QUALITY.SV) return 'VR';
  return 'SV';
}

/** Spec 03 §5: "Accept is disabled when quality is already 25 or more." */
export const ACCEPT_DISABLED_FROM = 25;
export const acceptDisabled = (quality: number): boolean => quality >= ACCEPT_DISABLED_FROM;

/** Parcel types and data qualities of spec 03 §5 (the others are the data's own, libs/geo codes.ts). */
export const PARCEL_TYPE_UNDER_INVESTIGATION = 90;
export const PARCEL_TYPE_UNADDRESSABLE = 100;
export const DATA_QUALITY_UNDER_INVESTIGATION = -10;
export const DATA_QUALITY_UNADDRESSABLE = -90;
/** What 'Validate Parcel' records as the parcel's data quality: checked (libs/geo DATA_QUALITY.verified). */
export const DATA_QUALITY_VERIFIED = 1;

export interface ParcelCodes {
  parcelTypeId: number;
  dataQualityId: number;
}

/** Spec 03 §5: "Investigate is disabled when parcel type is 90 or quality is -10." */
export const investigateDisabled = (parcel: ParcelCodes): boolean =>
  parcel.parcelTypeId === PARCEL_TYPE_UNDER_INVESTIGATION ||
  parcel.dataQualityId === DATA_QUALITY_UNDER_INVESTIGATION;

/** Spec 03 §5: "Un-Addressable is disabled when type is 100 or quality is -90." */
export const unAddressableDisabled = (parcel: ParcelCodes): boolean =>
  parcel.parcelTypeId === PARCEL_TYPE_UNADDRESSABLE || parcel.dataQualityId === DATA_QUALITY_UNADDRESSABLE;

/** A parcel marked un-addressable takes no address (the same test as Un-Addressable's disabling). */
export const isUnaddressable = unAddressableDisabled;
/** A parcel under investigation waits in the validators' queue (the same test as Investigate's). */
export const isUnderInvestigation = investigateDisabled;

/** Mark OFA is for addresses not yet official. */
export const officialDisabled = (address: { official: boolean }): boolean => address.official;

/** Detach is for a POI still attached to an address or an estate. */
export const detachDisabled = (poi: { addressId: string | null; parentId: string | null }): boolean =>
  poi.addressId === null && poi.parentId === null;

/**
 * The parcel types 'Validate Parcel' may set (not 90: validating ends an investigation). The labels are
 * the generator's and importers' codes (libs/geo codes.ts, docs/data-sources.md).
 */
export const VALIDATED_PARCEL_TYPES: readonly { id: number; label: string }[] = [
  { id: 1, label: 'Erf' },
  { id: 2, label: 'Sectional scheme or estate' },
  { id: 3, label: 'Business' },
  { id: 4, label: 'Institutional' },
  { id: 5, label: 'Farm or agricultural holding' },
  { id: PARCEL_TYPE_UNADDRESSABLE, label: 'Un-addressable' },
];

/** The data quality a validated parcel gets: un-addressable stays -90, everything else is checked. */
export const validatedDataQuality = (parcelTypeId: number): number =>
  parcelTypeId === PARCEL_TYPE_UNADDRESSABLE ? DATA_QUALITY_UNADDRESSABLE : DATA_QUALITY_VERIFIED;

/**
 * Spec 03 §2: 'Validate Parcel' appears only for users whose e-mail starts with one of the configured
 * prefixes (AVS_EDITOR_VALIDATOR_PREFIXES / config/avs-editor.json). Case does not matter; a blank prefix
 * lets nobody in (a stray comma must not open it to everyone).
 */
export function canValidateParcel(email: string, prefixes: readonly string[]): boolean {
  const address = email.trim().toLowerCase();
  return prefixes.some((prefix) => {
    const wanted = prefix.trim().toLowerCase();
    return wanted !== '' && address.startsWith(wanted);
  });
}

/** Spec 03 §5: street code and box code are padded to 4 digits ('' when there is none). */
export function padCode(code: string | number | null | undefined): string {
  if (code === null || code === undefined) return '';
  const text = String(code).trim();
  if (text === '') return '';
  return /^\d+$/.test(text) ? text.padStart(4, '0') : text;
}

/** A house number the editor takes: 1–5 digits and an optional letter (12, 12A). */
const HOUSE_NUMBER = /^[1-9][0-9]{0,4}[A-Za-z]?$/;

export const ADDRESS_EDITOR_TEXT = {
  houseNumber: 'The street number must be 1 to 5 digits, optionally followed by one letter (e.g. 12 or 12A).',
  unit: 'The unit must be letters, digits, spaces, "/" or "-" (at most 20).',
  poiName: 'The POI needs a name (at most 200 characters).',
} as const;

/** Why a house number is refused, or null when it is fine. */
export function houseNumberProblem(houseNumber: string): string | null {
  return HOUSE_NUMBER.test(houseNumber.trim()) ? null : ADDRESS_EDITOR_TEXT.houseNumber;
}

/** Why a unit is refused, or null (an absent or blank unit is fine). */
export function unitProblem(unit: string | null | undefined): string | null {
  if (unit === null || unit === undefined || unit.trim() === '') return null;
  return /^[A-Za-z0-9 /-]{1,20}$/.test(unit.trim()) ? null : ADDRESS_EDITOR_TEXT.unit;
}

/** The number part of a house number ("12A" → 12), as geo.addresses.number_value holds it. */
export function numberValue(houseNumber: string): number | null {
  const match = /^(\d+)/.exec(houseNumber.trim());
  return match ? Number(match[1]) : null;
}

/** A house number as stored: trimmed, the letter upper case ("12a" → "12A"). */
export const normaliseHouseNumber = (houseNumber: string): string => houseNumber.trim().toUpperCase();

/**
 * The statuses a can't-locate request waits in for the editor (its queue), and the one resolving it moves
 * it to: the place is found, which is all an AVS can't-locate request asks, so it is finished
 * (docs/decisions.md "Address editor").
 */
export const CANT_LOCATE_OPEN_STATUSES: readonly RequestStatus[] = [
  'New',
  'Ready for QS',
  'In progress',
  'Pending',
  'Query',
];
export const CANT_LOCATE_RESOLVED_STATUS: RequestStatus = 'Finalised';
export const cantLocateResolvable = (status: string): boolean =>
  (CANT_LOCATE_OPEN_STATUSES as readonly string[]).includes(status);

/** How long a dequeued parcel or request stays held without an edit, when the setting is absent. */
export const DEFAULT_HOLD_SECONDS = 15 * 60;
