import type { ServiceDeps } from '@portal/server-kit';
import type { LocatorConfig } from './config';

/** What the routes need, built once in app.ts. */
export interface LocatorContext extends ServiceDeps {
  config: LocatorConfig;
}
