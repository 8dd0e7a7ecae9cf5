/** Spec 02 §4.5: rate tiers and the group's rate table, section categories, construction types. */
import { sameText } from './internal';
import { type RateTable } from './types';

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
