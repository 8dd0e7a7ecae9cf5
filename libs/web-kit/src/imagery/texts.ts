import type { MeasurementKind } from '@portal/contracts';

/** The imagery kit's texts: capture dates, the survey timeline, compare mode, changes, measuring. */
export const CAPTURE_TEXT = {
  captured: (date: string) => `Captured ${date}`,
  capturedBy: (date: string, provider: string) => `Captured ${date} · ${provider}`,
  undated: 'Capture date unknown',
};

export const TIMELINE_TEXT = {
  label: 'Imagery surveys',
  current: (date: string) => `Survey of ${date}`,
  newest: 'newest',
  none: 'No imagery survey covers this point.',
  loading: 'Loading the surveys…',
  failed: 'The surveys could not be loaded.',
  kind: { ortho: 'Ortho', high_resolution: 'High resolution with obliques' } as Record<string, string>,
  option: (date: string, kind: string, provider: string) => `${date}, ${kind}, ${provider}`,
};

export const COMPARE_TEXT = {
  title: 'Compare surveys',
  before: 'Before',
  after: 'After',
  layout: 'Compare layout',
  sideBySide: 'Side by side',
  swipe: 'Swipe',
  swipePosition: 'Swipe position',
  swipeValue: (percent: number) => `${percent}% of the width shows the later survey`,
  needTwo: 'Two surveys are needed to compare: only one covers this point.',
  pickTwo: 'Choose two different surveys.',
};

export const CHANGES_TEXT = {
  title: (from: string, to: string) => `Changes between ${from} and ${to}`,
  loading: 'Looking for changes…',
  failed: 'The changes could not be loaded.',
  none: 'No building on the parcel changed between these surveys.',
  noParcel: 'The point is on no parcel: no changes to list.',
  added: 'Added',
  removed: 'Removed',
  changed: 'Extended',
  reduced: 'Reduced',
  building: (kind: string) => (kind ? kind.charAt(0).toUpperCase() + kind.slice(1) : 'Building'),
  areaChange: (from: string, to: string) => `${from} → ${to}`,
};

export const MEASURE_TEXT = {
  toolbar: 'Measuring tools',
  kind: { distance: 'Distance', length: 'Length', area: 'Area', height: 'Height' } as Record<
    MeasurementKind,
    string
  >,
  off: 'Stop measuring',
  undo: 'Undo last point',
  finish: 'Finish',
  cancel: 'Cancel',
  addPoint: 'Add point at centre',
  areaLabel: (area: string, perimeter: string) => `${area} · perimeter ${perimeter}`,
  instructions:
    'Click to add points, or press Space to add one at the centre cross and arrow keys to move the map. ' +
    'Backspace undoes the last point, Enter finishes, Escape cancels. Drag a point to change it.',
  started: (kind: string) => `${kind}: drawing started.`,
  live: (kind: string, text: string, points: number) => `${kind} ${text}, ${points} points.`,
  finished: (kind: string, text: string) => `${kind} measured: ${text}.`,
  cancelled: 'Measuring cancelled.',
  undone: 'Last point removed.',
  tooFew: 'Too few points to measure.',
  crosshair: 'Map centre',
};

export const HEIGHT_TEXT = {
  title: 'Measure a height',
  instructions:
    'Pick the base of the wall, then its top: click the picture, or move the cross with the arrow keys ' +
    '(Shift for bigger steps) and press Enter. Escape starts again.',
  pickBase: 'Pick the base of the wall.',
  pickTop: 'Pick the top of the wall.',
  picked: (height: string) => `Height ${height}.`,
  topBelowBase: 'The top must be above the base on the picture.',
  notOblique: 'Heights are read off an oblique picture.',
  restart: 'Start again',
  use: 'Keep this height',
  picture: (orientation: string) => `Oblique picture, ${orientation}, for picking a wall's base and top`,
};

export const MEASUREMENT_LIST_TEXT = {
  title: 'Measurements',
  none: 'No measurements yet.',
  loading: 'Loading the measurements…',
  failed: 'The measurements could not be loaded.',
  delete: (label: string) => `Delete ${label}`,
  survey: (date: string) => `Survey ${date}`,
  by: (who: string, when: string) => `${who}, ${when}`,
  notSaved: 'Not saved yet',
  perimeter: (value: string) => `perimeter ${value}`,
};

export const ORTHO_TEXT = {
  picture: (date: string) => `Ortho picture captured ${date}`,
  loading: 'Loading the picture…',
  failed: 'The picture could not be loaded.',
  buildings: 'Buildings',
};
