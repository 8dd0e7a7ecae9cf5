/** The remote's pages (spec 02 §2.1). */
export const PATHS = {
  propertyOverview: '/reportbuilder/property-overview',
  sectionOverview: '/reportbuilder/section-overview',
  buildingOverview: '/reportbuilder/building-overview',
  buildingImprovementOverview: '/reportbuilder/building-improvement-overview',
  sectionImprovementOverview: '/reportbuilder/section-improvement-overview',
  leafletPage: '/reportbuilder/leaflet-page',
  viewReport: '/reportbuilder/view-report',
  editReportAddress: '/reportbuilder/edit-report-address',
  /** Spec 02 §2.3: where submitting the report goes (mf-requests-admin). */
  requestsAdmin: '/requests/admin',
} as const;

const withQuery = (path: string, params: Record<string, string>) => `${path}?${new URLSearchParams(params)}`;

export const propertyOverviewHref = (requestID: string) => withQuery(PATHS.propertyOverview, { requestID });
export const sectionOverviewHref = (requestID: string, sectionID: string) =>
  withQuery(PATHS.sectionOverview, { requestID, sectionID });
export const buildingOverviewHref = (requestID: string, sectionID: string, buildingID: string) =>
  withQuery(PATHS.buildingOverview, { requestID, sectionID, buildingID });

/** An improvement's screen: in a building when `buildingID` is given, else directly in the section. */
export const improvementOverviewHref = (
  requestID: string,
  sectionID: string,
  buildingID: string | null,
  improvementID: string,
) =>
  buildingID === null
    ? withQuery(PATHS.sectionImprovementOverview, { requestID, sectionID, improvementID })
    : withQuery(PATHS.buildingImprovementOverview, { requestID, sectionID, buildingID, improvementID });
/** The improvement's map (leaflet-page): `buildingID` only for a building's improvement. */
export const leafletPageHref = (
  requestID: string,
  sectionID: string,
  buildingID: string | null,
  improvementID: string,
) =>
  withQuery(PATHS.leafletPage, {
    requestID,
    sectionID,
    ...(buildingID === null ? {} : { buildingID }),
    improvementID,
  });
export const viewReportHref = (requestID: string) => withQuery(PATHS.viewReport, { requestID });
export const editReportAddressHref = (requestID: string) => withQuery(PATHS.editReportAddress, { requestID });
