import { Type } from '@sinclair/typebox';
import { REQUEST_ADMIN_ROUTES, SavedViewBody, SavedViewsAnswer } from '@portal/contracts';
import { badRequest, callerHooks, notFound, type TypedFastify } from '@portal/server-kit';
import type { RequestsContext } from '../../context';
import { checkId } from '../../queue/changes';
import { deleteView, saveView, savedViews } from '../../queue/savedViews';
import { QUEUE_TEXT } from '../../queue/texts';
import { ERRORS, IdParam } from '../schemas';

/** Saved views (beyond the spec): each user's named grid states, listed, saved and deleted. */
export async function queueViewRoutes(app: TypedFastify, ctx: RequestsContext): Promise<void> {
  const onRequest = callerHooks(app, ctx.ds);

  app.get(
    REQUEST_ADMIN_ROUTES.views,
    {
      onRequest,
      schema: {
        summary: "List the caller's saved views",
        description: "The request grid's filter and column settings the caller saved under a name.",
        tags: ['Requests'],
        response: { 200: SavedViewsAnswer, ...ERRORS },
      },
    },
    async (request) => ({ views: await savedViews(ctx.ds, request.caller.id) }),
  );

  // Saving a view under a name the user already has replaces it.
  app.post(
    REQUEST_ADMIN_ROUTES.views,
    {
      onRequest,
      schema: {
        summary: 'Save a view',
        description:
          "Saves the request grid's current filters and columns under a name (replacing one of that name) and answers the caller's views.",
        tags: ['Requests'],
        body: SavedViewBody,
        response: { 200: SavedViewsAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const name = request.body.name.trim();
      if (!name) throw badRequest(QUEUE_TEXT.viewName);
      await saveView(ctx.ds, request.caller.id, { name, state: request.body.state });
      return { views: await savedViews(ctx.ds, request.caller.id) };
    },
  );

  app.delete(
    REQUEST_ADMIN_ROUTES.view,
    {
      onRequest,
      schema: {
        summary: 'Delete a saved view',
        description: "Deletes one of the caller's saved views.",
        tags: ['Requests'],
        params: IdParam,
        response: { 204: Type.Null(), ...ERRORS },
      },
    },
    async (request, reply) => {
      const id = checkId(request.params.id);
      if (!(await deleteView(ctx.ds, request.caller.id, id))) throw notFound(QUEUE_TEXT.view);
      return reply.code(204).send(null);
    },
  );
}
