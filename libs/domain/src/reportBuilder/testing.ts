/**
 * Builders of report entities for the report builder's tests (the rules' here, the screens' in
 * mf-reportbuilder through `@portal/domain/testing`): each fills in what a test does not care about.
 */
import {
  type ReportBuilding,
  type ReportFloor,
  type ReportImprovement,
  type ReportMarker,
  type ReportSection,
} from './types';

/** A marker on the report's image, placed in Stellenbosch (where the screens' tests put their property). */
export const marker = (number: number): ReportMarker => ({
  lat: -33.93,
  lng: 18.86,
  number,
  draggable: true,
});
export const floor = (size: number | null, doubleVolume = false, location = ''): ReportFloor => ({
  size,
  doubleVolume,
  location,
});
export const improvement = (
  name: string,
  numberOfUnits: number | null,
  rate: ReportImprovement['rate'],
): ReportImprovement => ({
  name,
  category: 'improvements',
  type: 'paving',
  class: 'A-s',
  rate,
  numberOfUnits,
  marker: marker(1),
});
export const building = (name: string, fields: Partial<ReportBuilding> = {}): ReportBuilding => ({
  name,
  improvements: [],
  category: 'buildings',
  type: 'dwelling',
  class: 'A-s',
  constructionType: 'Brick and Plaster',
  rate: 0,
  unit: 'no',
  numberOfUnits: null,
  floors: [],
  group: '',
  slope: false,
  slopePercentage: null,
  comment: '',
  ...fields,
});
export const section = (name: string, fields: Partial<ReportSection> = {}): ReportSection => ({
  name,
  type: 'residential',
  includeImage: true,
  comment: '',
  marker: null,
  buildings: [],
  improvements: [],
  groups: [],
  ...fields,
});
export const withMarkers = <T extends object>(items: T[]): T[] =>
  items.map((item, i) => ({ ...item, marker: marker(i + 1) }));
