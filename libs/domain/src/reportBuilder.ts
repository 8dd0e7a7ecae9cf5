/**
 * The report builder's rules (spec 02 §3 entities, §4.4 behaviour, §4.5 totals, §5 validation; issue 13),
 * pure, used by the report builder service (which stores and prices reports) and its web remote (which
 * shows them as they are edited). Money is worked in whole cents so that sums never carry float errors.
 */

// ---------------------------------------------------------------------------------------------------------
// §3 entities (the fields the rules need; the service's stored shapes may carry more)
// ---------------------------------------------------------------------------------------------------------

/** A marker on a report image; `number` is what its icon shows (spec 02 §3 "icon with the number as html"). */
export interface ReportMarker {
  lat: number;
  lng: number;
  number: number;
  draggable?: boolean;
}

/** Spec 02 §3 Building floors: size (m²), doubleVolume, location. A size not yet captured is null. */
export interface ReportFloor {
  size: number | null;
  doubleVolume: boolean;
  location: string;
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

// ---------------------------------------------------------------------------------------------------------
// Money: cents, rounding, the en-US format
// ---------------------------------------------------------------------------------------------------------

/**
 * Rounds half away from zero to a whole number. The value is first cut to 15 significant digits, so a
 * product such as 1.005 × 100 (= 100.49999999999999 in binary) rounds as the decimal it stands for.
 */
export function roundHalfAwayFromZero(value: number): number {
  const magnitude = Math.round(Number(Math.abs(value).toPrecision(15)));
  return value < 0 && magnitude !== 0 ? -magnitude : magnitude;
}

/** Rand to whole cents (half away from zero). */
export const toCents = (rand: number): number => roundHalfAwayFromZero(rand * 100);

/** Whole cents to rand (exact to 2 decimals as far as a double can say it). */
export const fromCents = (cents: number): number => cents / 100;

/** Rand rounded to 2 decimals (spec 02 §4.5 "Totals have 2 decimals"). */
export const roundMoney = (rand: number): number => fromCents(toCents(rand));

/**
 * Spec 02 §4.5: totals in the en-US format, 2 decimals, commas between thousands: 1234567.891 →
 * '1,234,567.89'. Formatted from whole cents, not with toFixed, so 1.005 gives '1.01'.
 */
export function formatMoney(rand: number): string {
  const cents = toCents(rand);
  const digits = String(Math.abs(cents)).padStart(3, '0');
  const whole = digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0 ? '-' : ''}${whole}.${digits.slice(-2)}`;
}

/**
 * An amount as typed: commas (thousands separators) and spaces stripped, blank → null, anything that is
 * not then a finite number → null. '1,234.5' → 1234.5. Numbers pass through (non-finite → null).
 */
export function parseAmount(value: CapturedAmount): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.replace(/[,\s]/g, '');
  if (text === '') return null;
  const amount = Number(text);
  return Number.isFinite(amount) ? amount : null;
}

/** Spec 02 §4.4: the extra field's value, blank → 0, commas stripped; null when it is not a number. */
export function parseExtraFieldValue(value: CapturedAmount): number | null {
  if (value == null || (typeof value === 'string' && value.trim() === '')) return 0;
  return parseAmount(value);
}

// ---------------------------------------------------------------------------------------------------------
// §4.5 rates, categories, construction types
// ---------------------------------------------------------------------------------------------------------

/** Spec 02 §4.5, §9: the rate tiers, named as the rate row's columns. */
export const RATE_TIERS = ['standard', 'inbetween', 'expensive'] as const;
export type RateTier = (typeof RATE_TIERS)[number];

/** Spec 02 §4.5: the class suffix that picks each tier ('A-s' → standard). */
export const RATE_TIER_BY_SUFFIX: Readonly<Record<string, RateTier>> = {
  s: 'standard',
  i: 'inbetween',
  e: 'expensive',
};

/** The tier of a class by its suffix -s, -i or -e (either case); null when it has none of them. */
export function rateTierOf(buildingClass: string): RateTier | null {
  const match = /-([sie])\s*$/i.exec(buildingClass);
  return match ? RATE_TIER_BY_SUFFIX[match[1]!.toLowerCase()]! : null;
}

/** The class without its tier suffix: 'A-s' → 'A'. */
export const classWithoutTier = (buildingClass: string): string =>
  buildingClass.trim().replace(/-[sie]$/i, '');

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The rate of a category / type / class in a group's rate table: the row of that category and type whose
 * class is the class with or without its tier suffix (case-insensitive), read in the suffix's tier. Null
 * when the class has no tier or no row matches.
 */
export function rateFor(
  rows: readonly RateTable[],
  selection: { category: string; type: string; class: string },
): number | null {
  const tier = rateTierOf(selection.class);
  if (!tier) return null;
  const bare = classWithoutTier(selection.class);
  const row = rows.find(
    (r) =>
      sameText(r.category, selection.category) &&
      sameText(r.type, selection.type) &&
      (sameText(r.class, selection.class) || sameText(r.class, bare)),
  );
  return row ? row[tier] : null;
}

/** Spec 02 §4.5: the section type whose category is 'Boundary Improvements'. */
export const PERIMETER_TYPE = 'Perimeter';
export const BOUNDARY_IMPROVEMENTS = 'Boundary Improvements';

/**
 * Spec 02 §4.5 section category: the type capitalised (first letter upper case, the rest lower case, as
 * the original's capitalize filter did: 'main HOUSE' → 'Main house'); 'Perimeter' (any case) →
 * 'Boundary Improvements'.
 */
export function sectionCategory(type: string): string {
  const text = type.trim();
  if (sameText(text, PERIMETER_TYPE)) return BOUNDARY_IMPROVEMENTS;
  return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();
}

/** Spec 02 §4.5: the construction types, verbatim and in the spec's order. */
export const CONSTRUCTION_TYPES = [
  'Brick and Plaster',
  'Brick and Steel Framework',
  'Facebrick',
  'Facebrick and Plaster',
  'Reinforced Concrete and Plaster',
  'Steel Frame',
  'Timber Frame',
  'Nutec',
  'Thatch, Brick & Plaster',
  'Thatch, Timber Frame',
] as const;
export type ConstructionType = (typeof CONSTRUCTION_TYPES)[number];

// ---------------------------------------------------------------------------------------------------------
// §4.5 totals
// ---------------------------------------------------------------------------------------------------------

/**
 * Units that mean "priced by floor area". A building's `unit` is its rate row's quantity (spec 03 §3,
 * 'no' by default: the rate is not per quantity, so per m²). Any other unit ('each', 'm', 'bay', ...)
 * prices the building by its number of units.
 */
export const AREA_UNITS = ['', 'no', 'm²', 'm2', 'sqm', 'm^2'] as const;

export type Pricing = 'area' | 'units';

/** How a building is priced: by floor area, or by number of units (see AREA_UNITS). */
export const pricingOf = (unit: string | null | undefined): Pricing =>
  (AREA_UNITS as readonly string[]).includes((unit ?? '').trim().toLowerCase()) ? 'area' : 'units';

const nonNegative = (value: number | null | undefined): number =>
  value != null && Number.isFinite(value) && value > 0 ? value : 0;

/**
 * Spec 02 §4.5 total area (m², not rounded): the sum of the floor sizes, each double-volume floor adding
 * its size × doubleVolumePercent / 100, and then, when slope is on, the whole × (1 + slopePercentage / 100).
 * The slope percent is an allowance for building on a slope, so it applies to the double-volume part too.
 * Missing or negative sizes and percentages count as 0.
 */
export function buildingArea(
  building: Pick<ReportBuilding, 'floors' | 'slope' | 'slopePercentage'>,
  doubleVolumePercent: number,
): number {
  const dv = nonNegative(doubleVolumePercent) / 100;
  let area = 0;
  for (const floor of building.floors) {
    const size = nonNegative(floor.size);
    area += floor.doubleVolume ? size * (1 + dv) : size;
  }
  return building.slope ? area * (1 + nonNegative(building.slopePercentage) / 100) : area;
}

/** A building's value in cents: area × rate, or numberOfUnits × rate when it is priced by units. */
export function buildingValueCents(
  building: Pick<ReportBuilding, 'floors' | 'slope' | 'slopePercentage' | 'rate' | 'unit' | 'numberOfUnits'>,
  doubleVolumePercent: number,
): number {
  const rate = nonNegative(parseAmount(building.rate));
  const quantity =
    pricingOf(building.unit) === 'units'
      ? nonNegative(building.numberOfUnits)
      : buildingArea(building, doubleVolumePercent);
  return toCents(quantity * rate);
}

/** An improvement's value in cents: numberOfUnits × rate. */
export const improvementValueCents = (
  improvement: Pick<ReportImprovement, 'rate' | 'numberOfUnits'>,
): number => toCents(nonNegative(improvement.numberOfUnits) * nonNegative(parseAmount(improvement.rate)));

export interface BuildingTotals {
  /** m², rounded to 2 decimals (0 for a building priced by units). */
  area: number;
  value: number;
  /** The building's own improvements. */
  improvements: number;
  /** value + improvements. */
  total: number;
}

export interface SectionTotals {
  buildings: BuildingTotals[];
  improvements: number[];
  subtotal: number;
}

export interface ReportTotals {
  sections: Record<string, SectionTotals>;
  /** The extra field's value when included, else 0. */
  extraField: number;
  subtotal: number;
  professionalFee: number;
  vat: number;
  grandTotal: number;
  /** The same figures in whole cents, for storing and summing. */
  cents: { subtotal: number; professionalFee: number; vat: number; grandTotal: number };
}

const percentOfCents = (cents: number, percent: number) => roundHalfAwayFromZero((cents * percent) / 100);

/**
 * Spec 02 §4.5 totals. Each line (building, improvement) is rounded to cents on its own, as the report
 * prints it, and the subtotals are sums of those lines, so the printed figures always add up:
 * - section subtotal = its buildings + their improvements + the section's improvements;
 * - report subtotal = the sections + the extra field's value when it is included (a betterment is part of
 *   what is insured, so it carries fee and VAT too);
 * - professional fee = professionalFeePercentage of the subtotal when the group includes it, else 0;
 * - VAT = vatPercentage of (subtotal + fee) when the group includes VAT, else 0;
 * - grand total = subtotal + fee + VAT.
 * Sections are taken in their key order (the order they were added).
 */
export function reportTotals(
  sections: ReportSections,
  extraField: ExtraField | null | undefined,
  settings: TotalsSettings,
): ReportTotals {
  const bySection: Record<string, SectionTotals> = {};
  let subtotalCents = 0;
  for (const [id, section] of Object.entries(sections)) {
    let sectionCents = 0;
    const buildings = section.buildings.map((building) => {
      const valueCents = buildingValueCents(building, settings.doubleVolumePercent);
      const improvementsCents = building.improvements.reduce((sum, i) => sum + improvementValueCents(i), 0);
      sectionCents += valueCents + improvementsCents;
      return {
        area:
          pricingOf(building.unit) === 'area'
            ? roundMoney(buildingArea(building, settings.doubleVolumePercent))
            : 0,
        value: fromCents(valueCents),
        improvements: fromCents(improvementsCents),
        total: fromCents(valueCents + improvementsCents),
      };
    });
    const improvements = section.improvements.map((i) => {
      const cents = improvementValueCents(i);
      sectionCents += cents;
      return fromCents(cents);
    });
    bySection[id] = { buildings, improvements, subtotal: fromCents(sectionCents) };
    subtotalCents += sectionCents;
  }
  const extraCents = extraField?.include ? toCents(parseExtraFieldValue(extraField.value) ?? 0) : 0;
  subtotalCents += extraCents;
  const feeCents = settings.includeProfessionalFee
    ? percentOfCents(subtotalCents, settings.professionalFeePercentage)
    : 0;
  const vatCents = settings.includeVAT ? percentOfCents(subtotalCents + feeCents, settings.vatPercentage) : 0;
  const grandCents = subtotalCents + feeCents + vatCents;
  return {
    sections: bySection,
    extraField: fromCents(extraCents),
    subtotal: fromCents(subtotalCents),
    professionalFee: fromCents(feeCents),
    vat: fromCents(vatCents),
    grandTotal: fromCents(grandCents),
    cents: { subtotal: subtotalCents, professionalFee: feeCents, vat: vatCents, grandTotal: grandCents },
  };
}

// ---------------------------------------------------------------------------------------------------------
// §5 validation
// ---------------------------------------------------------------------------------------------------------

/** Spec 02 §5 building save warnings, verbatim (shown for 3 s; they warn, they do not block the save). */
export const BUILDING_WARNING = {
  noConstructionType: 'You did not select a construction type.',
  noFloors: "You've not captured floor details",
  floorWithoutSize: 'One or more floors need a size',
  noRate: 'You did not capture a rate. This will result in a report that is inaccurate.',
  noUnitCount: 'The unit count needs to be selected',
} as const;

/** Spec 02 §5: how long the building save warnings are shown (ms). */
export const BUILDING_WARNING_MS = 3000;

/**
 * The inline errors of the name and fee fields. The spec names them ("empty error", "unique error", "each
 * with its own error") but gives no text: these texts are ours.
 */
export const REPORT_BUILDER_ERROR = {
  buildingNameRequired: 'Please enter a name for the building.',
  buildingNameTaken: 'A building or improvement with this name already exists in this section.',
  groupNameRequired: 'Please enter a name for the group.',
  groupNameTaken: 'A group with this name already exists in this section.',
  sectionNameRequired: 'Please enter a name for the section.',
  sectionTypeRequired: 'Please select a type for the section.',
  sectionNameTaken: 'A section with this name already exists.',
  improvementNameRequired: 'Please enter a name for the improvement.',
  feeTypeRequired: 'Please select a property type.',
  feeBuildingsRequired: 'Please enter the number of buildings.',
  feePriceRequired: 'Please enter the price.',
  buildingsNotCount: 'The number of buildings must be a whole number of 0 or more.',
  priceNotAmount: 'The price must be a number of 0 or more.',
} as const;

const isBlank = (text: string | null | undefined) => (text ?? '').trim() === '';

/** True when `name` equals (trimmed, case-insensitively) one of `names`. */
export const nameTaken = (name: string, names: readonly string[]): boolean =>
  names.some((other) => sameText(other, name));

/**
 * Spec 02 §5: a building's name is required and unique in its section, among its buildings and the
 * section's improvements, case-insensitively. `selfIndex` is the building's own place when it is edited
 * (it does not clash with itself). Answers the error text, or null.
 */
export function buildingNameError(
  name: string,
  section: Pick<ReportSection, 'buildings' | 'improvements'>,
  selfIndex?: number,
): string | null {
  if (isBlank(name)) return REPORT_BUILDER_ERROR.buildingNameRequired;
  const others = [
    ...section.buildings.filter((_, i) => i !== selfIndex).map((b) => b.name),
    ...section.improvements.map((i) => i.name),
  ];
  return nameTaken(name, others) ? REPORT_BUILDER_ERROR.buildingNameTaken : null;
}

/** Spec 02 §5: a group's name is required and unique among the section's groups, case-insensitively. */
export function groupNameError(
  name: string,
  section: Pick<ReportSection, 'groups'>,
  selfIndex?: number,
): string | null {
  if (isBlank(name)) return REPORT_BUILDER_ERROR.groupNameRequired;
  const others = section.groups.filter((_, i) => i !== selfIndex).map((g) => g.name);
  return nameTaken(name, others) ? REPORT_BUILDER_ERROR.groupNameTaken : null;
}

/**
 * Spec 02 §5 section popup: name and type required, the name unique among the report's sections
 * (case-insensitively). `selfId` is the section's own ID when it is edited.
 */
export function sectionPopupErrors(
  input: { name: string; type: string },
  sections: ReportSections,
  selfId?: string,
): { name?: string; type?: string } {
  const errors: { name?: string; type?: string } = {};
  const others = Object.entries(sections)
    .filter(([id]) => id !== selfId)
    .map(([, s]) => s.name);
  if (isBlank(input.name)) errors.name = REPORT_BUILDER_ERROR.sectionNameRequired;
  else if (nameTaken(input.name, others)) errors.name = REPORT_BUILDER_ERROR.sectionNameTaken;
  if (isBlank(input.type)) errors.type = REPORT_BUILDER_ERROR.sectionTypeRequired;
  return errors;
}

/** Spec 02 §5 improvement popup: the name is required (improvement names need not be unique). */
export const improvementNameError = (name: string): string | null =>
  isBlank(name) ? REPORT_BUILDER_ERROR.improvementNameRequired : null;

/** Spec 02 §5: the category whose buildings need a construction type. */
export const CATEGORY_NEEDING_CONSTRUCTION_TYPE = 'buildings';

/**
 * Spec 02 §5 building save warnings, in the spec's order. A building priced by area needs floors, each
 * with a size above 0; one priced by units needs its unit count (a number above 0) instead. Any building
 * needs a rate above 0 (a new rate row's rates are 0, so 0 means "not captured").
 */
export function buildingWarnings(
  building: Pick<
    ReportBuilding,
    'category' | 'constructionType' | 'floors' | 'rate' | 'unit' | 'numberOfUnits'
  >,
): string[] {
  const warnings: string[] = [];
  if (sameText(building.category, CATEGORY_NEEDING_CONSTRUCTION_TYPE) && isBlank(building.constructionType))
    warnings.push(BUILDING_WARNING.noConstructionType);
  const byArea = pricingOf(building.unit) === 'area';
  if (byArea && building.floors.length === 0) warnings.push(BUILDING_WARNING.noFloors);
  if (byArea && building.floors.some((f) => !(nonNegative(f.size) > 0)))
    warnings.push(BUILDING_WARNING.floorWithoutSize);
  if (!(nonNegative(parseAmount(building.rate)) > 0)) warnings.push(BUILDING_WARNING.noRate);
  if (!byArea && !(nonNegative(building.numberOfUnits) > 0)) warnings.push(BUILDING_WARNING.noUnitCount);
  return warnings;
}

/** Spec 02 §5: the number of buildings cell, a whole number ≥ 0 (a count; the API's Count schema). */
export const isBuildingCount = (value: unknown): boolean =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** Spec 02 §5: the unit price cell, a finite number ≥ 0. */
export const isUnitPrice = (value: unknown): boolean =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * Spec 02 §5 fee dialog: type, buildings and price each required, with its own error; buildings a whole
 * number ≥ 0 and price a number ≥ 0 (typed text is read with parseAmount).
 */
export function feeDialogErrors(input: {
  type: string | null | undefined;
  buildings: CapturedAmount;
  price: CapturedAmount;
}): { type?: string; buildings?: string; price?: string } {
  const errors: { type?: string; buildings?: string; price?: string } = {};
  if (isBlank(input.type)) errors.type = REPORT_BUILDER_ERROR.feeTypeRequired;
  const buildings = parseAmount(input.buildings);
  const price = parseAmount(input.price);
  if (input.buildings == null || (typeof input.buildings === 'string' && isBlank(input.buildings)))
    errors.buildings = REPORT_BUILDER_ERROR.feeBuildingsRequired;
  else if (!isBuildingCount(buildings)) errors.buildings = REPORT_BUILDER_ERROR.buildingsNotCount;
  if (input.price == null || (typeof input.price === 'string' && isBlank(input.price)))
    errors.price = REPORT_BUILDER_ERROR.feePriceRequired;
  else if (!isUnitPrice(price)) errors.price = REPORT_BUILDER_ERROR.priceNotAmount;
  return errors;
}

/** Spec 02 §5, §9: the crop box's aspect ratio (width / height) and minimum size (px). */
export const CROP_ASPECT_RATIO = 2;
export const CROP_MIN_WIDTH = 640;
export const CROP_MIN_HEIGHT = 400;
/**
 * A box of ratio 2 at least 640 wide and 400 high is at least 800 × 400: the height minimum binds
 * (640 / 400 is 1.6, not 2), so that is the smallest crop there is.
 */
export const CROP_SMALLEST = {
  width: Math.max(CROP_MIN_WIDTH, CROP_MIN_HEIGHT * CROP_ASPECT_RATIO),
  height: Math.max(CROP_MIN_HEIGHT, CROP_MIN_WIDTH / CROP_ASPECT_RATIO),
} as const;

export interface CropBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Spec 02 §5: a crop box is valid when its ratio is 2 (within one pixel of rounding), it is at least
 * 640 × 400 and, given the image size, it lies inside the image.
 */
export function cropBoxValid(box: CropBox, image?: { width: number; height: number }): boolean {
  const finite = [box.x, box.y, box.width, box.height].every(Number.isFinite);
  if (!finite || box.width < CROP_MIN_WIDTH || box.height < CROP_MIN_HEIGHT) return false;
  if (Math.abs(box.width - box.height * CROP_ASPECT_RATIO) > 1) return false;
  if (!image) return true;
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= image.width && box.y + box.height <= image.height;
}

/**
 * The nearest valid crop box: the box's width (at least 800, at most the image's width, and no wider than
 * twice the image's height) sets the height at half of it, in whole even pixels; the box then moves inside
 * the image. Null when the image is smaller than 800 × 400, where no crop can be valid.
 */
export function clampCropBox(box: CropBox, image: { width: number; height: number }): CropBox | null {
  const maxWidth = Math.min(image.width, image.height * CROP_ASPECT_RATIO);
  if (!(maxWidth >= CROP_SMALLEST.width)) return null;
  const wanted = Number.isFinite(box.width) ? box.width : CROP_SMALLEST.width;
  let width = Math.min(Math.max(wanted, CROP_SMALLEST.width), maxWidth);
  width = Math.floor(width / CROP_ASPECT_RATIO) * CROP_ASPECT_RATIO;
  const height = width / CROP_ASPECT_RATIO;
  const clamp = (value: number, max: number) =>
    Math.min(Math.max(Number.isFinite(value) ? value : 0, 0), max);
  return {
    x: Math.round(clamp(box.x, image.width - width)),
    y: Math.round(clamp(box.y, image.height - height)),
    width,
    height,
  };
}

/** Spec 02 §5: clipboard paste accepts PNG images only. */
export const PASTE_MIME_TYPE = 'image/png';

/** True for a PNG's MIME type (any case; parameters such as ';charset' ignored). */
export const isPastableImage = (mimeType: string | null | undefined): boolean =>
  (mimeType ?? '').split(';')[0]!.trim().toLowerCase() === PASTE_MIME_TYPE;

// ---------------------------------------------------------------------------------------------------------
// §4.4 behaviour
// ---------------------------------------------------------------------------------------------------------

/** Spec 02 §4.4: the warning when the window is closed. */
export const CLOSE_WINDOW_WARNING = 'If you close this window, you will lose all unsaved changes.';

/** Spec 02 §4.4: what a reset dropdown shows, and what the rate (which may be typed in) shows. */
export const PLEASE_SELECT_A_VALUE = 'Please select a value';
export const PLEASE_SELECT_OR_TYPE = 'Please select or type in value';

/** Spec 02 §4.4: the cascading rate dropdowns, top to bottom. */
export const RATE_LEVELS = ['category', 'type', 'class', 'rate'] as const;
export type RateLevel = (typeof RATE_LEVELS)[number];
export type RateSelection = Record<RateLevel, string>;

/** The placeholder a level shows when it has no value. */
export const placeholderOf = (level: RateLevel): string =>
  level === 'rate' ? PLEASE_SELECT_OR_TYPE : PLEASE_SELECT_A_VALUE;

/** A selection with nothing chosen. */
export const EMPTY_RATE_SELECTION: Readonly<RateSelection> = {
  category: PLEASE_SELECT_A_VALUE,
  type: PLEASE_SELECT_A_VALUE,
  class: PLEASE_SELECT_A_VALUE,
  rate: PLEASE_SELECT_OR_TYPE,
};

/** True when a level's value is a placeholder (nothing chosen). */
export const isPlaceholder = (value: string): boolean =>
  value === PLEASE_SELECT_A_VALUE || value === PLEASE_SELECT_OR_TYPE || value.trim() === '';

/**
 * Spec 02 §4.4: sets `level` to `value` and resets every lower level to its placeholder. Choosing the
 * value a level already has changes nothing (the lower choices still fit it).
 */
export function changeRateLevel(selection: RateSelection, level: RateLevel, value: string): RateSelection {
  if (selection[level] === value) return { ...selection };
  const next = { ...selection, [level]: value };
  for (const lower of RATE_LEVELS.slice(RATE_LEVELS.indexOf(level) + 1)) next[lower] = placeholderOf(lower);
  return next;
}

/** Spec 02 §4.4, §9: marker numbers start at 1. */
export const FIRST_MARKER_NUMBER = 1;

type WithMarker = { marker?: ReportMarker | null };

/** Spec 02 §4.4: numbers the items' markers 1..n in list order (items without a marker keep none). */
export function renumberMarkers<T extends WithMarker>(items: readonly T[]): T[] {
  return items.map((item, i) =>
    item.marker ? { ...item, marker: { ...item.marker, number: FIRST_MARKER_NUMBER + i } } : { ...item },
  );
}

/** The number the next added marker gets. */
export const nextMarkerNumber = (items: readonly unknown[]): number => FIRST_MARKER_NUMBER + items.length;

/** Spec 02 §4.4: removes the item at `index` and renumbers the rest. */
export const removeAndRenumber = <T extends WithMarker>(items: readonly T[], index: number): T[] =>
  renumberMarkers(items.filter((_, i) => i !== index));

/** Spec 02 §4.4: a section can be deleted only when it has no buildings. */
export const canDeleteSection = (section: Pick<ReportSection, 'buildings'>): boolean =>
  section.buildings.length === 0;

/**
 * Deletes a section (only one without buildings) and renumbers the other sections' markers in key
 * order. Null when the section does not exist or still has buildings.
 */
export function deleteSection(sections: ReportSections, sectionId: string): ReportSections | null {
  const section = sections[sectionId];
  if (!section || !canDeleteSection(section)) return null;
  const rest = Object.entries(sections).filter(([id]) => id !== sectionId);
  const renumbered = renumberMarkers(rest.map(([, s]) => s));
  return Object.fromEntries(rest.map(([id], i) => [id, renumbered[i]!]));
}

/** Spec 02 §4.4: the first section's name when the list is empty. */
export const DEFAULT_SECTION_NAME = 'DEFAULT';

/** The name a new section's popup starts with: 'DEFAULT' for the first section, else blank. */
export const newSectionName = (sections: ReportSections): string =>
  Object.keys(sections).length === 0 ? DEFAULT_SECTION_NAME : '';

export type MoveBuildingResult =
  | { ok: true; sections: ReportSections }
  | { ok: false; reason: 'unknown section' | 'unknown building' | 'same section' | 'name taken' };

/**
 * Spec 02 §4.4: moves a building to another section. It is added at the end of the target's buildings
 * with the next number there (its marker position kept, to be dragged into place), removed from its old
 * section, and the old section's buildings are renumbered. It is refused when its name is already used
 * in the target (§5 uniqueness) or the target is the section it is in.
 */
export function moveBuilding(
  sections: ReportSections,
  fromSectionId: string,
  buildingIndex: number,
  toSectionId: string,
): MoveBuildingResult {
  const from = sections[fromSectionId];
  const to = sections[toSectionId];
  if (!from || !to) return { ok: false, reason: 'unknown section' };
  const building = from.buildings[buildingIndex];
  if (!building) return { ok: false, reason: 'unknown building' };
  if (fromSectionId === toSectionId) return { ok: false, reason: 'same section' };
  if (buildingNameError(building.name, to) !== null) return { ok: false, reason: 'name taken' };
  const moved: ReportBuilding = building.marker
    ? { ...building, marker: { ...building.marker, number: nextMarkerNumber(to.buildings) } }
    : { ...building };
  return {
    ok: true,
    sections: {
      ...sections,
      [fromSectionId]: { ...from, buildings: removeAndRenumber(from.buildings, buildingIndex) },
      [toSectionId]: { ...to, buildings: [...to.buildings, moved] },
    },
  };
}

/** An empty floor, as a floor row starts. */
export const emptyFloor = (): ReportFloor => ({ size: null, doubleVolume: false, location: '' });

/**
 * Spec 02 §4.4: the floors fitted to the floor count: cut to it, and grown with empty floors up to it (so
 * there is a row to capture each floor's size; empty ones raise 'One or more floors need a size'). A
 * fractional count is taken down to a whole one, a negative one is 0, a non-number leaves the floors as
 * they are.
 */
export function fitFloors(floors: readonly ReportFloor[], count: number): ReportFloor[] {
  const n = Number.isFinite(count) ? Math.max(0, Math.floor(count)) : floors.length;
  const kept = floors.slice(0, n).map((f) => ({ ...f }));
  while (kept.length < n) kept.push(emptyFloor());
  return kept;
}

// ---------------------------------------------------------------------------------------------------------
// Beyond the spec (issue 13): the sum-insured check
// ---------------------------------------------------------------------------------------------------------

/** Issue 13: how far the sum insured may be from the report's grand total (percent) and still be right. */
export const DEFAULT_SUM_INSURED_TOLERANCE_PERCENT = 10;

export type InsuranceVerdict = 'under-insured' | 'over-insured' | 'within';

/**
 * Issue 13: the client's sum insured against the report's replacement value (its grand total).
 * differencePercent = (sumInsured − grandTotal) / grandTotal × 100, rounded to 2 decimals (negative when
 * under-insured). Within the tolerance, its limits included, is 'within'. Null when there is no sum insured
 * (null, negative or not finite) or no replacement value to compare with (grand total 0 or less).
 */
export function sumInsuredCheck(
  sumInsured: number | null | undefined,
  grandTotal: number,
  tolerancePercent: number = DEFAULT_SUM_INSURED_TOLERANCE_PERCENT,
): { verdict: InsuranceVerdict; differencePercent: number } | null {
  if (sumInsured == null || !Number.isFinite(sumInsured) || sumInsured < 0) return null;
  if (!Number.isFinite(grandTotal) || grandTotal <= 0) return null;
  const tolerance = nonNegative(tolerancePercent);
  // Compared in cents so that e.g. 90 % of a total is exactly at the limit, not a float hair off it.
  const sumCents = toCents(sumInsured);
  const totalCents = toCents(grandTotal);
  const differenceCents = sumCents - totalCents;
  const limitCents = (totalCents * tolerance) / 100;
  const verdict: InsuranceVerdict =
    differenceCents < -limitCents
      ? 'under-insured'
      : differenceCents > limitCents
        ? 'over-insured'
        : 'within';
  const differencePercent = roundHalfAwayFromZero((differenceCents / totalCents) * 10000) / 100;
  return { verdict, differencePercent: differencePercent === 0 ? 0 : differencePercent };
}
