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
  imagePlaceholder:
    'The property image is not available yet (image capture is still to come). The section markers are listed here by number.',
  sectionImagePlaceholder:
    'The section image is not available yet (image capture is still to come). The building markers are listed here by number.',
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
