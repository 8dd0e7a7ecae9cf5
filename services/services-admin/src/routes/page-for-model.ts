import type { Static } from '@sinclair/typebox';
import { ADMIN_API, ModelPage, ROLE } from '@portal/contracts';
import type { TypedFastify } from '@portal/server-kit';
import type { Guard } from '../access';
import type { ServicesAdminContext } from '../context';
import { pageForModelJson, parsePageQuery } from '../page-for-model';
import { ERRORS, PageQueryInput } from '../schemas';

/** The users and groups grids' server-side paging, sorting and filtering (spec 03 §7). */
export async function pageForModelRoutes(app: TypedFastify, { ds }: ServicesAdminContext, guard: Guard) {
  app.get(
    ADMIN_API.pageForModel,
    {
      onRequest: guard(ROLE.admin),
      schema: { querystring: PageQueryInput, response: { 200: ModelPage, ...ERRORS } },
    },
    // The page comes as JSON text from the database (pageForModelJson), so it is sent as it is: the
    // response schema documents the answer and is not run over 1000 rows again.
    async (request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        .send(
          (await pageForModelJson(
            ds.manager,
            parsePageQuery(request.query as Record<string, string>),
          )) as unknown as Static<typeof ModelPage>,
        ),
  );
}
