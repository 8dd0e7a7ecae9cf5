import type { ServiceDeps } from '@portal/server-kit';
import type { IrisConfig } from './config';

/** What the routes need, built once in app.ts (redis: session revocation). */
export interface IrisContext extends ServiceDeps {
  config: IrisConfig;
}
