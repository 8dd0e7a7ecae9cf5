import type { ReportMarker, ReportSection } from '@portal/domain';

/** A new section (spec 02 §3: includeImage true by default). A new building is the domain's emptyBuilding. */
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
