/**
 * The imagery kit (`@portal/web-kit/imagery`, issue 21): dated surveys, their capture dates, the timeline to
 * step back through them, comparing two (side by side, swipe, the changed buildings), and measuring on a
 * map (distance, length, area) and on an oblique (height). A subpath like the locator kit: it brings
 * OpenLayers and its interactions, which stay off pages without a map. What it needs of the one store,
 * api and map context it imports through '@portal/web-kit', never by relative path.
 */
export * from './imageryApi';
// The picture call is the locator kit's, with `survey` (one endpoint for both subpaths).
export { useImageUrlQuery, useLazyImageUrlQuery, type ImageUrlArgs } from '../locator/locatorSearchApi';
export { CaptureDate, captureDateText, formatCapturedOn, type CaptureDateProps } from './CaptureDate';
export { SurveyTimeline, type SurveyTimelineProps } from './SurveyTimeline';
export { surveyIndexAfterKey } from './surveyKeys';
export {
  draftOf,
  figuresOf,
  figuresLabel,
  formatArea,
  formatLength,
  formatMeasuredValue,
  toMeasurementInput,
  MAP_MEASURE_KINDS,
  VIEW_PROJECTION,
  type Figures,
  type MapMeasureKind,
  type MeasurementDraft,
} from './measureFigures';
export {
  measureKeyAction,
  PAN_STEP_PX,
  PAN_SHIFT_FACTOR,
  type MeasureKeyAction,
  type KeyLike,
} from './measureKeys';
export { useMeasureInteraction, type MeasureController, type MeasureOptions } from './useMeasureInteraction';
export { MeasureToolbar, type MeasureToolbarProps } from './MeasureToolbar';
export { CHANGE_COLOURS } from './measureStyles';
export {
  CAPTURE_TEXT,
  TIMELINE_TEXT,
  COMPARE_TEXT,
  CHANGES_TEXT,
  MEASURE_TEXT,
  HEIGHT_TEXT,
  MEASUREMENT_LIST_TEXT,
  ORTHO_TEXT,
} from './texts';
export { orthoExtent, roundedPoint, FALLBACK_ORTHO_CAMERA } from './orthoExtent';
export { SurveyPictureLayer, type SurveyPictureLayerProps } from './SurveyPictureLayer';
export { OutlineLayer, outlineFeatures, type Outline, type OutlineLayerProps } from './OutlineLayer';
export { changeOutlines, changeStyle, type ChangeKind } from './changeOutlines';
export { OrthoSurveyMap, ORTHO_ZOOM, type OrthoSurveyMapProps } from './OrthoSurveyMap';
export { ChangesList, changeRows, type ChangesListProps } from './ChangesList';
export { ImageryCompare, type ImageryCompareProps, type CompareLayout } from './ImageryCompare';
export {
  heightDraft,
  heightOfPicks,
  initialPicks,
  pickAt,
  picksAfterKey,
  HEIGHT_STEP_PX,
  HEIGHT_SHIFT_FACTOR,
  type HeightPicks,
  type Pixel,
} from './obliqueHeight';
export { ObliqueHeightTool, type ObliqueHeightToolProps } from './ObliqueHeightTool';
export {
  MeasurementList,
  savedMeasurementByline,
  savedMeasurementText,
  type MeasurementListProps,
  type ListedDraft,
} from './MeasurementList';
