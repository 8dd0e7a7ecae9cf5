/**
 * Spec 02 §4.4 behaviour while a report is edited: the close warning, the cascading rate dropdowns, marker
 * numbers, deleting sections, moving buildings between sections, and fitting the floors to their count.
 */
import { buildingNameError } from './validation';
import {
  type ReportBuilding,
  type ReportFloor,
  type ReportMarker,
  type ReportSection,
  type ReportSections,
} from './types';

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

/** A new building: nothing chosen yet ('no' unit: priced by floor area, spec 03 §3's default quantity). */
export const emptyBuilding = (name: string, marker: ReportMarker | null): ReportBuilding => ({
  name,
  marker,
  improvements: [],
  category: '',
  type: '',
  class: '',
  constructionType: '',
  rate: null,
  unit: 'no',
  numberOfUnits: null,
  floors: [],
  group: '',
  slope: false,
  slopePercentage: null,
  comment: '',
});

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
