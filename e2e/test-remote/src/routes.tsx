import type { RouteObject } from '@portal/web-kit';
import { TestRemotePage } from './TestRemotePage';

/** What the shell patches into its router when /test-remote is first visited. */
export const routes: RouteObject[] = [{ path: '/test-remote', Component: TestRemotePage }];

export default routes;
