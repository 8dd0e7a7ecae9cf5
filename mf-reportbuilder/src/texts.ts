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

/** Issue 21: measuring on the imagery, measured floor sizes, footprints and pictures from the imagery. */
export const MEASURED_TEXT = {
  measurementsTitle: 'Measurements of this request',
  measurementsIntro:
    'Areas, lengths and heights measured on the imagery at the property. Use an area as a floor’s size, or a height for the number of floors.',
  measure: 'Measure on the imagery',
  closeMeasure: 'Close measuring',
  measureHelp:
    'Pick a survey, then trace on its ortho (area, length, distance) or pick the base and top of a wall on an oblique (height). Measurements are saved against the request.',
  orthoTitle: 'On the ortho',
  obliqueTitle: 'Height on an oblique',
  orientation: 'Oblique view',
  noOblique: 'This survey has no oblique picture here: heights are read on high-resolution surveys.',
  label: 'Label',
  saveMeasurements: 'Save measurements',
  saving: 'Saving…',
  saveFailed: 'The measurement was not saved. Please try again.',
  noPoint: 'The request has no point: there is no imagery to measure on.',
  asFloorSize: 'Use as floor size',
  asFloorSizeOf: (name: string) => `Use ${name} as floor size`,
  forFloors: (storeys: number) => `Use for the number of floors (${storeys})`,
  forFloorsOf: (name: string, storeys: number) => `Use ${name} for the number of floors (${storeys})`,
  floorChoice: (n: number, location: string) => `Floor ${n}${location.trim() ? ` (${location.trim()})` : ''}`,
  newFloor: 'A new floor',
  floorMeasured: (text: string) => text[0]!.toUpperCase() + text.slice(1),
  usedAsFloorSize: (floor: number) => `Floor ${floor} now has the measured size (save to keep it).`,
  usedForFloors: (storeys: number) =>
    `The building now has ${storeys} floor${storeys === 1 ? '' : 's'} (save to keep it).`,
  footprintsTitle: 'Buildings on the parcel',
  footprintsIntro: (date: string) =>
    `The footprints of the buildings on the parcel on the ${date} survey. Tick the ones to add to this section as buildings (the floors from the footprint’s area, the number of floors from the height), then confirm. Nothing is saved until you confirm.`,
  footprintLine: (name: string, area: string, storeys: number) =>
    `${name}: ${area} m², ${storeys} floor${storeys === 1 ? '' : 's'}`,
  confirmFootprints: (count: number) =>
    count === 0 ? 'Confirm' : `Confirm ${count} building${count === 1 ? '' : 's'}`,
  footprintsSaveFirst: 'Save your changes first: confirming saves the report.',
  footprintsNone: 'No buildings on the parcel at the latest survey that are not in the report yet.',
  footprintsFailed: 'The buildings on the parcel could not be loaded.',
  footprintsAdded: (count: number) => `${count} building${count === 1 ? '' : 's'} added from the footprints.`,
  imageryTitle: 'Capture from the imagery',
  closeCompare: 'Close the comparison',
  imageryIntro: 'Pick a survey and a view; the picture keeps its capture date in the report.',
  imageryView: 'View',
  takeImagery: 'Use this picture',
  imageryNone: 'There is no picture of this survey here.',
} as const;

/** The views of the imagery a picture may be captured from (spec 01 §9 orientations). */
export const IMAGERY_VIEWS = [
  { value: 'o', label: 'Ortho (straight down)' },
  { value: 'n', label: 'North oblique' },
  { value: 'e', label: 'East oblique' },
  { value: 's', label: 'South oblique' },
  { value: 'w', label: 'West oblique' },
] as const;
