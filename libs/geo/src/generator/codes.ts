/**
 * The address editor's codes the generator writes (spec 03 §3, §5). Parcel types 90 (under
 * investigation) and 100 (un-addressable) and data qualities -10 and -90 are the spec's; the others are
 * this project's (docs/data-sources.md lists them).
 */
export const PARCEL_TYPE = {
  /** A residential erf in a township. */
  erf: 1,
  /** A sectional-title scheme or gated estate: one parcel, many units. */
  sectionalScheme: 2,
  /** Business erf: shops, fuel stations, offices. */
  business: 3,
  /** Schools, clinics, hospitals, police stations, churches, libraries. */
  institutional: 4,
  /** An agricultural holding: a farm or a portion of one. */
  farm: 5,
  underInvestigation: 90,
  unAddressable: 100,
} as const;

export const DATA_QUALITY = {
  unverified: 0,
  /** Checked against the Surveyor-General's diagram. */
  verified: 1,
  underInvestigation: -10,
  unAddressable: -90,
} as const;

/** Address quality (spec 03 §5): CNF (25 or below), DDS 40, VR 50, SV 60. */
export const ADDRESS_QUALITY = { cnf: 25, dds: 40, vr: 50, sv: 60 } as const;

export const POI_TYPE = { address: 10000, estate: 10500, unit: 11000 } as const;
