/** The remote's pages (spec 02 §2.2, spec 03 §2). */
export const PATHS = {
  requests: '/requests',
  admin: '/requests/admin',
  qsChecklist: '/requests/admin/qs-checklist',
  qcChecklist: '/requests/admin/qc-checklist',
  qcLauncher: '/requests/admin/qc-checklist-launcher',
  duplicateCheck: '/requests/admin/duplicate-check',
  /** Not in the spec's table: the launcher's "satellite map" (docs/decisions.md). */
  satelliteMap: '/requests/admin/satellite-map',
  /** Ours (issue 24): the operations dashboard. */
  insight: '/requests/insight',
} as const;

type Point = { lat: number; lng: number } | null;
const withPoint = (path: string, requestID: string, point: Point) => {
  const query = new URLSearchParams({ requestID });
  if (point) {
    query.set('lat', String(point.lat));
    query.set('lng', String(point.lng));
  }
  return `${path}?${query}`;
};

/** Spec 02 §2.2: the checklists take requestID, lat and lng; the duplicate check requestID. */
export const qsChecklistHref = (requestID: string, point: Point) =>
  withPoint(PATHS.qsChecklist, requestID, point);
export const qcChecklistHref = (requestID: string, point: Point) =>
  withPoint(PATHS.qcChecklist, requestID, point);
export const qcLauncherHref = (requestID: string, point: Point) =>
  withPoint(PATHS.qcLauncher, requestID, point);
export const duplicateCheckHref = (requestID: string) =>
  `${PATHS.duplicateCheck}?${new URLSearchParams({ requestID })}`;
/** The report builder's screens (spec 02 §2.1), opened by 'Start report' / 'Continue report'. */
export const reportBuilderHref = (requestID: string) =>
  `/reportbuilder/property-overview?${new URLSearchParams({ requestID })}`;
export const viewReportHref = (requestID: string) =>
  `/reportbuilder/view-report?${new URLSearchParams({ requestID })}`;
/** The satellite map at the request's point, opened by the QC launcher. */
export const satelliteMapHref = (requestID: string, point: { lat: number; lng: number }) =>
  withPoint(PATHS.satelliteMap, requestID, point);

/** The console filtered to one request by its GRiP reference (the dashboard's late list opens it so). */
export const consoleRequestHref = (gripReference: string) =>
  `${PATHS.admin}?${new URLSearchParams({ grip_reference: gripReference })}`;
