import { badRequest } from '@portal/server-kit';

/**
 * The imagery surveys (issue 21: geo.imagery_coverage rows, each with its capture date) as the report builder
 * needs them: a survey named by the client — for a picture captured from the imagery, or the footprints a
 * report starts from — must cover the request's point; its capture date is read here, never taken from the
 * client.
 */

export const SURVEY_TEXT = {
  noSurvey: (id: number) => `There is no survey ${id}.`,
  noPoint: 'The request has no point, so no survey can be said to cover it.',
  surveyMissesPoint: (id: number) => `Survey ${id} does not cover the request's point.`,
} as const;

type Query = { query(sql: string, params?: unknown[]): Promise<unknown> };

export interface SurveyAtPoint {
  id: number;
  capturedOn: string;
}

/**
 * The survey `surveyId` when it covers the request's point (a 400 when there is no such survey, the
 * request has no point, or the survey does not cover it).
 */
export async function surveyAtRequest(
  db: Query,
  requestId: string,
  surveyId: number,
): Promise<SurveyAtPoint> {
  const [row] = (await db.query(
    `SELECT c.id::int AS id, c.captured_on::text AS captured_on, r.point IS NOT NULL AS has_point,
            COALESCE(ST_Covers(c.geom, r.point), false) AS covers
       FROM geo.imagery_coverage c CROSS JOIN requests.requests r
      WHERE c.id = $1 AND r.id = $2`,
    [surveyId, requestId],
  )) as { id: number; captured_on: string; has_point: boolean; covers: boolean }[];
  if (!row) throw badRequest(SURVEY_TEXT.noSurvey(surveyId));
  if (!row.has_point) throw badRequest(SURVEY_TEXT.noPoint);
  if (!row.covers) throw badRequest(SURVEY_TEXT.surveyMissesPoint(surveyId));
  return { id: row.id, capturedOn: row.captured_on };
}
