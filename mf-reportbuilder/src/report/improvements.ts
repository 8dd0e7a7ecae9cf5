import {
  nextMarkerNumber,
  removeAndRenumber,
  type ReportImprovement,
  type ReportMarker,
  type ReportSections,
} from '@portal/domain';

/**
 * Where an improvement lives (spec 02 §3 "Improvement (in a section or a building)"): the section, the
 * building's place in it (null: directly in the section) and the improvement's place in its list (0-based,
 * the `improvementID` of the screens).
 */
export interface ImprovementPlace {
  sectionID: string;
  /** The building's index in the section, or null for an improvement of the section. */
  building: number | null;
}

/** A place from the screens' parameters (a building ID that is not a whole number ≥ 0 finds nothing). */
export const placeOf = (sectionID: string, buildingID: string | null): ImprovementPlace => ({
  sectionID,
  building: buildingID === null ? null : Number.isInteger(Number(buildingID)) ? Number(buildingID) : -1,
});

/** An index parameter (improvementID, buildingID) as a list index, or null. */
export const indexOf = (id: string | null): number | null => {
  if (id === null || id.trim() === '') return null;
  const index = Number(id);
  return Number.isInteger(index) && index >= 0 ? index : null;
};

/** The improvements at `place`, or undefined when the section or building does not exist. */
export function improvementsAt(
  sections: ReportSections,
  place: ImprovementPlace,
): readonly ReportImprovement[] | undefined {
  const section = sections[place.sectionID];
  if (!section) return undefined;
  if (place.building === null) return section.improvements;
  return section.buildings[place.building]?.improvements;
}

/** The sections with the improvements at `place` replaced by `update`'s (unchanged when there are none). */
export function withImprovements(
  sections: ReportSections,
  place: ImprovementPlace,
  update: (improvements: readonly ReportImprovement[]) => ReportImprovement[],
): ReportSections {
  const section = sections[place.sectionID];
  if (!section) return sections;
  if (place.building === null)
    return { ...sections, [place.sectionID]: { ...section, improvements: update(section.improvements) } };
  const building = section.buildings[place.building];
  if (!building) return sections;
  return {
    ...sections,
    [place.sectionID]: {
      ...section,
      buildings: section.buildings.map((b, i) =>
        i === place.building ? { ...b, improvements: update(b.improvements) } : b,
      ),
    },
  };
}

/** The sections with the improvement at `index` of `place` replaced. */
export const withImprovement = (
  sections: ReportSections,
  place: ImprovementPlace,
  index: number,
  improvement: ReportImprovement,
): ReportSections =>
  withImprovements(sections, place, (list) => list.map((old, i) => (i === index ? improvement : old)));

/** A new improvement: nothing chosen yet, its marker numbered after the others (spec 02 §4.4). */
export const emptyImprovement = (
  name: string,
  others: readonly unknown[],
  point: { lat: number; lng: number } | null | undefined,
): ReportImprovement => ({
  name,
  marker: point
    ? { lat: point.lat, lng: point.lng, number: nextMarkerNumber(others), draggable: true }
    : null,
  structure: '',
  category: '',
  type: '',
  class: '',
  rate: null,
  unit: '',
  numberOfUnits: null,
});

/** Adds an improvement at the end of a list. */
export const addImprovement = (
  list: readonly ReportImprovement[],
  name: string,
  point: { lat: number; lng: number } | null | undefined,
): ReportImprovement[] => [...list, emptyImprovement(name, list, point)];

/** Deletes an improvement and renumbers the markers of the rest (spec 02 §4.4). */
export const deleteImprovement = (list: readonly ReportImprovement[], index: number): ReportImprovement[] =>
  removeAndRenumber(list, index);

/** Spec 02 §2.1 leaflet-page: the improvement's marker moved to the point clicked (its number kept). */
export const markedAt = (
  improvement: ReportImprovement,
  list: readonly ReportImprovement[],
  index: number,
  lat: number,
  lng: number,
): ReportImprovement => {
  const round = (value: number) => Math.round(value * 1e7) / 1e7;
  const marker: ReportMarker = {
    lat: round(Math.max(-90, Math.min(90, lat))),
    lng: round(Math.max(-180, Math.min(180, lng))),
    number: improvement.marker?.number ?? nextMarkerNumber(list.slice(0, index)),
    draggable: improvement.marker?.draggable ?? true,
  };
  return { ...improvement, marker };
};
