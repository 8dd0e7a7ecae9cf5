/** The remote's pages (spec 02 §2.1). */
export const PATHS = {
  propertyOverview: '/reportbuilder/property-overview',
  sectionOverview: '/reportbuilder/section-overview',
  buildingOverview: '/reportbuilder/building-overview',
  /** Spec 02 §2.3: where submitting the report goes (mf-requests-admin). */
  requestsAdmin: '/requests/admin',
} as const;

const withQuery = (path: string, params: Record<string, string>) => `${path}?${new URLSearchParams(params)}`;

export const propertyOverviewHref = (requestID: string) => withQuery(PATHS.propertyOverview, { requestID });
export const sectionOverviewHref = (requestID: string, sectionID: string) =>
  withQuery(PATHS.sectionOverview, { requestID, sectionID });
export const buildingOverviewHref = (requestID: string, sectionID: string, buildingID: string) =>
  withQuery(PATHS.buildingOverview, { requestID, sectionID, buildingID });
