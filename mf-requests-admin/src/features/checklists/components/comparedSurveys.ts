import type { BuildingChange, ChangesAnswer, Survey } from '@portal/contracts';
import { formatSaIsoDate } from '@portal/domain';

/**
 * Which two surveys the checklists compare for "Changes since the survey before this request" (issue 21;
 * the choice is in the remote's README): `to` is the newest survey at the property; `from` is the newest
 * survey captured on or before the day the request was logged (South African day) that is older than
 * `to` — what the client's sum insured could have known — or, when every earlier survey was captured
 * after the request was logged, the survey just before `to`. Null when there are fewer than two surveys.
 */
export function comparedSurveys(
  surveys: readonly Survey[],
  loggedAt: string,
): { from: Survey; to: Survey } | null {
  // Newest first whatever order they came in (the locator answers newest first; this does not rely on it).
  const newestFirst = [...surveys].sort((a, b) =>
    a.capturedOn === b.capturedOn ? b.id - a.id : a.capturedOn < b.capturedOn ? 1 : -1,
  );
  const [to, ...earlier] = newestFirst;
  if (!to || earlier.length === 0) return null;
  // A survey of the same day as `to` shows the same ground: compare with an older one where there is one.
  const older = earlier.filter((survey) => survey.capturedOn < to.capturedOn);
  const candidates = older.length > 0 ? older : earlier;
  const loggedOn = formatSaIsoDate(loggedAt);
  const beforeRequest = loggedOn ? candidates.find((survey) => survey.capturedOn <= loggedOn) : undefined;
  return { from: beforeRequest ?? candidates[0], to };
}

/** One line of the changes' table: what happened to the building between the two captures. */
export type ChangeKind = 'added' | 'removed' | 'extended' | 'reduced';

export interface ChangeLine {
  kind: ChangeKind;
  building: BuildingChange;
}

/** The locator's three lists as the table's lines: added, extended (or reduced), removed; largest first in each. */
export function changeLines(changes: Pick<ChangesAnswer, 'added' | 'removed' | 'changed'>): ChangeLine[] {
  const bySize = (area: (b: BuildingChange) => number | null) => (a: BuildingChange, b: BuildingChange) =>
    (area(b) ?? 0) - (area(a) ?? 0);
  return [
    ...[...changes.added]
      .sort(bySize((b) => b.areaToM2))
      .map((building) => ({ kind: 'added' as const, building })),
    ...[...changes.changed].sort(bySize((b) => b.areaToM2)).map((building) => ({
      kind:
        (building.areaToM2 ?? 0) >= (building.areaFromM2 ?? 0) ? ('extended' as const) : ('reduced' as const),
      building,
    })),
    ...[...changes.removed]
      .sort(bySize((b) => b.areaFromM2))
      .map((building) => ({ kind: 'removed' as const, building })),
  ];
}

/** Square metres, 1 decimal, thousands separated by commas (as the portal writes amounts). */
export function formatAreaM2(m2: number | null): string {
  if (m2 === null) return '—';
  const [whole, decimal] = m2.toFixed(1).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${decimal} m²`;
}
