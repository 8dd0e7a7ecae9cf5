import { MEASUREMENT_ROUTES } from '@portal/contracts';
import { expectedRefusal, routeAccess } from '@portal/domain';

const SAVE = routeAccess('requests', 'POST', MEASUREMENT_ROUTES.list);

/**
 * Whether a user may save measurements against a request: the route table's word (the operations team),
 * so the screen offers what the service will take. An IRiS client reads the request's measurements but
 * measures for viewing only.
 */
export const maySaveMeasurements = (roles: readonly string[] | null | undefined): boolean =>
  !!SAVE && !!roles && expectedRefusal(SAVE, roles) === null;
