import type { ServiceDeps } from '@portal/server-kit';
import type { ReportBuilderConfig } from './config';

/** What the routes need, built once in app.ts (redis: session revocation). */
export interface ReportBuilderContext extends ServiceDeps {
  config: ReportBuilderConfig;
}
