import { REFERENCE_TEXT, REQUEST_SUBTYPE } from '@portal/contracts';

/** The request tool's texts: spec 01 §1, §2, §5, §8 verbatim; the others are ours (docs/decisions.md). */
export const SAVI_TEXT = {
  title: 'SAVi request tool',
  generalInfo: 'General Info',
  requestConfirmation: 'Request Confirmation',
  newRequest: 'New Request',
  cantLocate: "Can't Locate",
  back: 'Back',
  next: 'Next',
  submit: 'Submit',
  submitting: 'Submitting…',
  placeholder: REFERENCE_TEXT.placeholder,
  comments: 'Additional comments',
  pictureView: 'Picture view',
  requestType: 'Request type',
  requestTypeNeedsImagery: 'Needs high-resolution or ortho imagery at this location.',
  chooseLocation: 'Find the property, then choose the request type.',
  submitted: 'Your request has been logged.',
  gripReference: (reference: string) => `GRiP reference: ${reference}`,
  submitFailed: 'The request could not be logged.',
  loadingReferences: 'Loading the form…',
  referencesFailed: 'The form could not be loaded. Please try again later.',
  review: {
    searchedFor: 'Searched for',
    selectedAddress: 'Selected address',
    alternativeAddresses: 'Other addresses on the parcel',
    coordinates: 'Co-ordinates',
    requestType: 'Request type',
    references: 'References',
    comments: 'Comments',
  },
} as const;

/** Spec 01 §8 imagery alerts, verbatim (including the spec's spelling). */
export const IMAGERY_TEXT = {
  notAvailableSatelliteIs:
    'High resolution imagery is not available for this area. Please refer to the coverage area in our FAQ section. We do however have satellite imagery available. Click OK to continue.',
  unableToLoad:
    'We are unable to load High Resolution Imagery from our online imagery service. This location falls within the bounds of our coverage area. Please proceed to log the request for our team to assit with your request.',
  serviceDown:
    'High resolution imagery service is down at the moment. We are unable to handle your request at this time.',
  obliqueMissing: 'Oblique Imagery could not be found.',
  loading: 'Loading imagery…',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  orientation: { n: 'North', e: 'East', s: 'South', w: 'West', o: 'Ortho' },
} as const;

/** Spec 01 §1: the request tool's subtypes; the request type is always SAVI (spec 01 §9). */
export const REQUEST_SUBTYPES = [
  REQUEST_SUBTYPE.replacementValueEstimate,
  REQUEST_SUBTYPE.buildingSizeCalculation,
  REQUEST_SUBTYPE.cantLocate,
] as const;
export type RequestSubType = (typeof REQUEST_SUBTYPES)[number];
export const CANT_LOCATE: RequestSubType = REQUEST_SUBTYPE.cantLocate;
export const REQUEST_TYPE = 'SAVI' as const;

/** Spec 01 §4: after the picture-view toggle the map is resized at these delays (ms). */
export const MAP_RESIZE_DELAYS_MS = [500, 750, 1000, 1500] as const;

/** Spec 01 §9: the oblique viewer's zoom. */
export const VIEWER_ZOOM = { step: 0.2, min: 0.2, max: 4 } as const;
/** Spec 01 §9: search and render retry up to 5 times. */
export const IMAGERY_RETRIES = 5;
