import type { ServiceDeps } from '@portal/server-kit';
import type { AvsEditorConfig } from './config';

/**
 * What the routes need, built once in app.ts. Its Redis carries session revocations and the
 * request-updated announcements of resolved can't-locate requests.
 */
export interface AvsEditorContext extends ServiceDeps {
  config: AvsEditorConfig;
}
