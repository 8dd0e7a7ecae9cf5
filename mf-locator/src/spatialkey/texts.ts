/** Texts of the mapping service (/spatialkey): ours. */
export const SPATIALKEY_TEXT = {
  title: 'Mapping service',
  status: 'Status',
  type: 'Type',
  from: 'Created from',
  to: 'Created to',
  clear: 'Clear filters',
  allStatuses: 'All statuses',
  allTypes: 'All types',
  datesReversed: 'The start date is after the end date.',
  loading: 'Loading requests…',
  failed: 'The requests could not be loaded.',
  retry: 'Try again',
  count: (shown: number, total: number) =>
    shown === total
      ? `${total} request${total === 1 ? '' : 's'} in view`
      : `${shown} of ${total} requests in view`,
  truncated: (shown: number, total: number) =>
    `Showing the newest ${shown.toLocaleString('en-ZA')} of ${total.toLocaleString('en-ZA')} requests here: zoom in or narrow the filters to see the rest.`,
  popup: {
    gripReference: 'GRiP reference',
    type: 'Type',
    status: 'Status',
    created: 'Created',
    address: 'Address',
    close: 'Close',
    more: (count: number) => `${count} requests here`,
  },
} as const;
