import type { RouteObject } from '@portal/web-kit';
import { PATHS } from './paths';

/**
 * The improvement overviews, the improvement's map, the report view and the address screen (spec 02 §2.1),
 * under the role guard of routes.tsx; each page loads on first use.
 */
export const improvementAndReportRoutes: RouteObject[] = [
  {
    path: PATHS.buildingImprovementOverview,
    lazy: async () => ({
      Component: (await import('./features/improvement/routes/ImprovementOverviewPage'))
        .BuildingImprovementOverviewPage,
    }),
  },
  {
    path: PATHS.sectionImprovementOverview,
    lazy: async () => ({
      Component: (await import('./features/improvement/routes/ImprovementOverviewPage'))
        .SectionImprovementOverviewPage,
    }),
  },
  {
    path: PATHS.leafletPage,
    lazy: async () => ({
      Component: (await import('./features/leaflet/routes/LeafletPage')).LeafletPage,
    }),
  },
  {
    path: PATHS.viewReport,
    lazy: async () => ({
      Component: (await import('./features/pdf/routes/ViewReportPage')).ViewReportPage,
    }),
  },
  {
    path: PATHS.editReportAddress,
    lazy: async () => ({
      Component: (await import('./features/address/routes/EditReportAddressPage')).EditReportAddressPage,
    }),
  },
];
