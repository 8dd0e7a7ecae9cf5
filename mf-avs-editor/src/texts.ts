import { QUEUE_COUNT_LIMIT } from '@portal/contracts';

/** The remote's user-facing texts. Those of the spec verbatim (spec 03 §2, §5, §8). */
export const TEXT = {
  title: 'AVS Address Editor',
  /** Spec 03 §8: fields show these while loading and on error. */
  loading: 'Loading ... ',
  loadingError: 'Loading error',
  nextMulti: 'Next multi-address parcel',
  nextEmpty: 'Next empty parcel',
  nextCantLocate: "Next can't-locate request",
  nextValidate: 'Next parcel to validate',
  release: 'Give back',
  parcelDone: 'Parcel done',
  queueEmpty: 'Nothing waiting in this queue.',
  held: (until: string) => `Held for you until ${until}`,
  /** The queue's count stops at QUEUE_COUNT_LIMIT (services/avs-editor). */
  waiting: (remaining: number) =>
    `${remaining >= QUEUE_COUNT_LIMIT ? `${QUEUE_COUNT_LIMIT}+` : remaining} more waiting`,
  noPoint: 'Take a parcel or a request from a queue, search for an address, or type GPS co-ordinates.',
  gps: 'GPS co-ordinates',
  gpsHint: 'e.g. -33.9321, 18.8602',
  gpsInvalid: 'Type two numbers, latitude then longitude, separated by a comma or a space.',
  go: 'Go',
  search: 'Find an address',
  searchButton: 'Search',
  noResults: 'Nothing found.',
  pointData: 'Point data',
  addresses: 'Addresses',
  pois: 'POIs',
  none: 'None',
  noParcel: 'No parcel here.',
  editedBy: 'Edited by',
  // The popup (spec 03 §2, §5)
  markerPopup: 'Marker popup',
  addAddress: 'Add address',
  addPoi: 'Add POI',
  markOfa: 'Mark OFA',
  accept: 'Accept',
  reject: 'Reject',
  quality: 'Quality',
  investigate: 'Investigate',
  unAddressable: 'Un-Addressable',
  validateParcel: 'Validate Parcel',
  parcelType: 'Parcel type',
  detachPoi: 'Detach POI',
  close: 'Close',
  streetNumber: 'Street number',
  unit: 'Unit (optional)',
  street: 'Street',
  poiName: 'Name',
  poiType: 'POI type',
  save: 'Save',
  cancel: 'Cancel',
  resolveWithAddress: 'Resolve request with this address',
  resolveAtMarker: 'Resolve request at the marker',
  resolved: (grip: string, address: string) => `${grip} resolved: ${address}.`,
  saved: 'Saved.',
  stale: 'Someone else changed this meanwhile: the latest is shown.',
  dragHint: 'Drag the marker to read another point.',
  history: 'Edits',
  // Dated imagery and measuring (issue 21)
  closeCompare: 'Close the comparison',
  satelliteSurveys: 'Satellite imagery',
  measuredNote: 'For reference only: measurements made here are not saved.',
  clearMeasured: 'Clear measurements',
} as const;

/** Spec 03 §3: POI types. */
export const POI_TYPE_LABELS: Record<number, string> = {
  10000: 'Address POI (10000)',
  10500: 'Estate POI (10500)',
  11000: 'Unit in estate (11000)',
};
