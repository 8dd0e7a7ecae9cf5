import { IRIS_API } from './iris';

/**
 * The IRiS service's routes as services/iris registers them (Fastify's `:param` spelling). These are the
 * keys libs/domain/src/routeAccess.ts looks a route up by, so a path here changes only with its entry there;
 * the screens build their URLs with IRIS_API.
 */
export const IRIS_ROUTES = {
  settings: IRIS_API.settings,
  create: '/api/v1.0/iris',
  report: '/api/v1.0/iris/:reportId',
  canGenerate: '/api/v1.0/iris/:reportId/pdf/canGenerate',
  generate: '/api/v1.0/iris/:reportId/:requestId/pdf/generate',
  ready: '/api/v1.0/iris/:reportId/pdf/ready',
  regenerate: '/api/v1.0/iris/:reportId/pdf/regenerate',
  cancel: '/api/v1.0/iris/:reportId/pdf/cancel',
  download: '/api/v1.0/iris/:reportId/pdf/download',
  clean: '/api/v1.0/iris/:reportId/imagery/clean',
  highres: '/api/v1.0/iris/:reportId/imagery/highres/:status',
  aerial: '/api/v1.0/iris/:reportId/aerial/:viewId',
} as const;
