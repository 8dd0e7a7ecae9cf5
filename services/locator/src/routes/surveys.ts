import {
  BuildingsAnswer,
  BuildingsQuery,
  ChangesAnswer,
  ChangesQuery,
  LOCATOR_ROUTES,
  SURVEY_ERRORS,
  SurveysAnswer,
  SurveysQuery,
} from '@portal/contracts';
import type { TypedFastify } from '@portal/server-kit';
import type { LocatorContext } from '../context';
import { assertInSouthAfrica } from '../imagery/location';

/**
 * Dated imagery (issue 21), from the configured provider: the surveys at a point (newest first, an empty
 * list outside coverage), the buildings on the point's parcel that changed between two surveys, and the
 * footprints standing at a survey's date. Coordinates that are not numbers, out of range or outside South
 * Africa are 400s; a survey that does not exist or does not cover the point is a 404. Every call needs a
 * session (the route table's gate).
 */
export async function surveyRoutes(app: TypedFastify, ctx: LocatorContext): Promise<void> {
  const provider = ctx.imagery;

  app.get(
    LOCATOR_ROUTES.surveys,
    {
      schema: {
        summary: 'List the imagery surveys at a point',
        description:
          'Every aerial survey covering a point, newest first, with its capture date and provider: the imagery timeline.',
        tags: ['Maps and imagery'],
        querystring: SurveysQuery,
        response: { 200: SurveysAnswer, ...SURVEY_ERRORS },
      },
    },
    async (request) => {
      await assertInSouthAfrica(ctx.ds, request.query);
      return { success: true, surveys: await provider.surveys(request.query) };
    },
  );

  app.get(
    LOCATOR_ROUTES.changes,
    {
      schema: {
        summary: 'Compare two surveys at a point',
        description:
          'The buildings added, demolished or changed (footprint area by more than 10 %) around a point between two surveys (`from`, `to`).',
        tags: ['Maps and imagery'],
        querystring: ChangesQuery,
        response: { 200: ChangesAnswer, ...SURVEY_ERRORS },
      },
    },
    async (request) => {
      const { lat, lng, from, to } = request.query;
      await assertInSouthAfrica(ctx.ds, { lat, lng });
      return { success: true, ...(await provider.changes({ lat, lng }, from, to)) };
    },
  );

  app.get(
    LOCATOR_ROUTES.buildings,
    {
      schema: {
        summary: 'List the buildings of a survey',
        description:
          "The building footprints standing around a point at a survey's capture date (the newest without `survey`), or on the point's parcel only.",
        tags: ['Maps and imagery'],
        querystring: BuildingsQuery,
        response: { 200: BuildingsAnswer, ...SURVEY_ERRORS },
      },
    },
    async (request) => {
      const { lat, lng, survey, parcel } = request.query;
      await assertInSouthAfrica(ctx.ds, { lat, lng });
      return { success: true, ...(await provider.buildings({ lat, lng }, survey, parcel === true)) };
    },
  );
}
