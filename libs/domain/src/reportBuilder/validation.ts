/**
 * Spec 02 §5 validation: the building save warnings, the name and fee fields' errors (names required and
 * unique where the spec says so) and the grid cells' checks.
 */
import { isBlank, nonNegative, sameText } from './internal';
import { parseAmount } from './money';
import { pricingOf } from './totals';
import { type CapturedAmount, type ReportBuilding, type ReportSection, type ReportSections } from './types';

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
