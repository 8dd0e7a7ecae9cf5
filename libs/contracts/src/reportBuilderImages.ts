import { Type, type Static } from '@sinclair/typebox';
import { literalUnion, nullable } from './common';
import { IsoDate, SurveyId } from './imagery';
import { REPORT_LIMITS, RequestIdString, SeenVersion } from './reportBuilder';

/**
 * The report builder's images and PDF (spec 02 §7.1, the image screens of §2.1) and what it takes from the
 * portal's imagery (issue 21: pictures of a survey, a parcel's footprints as buildings): the bodies of those
 * calls and the PDF's answer. The paths are REPORTBUILDER_API's.
 */

/** Spec 02 §7.1 image types (the image screens of §2.1). */
export const REPORT_IMAGE_TYPES = ['property', 'section', 'building', 'floor', 'improvement'] as const;
export type ReportImageType = (typeof REPORT_IMAGE_TYPES)[number];

export const ImageBody = Type.Object({
  requestID: RequestIdString,
  base64Data: Type.String({ maxLength: 16 * 1024 * 1024 }),
  type: Type.String({ maxLength: 200 }),
  /**
   * Issue 21: the picture was captured from the portal's imagery of this survey (a JPEG or PNG as the
   * locator serves it): the service keeps the survey's capture date with the image, and its crops.
   */
  surveyId: Type.Optional(SurveyId),
});

/** Issue 21: the survey an image was captured from (kept with the image and its crops). */
export const ImageImagerySchema = Type.Object({ surveyId: Type.Integer(), capturedOn: IsoDate });
export type ImageImagery = Static<typeof ImageImagerySchema>;

/** GET image/info/…: whether the target's cropped image exists and where it was captured (null: not imagery). */
export const ImageInfoAnswer = Type.Object({
  exists: Type.Boolean(),
  imagery: nullable(ImageImagerySchema),
});
export type ImageInfoAnswer = Static<typeof ImageInfoAnswer>;

export const CropImageBody = Type.Object({
  requestID: RequestIdString,
  /** The source: a base image's or an upload's file name (or URL) of the request. */
  image: Type.String({ maxLength: 500 }),
  sectionID: Type.Optional(Type.String({ maxLength: REPORT_LIMITS.id })),
  /**
   * The target (as ImageBody.type: property, section/{n}, building/{n}/{m}, …); optional when `image` is
   * the target's base image (or, with sectionID alone, the section).
   */
  type: Type.Optional(Type.String({ maxLength: 200 })),
  x: Type.Number(),
  y: Type.Number(),
  width: Type.Number({ minimum: 1 }),
  height: Type.Number({ minimum: 1 }),
});
export const CopyImageBody = Type.Object({
  requestID: RequestIdString,
  sectionID: Type.String({ maxLength: REPORT_LIMITS.id }),
  buildingID: Type.Optional(Type.String({ maxLength: REPORT_LIMITS.id })),
});
export const RearrangeImagesBody = Type.Object({
  requestID: RequestIdString,
  sourceIndex: Type.Integer({ minimum: 0 }),
  destinationIndex: Type.Integer({ minimum: 0 }),
});
export const ReportImageTypeSchema = literalUnion(REPORT_IMAGE_TYPES);
export type ImageBody = Static<typeof ImageBody>;
export type CropImageBody = Static<typeof CropImageBody>;
export type CopyImageBody = Static<typeof CopyImageBody>;
export type RearrangeImagesBody = Static<typeof RearrangeImagesBody>;
/** GET report/{requestID}/savi/south africa/{group}/full: "success and url" (spec 02 §7.1). */
export const GenerateReportAnswer = Type.Object({ success: Type.Boolean(), url: nullable(Type.String()) });
export type GenerateReportAnswer = Static<typeof GenerateReportAnswer>;

/**
 * POST footprints (issue 21): the buildings on the request's parcel at `surveyId` (SURVEY_API.buildings
 * `parcel=true`) the QS confirmed, by their building ids, added to section `sectionID` — each as a building
 * of max(1, round(height / 3)) floors of its footprint's area, marked as measured — in one save. The
 * service reads the footprints itself: an id not standing on the parcel at the survey's date is a 400.
 */
export const ConfirmFootprintsBody = Type.Object({
  requestID: RequestIdString,
  sectionID: Type.String({ minLength: 1, maxLength: REPORT_LIMITS.id }),
  surveyId: SurveyId,
  buildingIds: Type.Array(Type.String({ minLength: 1, maxLength: 20 }), {
    minItems: 1,
    maxItems: REPORT_LIMITS.buildingsPerSection,
  }),
  version: SeenVersion,
});
export type ConfirmFootprintsBody = Static<typeof ConfirmFootprintsBody>;
