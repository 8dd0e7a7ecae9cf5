import type { RouteObject } from '@portal/web-kit';
import { TestMapPage } from './TestMapPage';
import { TestRemotePage } from './TestRemotePage';

/** What the shell patches into its router when /test-remote is first visited. */
export const routes: RouteObject[] = [
  { path: '/test-remote', Component: TestRemotePage },
  { path: '/test-remote/map', Component: TestMapPage },
];

export default routes;
