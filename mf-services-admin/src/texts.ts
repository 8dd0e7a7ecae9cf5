/**
 * What the services-administration screens say. The spec's texts (spec 03 §8) are verbatim; the others
 * are ours, where the spec gives none.
 */
export const ADMIN_TEXT = {
  // Spec 03 §8, verbatim.
  failedToCreateGroup: 'Failed to create group',
  failedToUpdateGroup: 'Failed to update group',
  failedToDeleteGroup: 'Failed to delete group',
  failedToUpdateUser: 'Failed to update user',
  failedToDeleteUser: 'Failed to delete user',
  /** The spec's one text for any failed service add or remove, for users too. */
  failedToChangeService: 'Failed to add service to group',
  loadingError: 'Loading error',
  loading: 'Loading ... ',
  // Spec 03 "Users grid": the claimsUser column's header.
  claimsUserHeader: 'Santam Claims',
  // Ours.
  groupNotSaved: 'Group not saved: a group needs an admin and a code.',
  ratesSaved: 'Rates saved',
  failedToSaveRates: 'Failed to save rates',
  failedToImportRates: 'Failed to import rates',
  noGroupChosen:
    'No group chosen: open the rates editor from a group, or add ?groupID=<group id> to the address.',
} as const;

/** The usage page (issue 22). */
export const USAGE_TEXT = {
  title: 'Usage',
  subtitle: 'What a group used per day, by its API keys and its people, and the exports for invoicing.',
  group: 'Group',
  allGroups: 'All groups',
  ownGroup: 'My group',
  month: 'Month',
  exportXlsx: 'Export .xlsx',
  exportCsv: 'Export .csv',
  loading: 'Loading usage',
  loadingFailed: 'The usage could not be read. Try again in a moment.',
  nothing: (month: string) => `Nothing was used in ${month}.`,
  session: 'People (portal sessions)',
  tableLabel: (month: string) => `Usage in ${month} per metric, service and source`,
  columns: { metric: 'Metric', service: 'Service', source: 'Source', count: 'Count' },
  sast: 'Days are South African days (SAST).',
  metrics: {
    geocode: 'Geocodes',
    search: 'Searches',
    reverse: 'Reverse look-ups',
    validation: 'Validations',
    validation_row: 'Validated rows (batches)',
    parcel_tile: 'Parcel tiles',
    imagery_picture: 'Imagery pictures',
    iris_report: 'IRiS reports',
    pdf: 'PDFs',
    savi_request: 'SAVi requests',
  },
} as const;
