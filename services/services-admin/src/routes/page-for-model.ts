import { ADMIN_ROUTES, ModelPage, ROLE } from '@portal/contracts';
import type { TypedFastify } from '@portal/server-kit';
import type { Guard } from '../access';
import type { ServicesAdminContext } from '../context';
import { pageForModel, parsePageQuery } from '../page-for-model';
import { ERRORS, PageQueryInput } from '../schemas';

/** The users and groups grids' server-side paging, sorting and filtering (spec 03 §7). */
export async function pageForModelRoutes(app: TypedFastify, { ds }: ServicesAdminContext, guard: Guard) {
  app.get(
    ADMIN_ROUTES.pageForModel,
    {
      onRequest: guard(ROLE.admin),
      schema: {
        summary: 'Page through users or groups',
        description: 'One page of the users or groups grid, sorted and filtered on the server (spec 03 §7).',
        tags: ['Services admin'],
        querystring: PageQueryInput,
        response: { 200: ModelPage, ...ERRORS },
      },
    },
    async (request) => pageForModel(ds.manager, parsePageQuery(request.query as Record<string, string>)),
  );
}
