import {
  AERIAL_VIEW_IDS,
  HIGH_RES_STATUSES,
  type AerialViewId,
  type HighResBody,
  type HighResStatus,
  type ImageUrlAnswer,
} from '@portal/contracts';

/**
 * What became of one view: its status (spec 03 §4: 0 available, 1 no coverage, 2 offline) and URL, and
 * (issue 21) the survey the locator answered from with its capture date (null when it named none).
 */
export interface ViewOutcome {
  view: AerialViewId;
  status: HighResStatus;
  url: string | null;
  surveyId: number | null;
  capturedOn: string | null;
}

/**
 * The status of one imagery answer before the picture is loaded: a URL to try (null: no coverage, 1), or
 * offline (2) when the call failed.
 */
export function answerStatus(
  answer: ImageUrlAnswer | null,
  failed: boolean,
): { status: HighResStatus | null; url: string | null } {
  if (failed || !answer) return { status: 2, url: null };
  if (!answer.success || !answer.url) return { status: 1, url: null };
  return { status: null, url: answer.url };
}

/** How many answers had each status (only the statuses seen). */
export function countStatuses(outcomes: readonly ViewOutcome[]): HighResBody['counts'] {
  const counts: HighResBody['counts'] = {};
  for (const { status } of outcomes) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/**
 * Spec 03 §4: the most common status is sent. A tie goes to the lower number (available before no
 * coverage before offline): what the user can see wins.
 */
export function mostCommonStatus(counts: HighResBody['counts']): HighResStatus {
  let best: HighResStatus = 0;
  let bestCount = -1;
  for (const status of HIGH_RES_STATUSES) {
    const count = counts[status] ?? 0;
    if (count > bestCount) {
      best = status;
      bestCount = count;
    }
  }
  return best;
}

/** The view the PDF gets unless the user chooses: the ortho ('o') when available, else the first available. */
export function defaultView(outcomes: readonly ViewOutcome[]): AerialViewId | null {
  const available = outcomes.filter((o) => o.status === 0);
  if (available.some((o) => o.view === 'o')) return 'o';
  return AERIAL_VIEW_IDS.find((view) => available.some((o) => o.view === view)) ?? null;
}
