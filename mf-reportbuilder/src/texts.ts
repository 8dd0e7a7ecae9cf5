/**
 * The remote's user-facing texts. Those of spec 02 verbatim come from @portal/domain (CLOSE_WINDOW_WARNING,
 * BUILDING_WARNING, REPORT_BUILDER_ERROR, the dropdown placeholders); these are ours, where the spec is silent.
 */
export const TEXT = {
  missingRequest: 'No request was given. Open the report from the request queue.',
  missingSection: 'No section was given. Open it from the property overview.',
  missingBuilding: 'This building was not found in the section.',
  loading: 'Loading the report…',
  readOnly: 'This report cannot be edited in the request’s current status.',
  save: 'Save',
  saving: 'Saving…',
  saved: 'Changes saved.',
  buildingSaved: 'Changes to the building saved.',
  unsaved: 'Unsaved changes',
  /** A stale save (409): the report was reloaded. */
  conflict:
    'Someone else changed this report meanwhile. It has been reloaded with their changes; yours were not saved, please make them again.',
  leaveTitle: 'Save your changes?',
  leaveText: 'You have unsaved changes. Save them before leaving this page?',
  leaveSave: 'Save and leave',
  leaveDiscard: 'Leave without saving',
  leaveStay: 'Stay on this page',
  extraValueNotNumber: 'The value must be a number.',
  submitReport: 'Submit report',
} as const;

/** Section types offered by the section popup (the spec does not list them; 'Perimeter' is §4.5's). */
export const SECTION_TYPES = [
  'Residential',
  'Commercial',
  'Agricultural',
  'Industrial',
  'Outbuilding',
  'Perimeter',
];

/** The texts of the improvement, map, report and address screens (spec 02 §2.1, §2.3, §8; ours where silent). */
export const IMPROVEMENT_AND_REPORT_TEXT = {
  /** Spec 02 §8 "Save message". */
  improvementSaved: 'Changes to the improvement saved.',
  missingImprovement: 'This improvement was not found.',
  improvementValue: 'Value',
  addImprovement: 'Add improvement',
  improvementName: 'Improvement name',
  markOnMap: 'Mark the location on the map',
  /** Spec 02 §2.3, §8 "Map prompt". */
  mapPrompt: 'Click anywhere to mark the location of the item.',
  locationSaved: 'The location of the item was saved.',
  noPoint: 'The request has no point to centre the map on.',
  preview: 'Preview',
  generating: 'Generating the report PDF…',
  reportFailed: 'The report PDF could not be made.',
  tryAgain: 'Try again',
  downloadPdf: 'Download the PDF',
  editAddress: 'Edit address',
  addressSaved: 'The address was saved.',
  locationRequired: 'Enter the location.',
  suburbTownCityRequired: 'Enter the suburb, town or city.',
  tooLong: (max: number) => `At most ${max} characters.`,
} as const;
