import type { TypedFastify } from '@portal/server-kit';
import { typed } from '@portal/server-kit';
import type { RequestsContext } from '../../context';
import { queueBulkRoutes } from './bulk';
import { queueChangeRoutes } from './changes';
import { queueReadRoutes } from './reads';
import { queueViewRoutes } from './views';

/**
 * The request queue (spec 02 §7.2, spec 03 §7): its reads, every change call of the console with its
 * history, the bulk actions and saved views, each a plugin of its own. Roles are docs/decisions.md "Request
 * queue"; every change is one transaction (queue/changes.ts), announced on Redis after it commits.
 */
export async function queueRoutes(app: TypedFastify, ctx: RequestsContext): Promise<void> {
  for (const routes of [queueReadRoutes, queueChangeRoutes, queueBulkRoutes, queueViewRoutes])
    await app.register(async (scope) => {
      await routes(typed(scope), ctx);
    });
}
