/**
 * Spec 02 §4.5 totals: a building's area and value, an improvement's value, and a report's subtotals,
 * professional fee, VAT and grand total, each line rounded to cents as the report prints it.
 */
import { nonNegative } from './internal';
import {
  fromCents,
  parseAmount,
  parseExtraFieldValue,
  roundHalfAwayFromZero,
  roundMoney,
  toCents,
} from './money';
import {
  type ExtraField,
  type ReportBuilding,
  type ReportImprovement,
  type ReportSections,
  type TotalsSettings,
} from './types';

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
