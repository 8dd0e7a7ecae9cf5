import type { ReportBuilding, ReportMarker, ReportSection } from '@portal/domain';

/** A new section (spec 02 §3: includeImage true by default). */
export const emptySection = (name: string, type: string, marker: ReportMarker | null): ReportSection => ({
  name,
  type,
  includeImage: true,
  comment: '',
  marker,
  buildings: [],
  improvements: [],
  groups: [],
});

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
