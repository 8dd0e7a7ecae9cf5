/**
 * The report builder's entities (spec 02 §3): the fields the rules need; the service's stored shapes may
 * carry more.
 */

/** A marker on a report image; `number` is what its icon shows (spec 02 §3 "icon with the number as html"). */
export interface ReportMarker {
  lat: number;
  lng: number;
  number: number;
  draggable?: boolean;
}

/**
 * Where a floor's size came from when it was measured on the portal's imagery (issue 21): a measurement of
 * the request (an area traced on a survey's ortho) or a building footprint of a survey ('Building Size
 * Calculation'), with the figure and the survey's capture date. `edited`: the size was changed by hand
 * since (the service sets it whenever the size no longer equals `value`).
 */
export interface FloorMeasurement {
  measurementId?: string;
  footprintId?: string;
  /** m², as measured (2 decimals). */
  value: number;
  surveyId: number;
  /** YYYY-MM-DD. */
  capturedOn: string;
  edited?: boolean;
}

/** Spec 02 §3 Building floors: size (m²), doubleVolume, location. A size not yet captured is null. */
export interface ReportFloor {
  size: number | null;
  doubleVolume: boolean;
  location: string;
  /** Issue 21: the size was measured on the imagery (absent or null: typed). */
  measured?: FloorMeasurement | null;
}

/**
 * A rate as captured: the rate dropdown may be typed in ('Please select or type in value'), so it may
 * still be text ('13,500') or nothing.
 */
export type CapturedAmount = number | string | null | undefined;

/** Spec 02 §3 Improvement (in a section or in a building). */
export interface ReportImprovement {
  name: string;
  marker?: ReportMarker | null;
  structure?: string;
  category: string;
  type: string;
  class: string;
  rate: CapturedAmount;
  unit?: string;
  numberOfUnits: number | null;
}

/** Spec 02 §3 Building. */
export interface ReportBuilding {
  name: string;
  marker?: ReportMarker | null;
  improvements: ReportImprovement[];
  category: string;
  type: string;
  class: string;
  constructionType: string;
  rate: CapturedAmount;
  unit: string;
  numberOfUnits: number | null;
  floors: ReportFloor[];
  group: string;
  slope: boolean;
  slopePercentage: number | null;
  comment: string;
}

/** Spec 02 §3 Sections (one RVE each). */
export interface ReportSection {
  name: string;
  type: string;
  includeImage: boolean;
  comment: string;
  marker?: ReportMarker | null;
  buildings: ReportBuilding[];
  improvements: ReportImprovement[];
  groups: { name: string }[];
}

/** Spec 02 §3: the sections of a request's savi report, keyed by section ID. */
export type ReportSections = Record<string, ReportSection>;

/** Spec 02 §3 Report details extraField (the group's extra field, 'Betterments' by default, spec 03 §3). */
export interface ExtraField {
  include: boolean;
  description: string;
  value: CapturedAmount;
}

/** Spec 02 §3 Rate row (per group); the three tiers are rand amounts. */
export interface RateTable {
  category: string;
  type: string;
  class: string;
  quantity?: string;
  standard: number;
  inbetween: number;
  expensive: number;
}

/** The group's and report's settings the totals need (spec 02 §1 "from the user's group", §3 vatPercentage). */
export interface TotalsSettings {
  doubleVolumePercent: number;
  includeProfessionalFee: boolean;
  professionalFeePercentage: number;
  includeVAT: boolean;
  vatPercentage: number;
}
