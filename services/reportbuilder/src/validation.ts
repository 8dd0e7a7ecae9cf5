import { SECTION_ID_PATTERN } from '@portal/contracts';
import {
  buildingNameError,
  buildingWarnings,
  groupNameError,
  improvementNameError,
  sectionPopupErrors,
  type ReportSections,
} from '@portal/domain';

/**
 * A save's sections checked with the rules of spec 02 §5 (libs/domain), every problem listed at once, each
 * saying where it is ("Section 'Main', building 2 'Garage': …"):
 * - section IDs: letters, digits, '_' and '-' (1–64);
 * - sections: name and type required, the name unique among the sections (case-insensitively);
 * - buildings: name required, unique among the section's buildings and improvements;
 * - groups: name required, unique in the section; improvements (in a section or a building): name required;
 * - §4.4: a section that has buildings cannot be deleted — a saved section missing from the save must have
 *   had no buildings, or have had them all moved to other sections of the save (by name).
 */
export const SECTION_TEXT = {
  badSectionId: (id: string) =>
    `Section ID '${id.slice(0, 80)}' may hold only letters, digits, '_' and '-' (1 to 64 characters).`,
  sectionHasBuildings: (name: string) =>
    `Section '${name}' has buildings: it can be deleted only when it has none (move or delete them first).`,
} as const;

const idPattern = new RegExp(SECTION_ID_PATTERN);
const label = (name: string, fallback: string) => (name.trim() === '' ? fallback : `'${name.trim()}'`);

export function sectionsProblems(sections: ReportSections, saved: ReportSections): string[] {
  const problems: string[] = [];
  for (const [id, section] of Object.entries(sections)) {
    if (!idPattern.test(id)) problems.push(SECTION_TEXT.badSectionId(id));
    const where = `Section ${label(section.name, id)}`;
    const popup = sectionPopupErrors({ name: section.name, type: section.type }, sections, id);
    if (popup.name) problems.push(`${where}: ${popup.name}`);
    if (popup.type) problems.push(`${where}: ${popup.type}`);
    section.buildings.forEach((building, i) => {
      const at = `${where}, building ${i + 1}${building.name.trim() ? ` '${building.name.trim()}'` : ''}`;
      const error = buildingNameError(building.name, section, i);
      if (error) problems.push(`${at}: ${error}`);
      building.improvements.forEach((improvement, j) => {
        const nameError = improvementNameError(improvement.name);
        if (nameError) problems.push(`${at}, improvement ${j + 1}: ${nameError}`);
      });
    });
    section.groups.forEach((group, i) => {
      const error = groupNameError(group.name, section, i);
      if (error) problems.push(`${where}, group ${i + 1}: ${error}`);
    });
    section.improvements.forEach((improvement, j) => {
      const error = improvementNameError(improvement.name);
      if (error) problems.push(`${where}, improvement ${j + 1}: ${error}`);
    });
  }
  const kept = new Set(
    Object.values(sections).flatMap((section) => section.buildings.map((b) => b.name.trim().toLowerCase())),
  );
  for (const [id, section] of Object.entries(saved)) {
    if (id in sections || section.buildings.length === 0) continue;
    if (section.buildings.some((b) => !kept.has(b.name.trim().toLowerCase())))
      problems.push(SECTION_TEXT.sectionHasBuildings(section.name.trim() || id));
  }
  return problems;
}

/** Spec 02 §5 building save warnings of every building, "Section 'x' / Building 'y': text" (they never block). */
export function buildingWarningLines(sections: ReportSections): string[] {
  const lines: string[] = [];
  for (const [id, section] of Object.entries(sections))
    section.buildings.forEach((building, i) => {
      for (const warning of buildingWarnings(building))
        lines.push(
          `Section ${label(section.name, id)} / Building ${label(building.name, String(i + 1))}: ${warning}`,
        );
    });
  return lines;
}
