import type { Survey } from '@portal/contracts';
import { BUILTIN_SATELLITE_LAYER } from '@portal/web-kit';

type BaseLayerConfig = typeof BUILTIN_SATELLITE_LAYER;

/**
 * The map's satellite layer for a survey (issue 21): the portal's satellite tiles with `?survey=<id>`, or
 * as they are (the newest survey at each tile) for null. The layer keeps its id, so the map swaps its
 * tiles in place.
 */
export function satelliteLayerOf(surveyId: number | null): BaseLayerConfig {
  if (surveyId === null) return BUILTIN_SATELLITE_LAYER;
  return { ...BUILTIN_SATELLITE_LAYER, url: `${BUILTIN_SATELLITE_LAYER.url}?survey=${surveyId}` };
}

/**
 * The survey the map shows: the one chosen, while it still covers the marker (the marker may have moved
 * off it), else the newest at the marker (null when no survey covers it, or they are not known yet).
 */
export function shownSurvey(surveys: readonly Survey[], chosenId: number | null): Survey | null {
  return surveys.find((survey) => survey.id === chosenId) ?? surveys[0] ?? null;
}
