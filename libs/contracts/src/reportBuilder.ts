import { Type, type Static } from '@sinclair/typebox';
import { nullable } from './common';
import { IsoDate, SurveyId } from './imagery';

/**
 * The SAVi report builder (spec 02 §1, §3, §4.4, §4.5, §5, §7.1, §8; issue 13), served by
 * services/reportbuilder: a request's report (sections with buildings, floors, improvements and groups; the
 * report details, comments, note and extra field), its totals and the versions kept at each submission.
 * The rules (names, totals, the extra field's value) are libs/domain/src/reportBuilder/. Rates stay with
 * services-admin (ADMIN_API.rates); the invoice and zip calls under /reportbuilder/savi/ with
 * services/requests (REQUEST_ADMIN_API). Every path answers with and without its trailing slash.
 *
 * The report is one document whose schemas nest (report → section → building → floor, improvements,
 * groups): they stay together here; the images and the PDF call are in reportBuilderImages.ts.
 */

const seg = (value: string) => encodeURIComponent(value);
const BASE = '/api/v1.0/reportbuilder';

export const REPORTBUILDER_API = {
  /** GET: the report's PDF (images/PDF part). */
  download: (requestID: string) => `${BASE}/savi/${seg(requestID)}/download`,
  /** GET: the sections (SectionsAnswer). */
  sections: (requestID: string) => `${BASE}/sections/${seg(requestID)}`,
  /** POST SaveSectionsBody: replaces the sections whole (names checked; a 400 lists every problem). */
  saveSections: `${BASE}/section`,
  /** DELETE: a section's (or building's) image (images part). */
  deleteImage: (requestID: string, sectionID: string, buildingID?: string) =>
    `${BASE}/image/${seg(requestID)}/${seg(sectionID)}${buildingID === undefined ? '' : `/${seg(buildingID)}`}`,
  /** POST ImageBody (images part). */
  image: `${BASE}/image`,
  /** POST CropImageBody (images part). */
  imageCrop: `${BASE}/image/crop`,
  /** POST CopyImageBody (images part). */
  imageCopy: `${BASE}/image/copy`,
  /** POST RearrangeImagesBody (images part). */
  imageRearrange: `${BASE}/image/rearrange`,
  /** GET: true when the image exists (images part). */
  imageExists: (requestID: string, type: string, first: string, second: string, third: string) =>
    `${BASE}/image/${seg(requestID)}/${seg(type)}/${seg(first)}/${seg(second)}/${seg(third)}`,
  /** GET: the request's uploaded images as thumbnails (images part). */
  thumbnails: (requestID: string) => `${BASE}/image/thumbnails/${seg(requestID)}`,
  /** GET (?ID=) or POST CommentsBody; GET/POST …/{requestID} too. */
  comments: `${BASE}/requestComments`,
  commentsOf: (requestID: string) => `${BASE}/requestComments/${seg(requestID)}`,
  /** GET (?ID=) or POST NoteBody; GET/POST …/{requestID} too. */
  note: `${BASE}/requestNote`,
  noteOf: (requestID: string) => `${BASE}/requestNote/${seg(requestID)}`,
  /** GET: the report details (ReportDetails). */
  details: (requestID: string) => `${BASE}/requestDetails/${seg(requestID)}`,
  /** GET: location and suburbTownCity (AddressDetailsAnswer). */
  addressDetails: (requestID: string) => `${BASE}/requestReportAddressDetails/${seg(requestID)}`,
  /** POST SaveAddressBody. */
  saveAddress: `${BASE}/requestDetails/address`,
  /** POST ExtraFieldIncludedBody / ExtraFieldDescriptionBody / ExtraFieldValueBody. */
  extraFieldIncluded: `${BASE}/requestExtraField/included`,
  extraFieldDescription: `${BASE}/requestExtraField/description`,
  extraFieldValue: `${BASE}/requestExtraField/value`,
  /** GET (not in spec 02 §7.1): the report's totals with the group's settings (TotalsAnswer). */
  totals: (requestID: string) => `${BASE}/totals/${seg(requestID)}`,
  /** GET (beyond the spec): the versions kept at each submission, each with what changed (VersionsAnswer). */
  versions: (requestID: string) => `${BASE}/versions/${seg(requestID)}`,
  /**
   * GET: generates the report (PDF part): queues the PDF of the report's current version and waits up to
   * 10 s; answers { success, url, ready, state, progress, version, error } (GenerateReportAnswer's fields
   * and the job's state; services/reportbuilder README "PDF").
   */
  report: (requestID: string, group: string) =>
    `${BASE}/report/${seg(requestID)}/savi/${seg('south africa')}/${seg(group)}/full`,
  /** GET: the preview's poll of the PDF job: { success, pdfReady, pdfUrl, progress, state, error, version, pdfVersion }. */
  reportReady: (requestID: string) => `${BASE}/report/${seg(requestID)}/pdf/ready`,
  /** POST multipart {requestID, file} (images part). */
  upload: `${BASE}/upload`,
  /** Where a request's uploaded images are served (images part). */
  uploads: (requestID: string) => `/reportbuilder/assets/uploads/${seg(requestID)}/`,
  /**
   * GET (issue 21): a target's image as stored — whether it exists and, when it was captured from the
   * portal's imagery, the survey and its capture date (ImageInfoAnswer). Parts as imageExists.
   */
  imageInfo: (requestID: string, type: string, first: string, second: string, third: string) =>
    `${BASE}/image/info/${seg(requestID)}/${seg(type)}/${seg(first)}/${seg(second)}/${seg(third)}`,
  /**
   * POST ConfirmFootprintsBody (issue 21, 'Building Size Calculation'): the footprints the QS confirmed
   * become buildings of a section, in one save (answers SectionsAnswer).
   */
  confirmFootprints: `${BASE}/footprints`,
} as const;

/** The report type of every report (spec 02 §1 "The report type used throughout is savi"). */
export const REPORT_TYPE = 'savi';

/** Spec 02 §4.1: the statuses in which a request's report may be edited (reading is allowed in every status). */
export const REPORT_EDITABLE_STATUSES = ['Ready for QS', 'In progress', 'Pending', 'Query'] as const;

/**
 * The statuses of a submitted report (spec 02 §4.2: submission moves it to QC check, then Dispatch,
 * Delivered, Finalised): a SAVI request in one of them always has the PDF and RVETotal of its report's
 * current version (docs/decisions.md "The request's life is the server's"). Query is the builder's again.
 */
export const REPORT_SUBMITTED_STATUSES = ['QC check', 'Dispatch', 'Delivered', 'Finalised'] as const;
export const isReportSubmittedStatus = (status: string) =>
  (REPORT_SUBMITTED_STATUSES as readonly string[]).includes(status);

/** South Africa's VAT rate (percent), the report's vatPercentage unless configured otherwise. */
export const DEFAULT_VAT_PERCENTAGE = 15;

/** Limits of a report (a report holds the property's sections; a farm may have many buildings). */
export const REPORT_LIMITS = {
  sections: 100,
  buildingsPerSection: 200,
  improvements: 300,
  floors: 50,
  groups: 100,
  name: 200,
  text: 4000,
  id: 64,
} as const;

const Text = (maxLength: number = REPORT_LIMITS.name) => Type.String({ maxLength });
/** Null first: the services' AJV coerces types, and tried after a string schema null would become ''. */
const Lat = Type.Number({ minimum: -90, maximum: 90 });
const Lng = Type.Number({ minimum: -180, maximum: 180 });
const Percent = Type.Number({ minimum: 0, maximum: 1000 });

/** A request id (a UUID; checked by the service, so a malformed one is a 400 naming it). */
export const RequestIdString = Type.String({ minLength: 1, maxLength: REPORT_LIMITS.id });
/**
 * Section IDs (the keys of the sections): letters, digits, '_' and '-'. Checked by the service with the
 * other problems of a save (a key pattern in the schema would make AJV drop such sections silently).
 */
export const SECTION_ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';

/** An amount as captured: a number, typed text ('13,500') or nothing (spec 02 §4.4 'Please select or type in value'). */
export const CapturedAmountSchema = Type.Union([Type.Null(), Type.Number(), Type.String({ maxLength: 40 })]);

/** Spec 02 §3 marker (lat, lng; the icon shows `number`). */
export const ReportMarkerSchema = Type.Object({
  lat: Lat,
  lng: Lng,
  number: Type.Integer({ minimum: 0, maximum: 100000 }),
  draggable: Type.Optional(Type.Boolean()),
});

/**
 * Issue 21: where a floor's size was measured on the portal's imagery — a measurement of the request
 * (`measurementId`, requests.measurements) or a survey's building footprint (`footprintId`, geo.buildings) —
 * with the measured m², the survey and its capture date. The service takes these facts from the measurement
 * (or from the report as saved), never from the client, and sets `edited` whenever the size differs from
 * `value` (typed over by hand; libs/domain withMeasuredFlag).
 */
export const FloorMeasurementSchema = Type.Object({
  measurementId: Type.Optional(Type.String({ minLength: 1, maxLength: REPORT_LIMITS.id })),
  footprintId: Type.Optional(Type.String({ minLength: 1, maxLength: REPORT_LIMITS.id })),
  value: Type.Number({ minimum: 0, maximum: 1e7 }),
  surveyId: SurveyId,
  capturedOn: IsoDate,
  edited: Type.Optional(Type.Boolean()),
});
export type FloorMeasurementBody = Static<typeof FloorMeasurementSchema>;

/** Spec 02 §3 floor: size (m²), doubleVolume, location; issue 21: `measured` when measured on the imagery. */
export const ReportFloorSchema = Type.Object({
  size: nullable(Type.Number({ minimum: 0, maximum: 1e7 })),
  doubleVolume: Type.Boolean({ default: false }),
  location: Text(),
  measured: Type.Optional(nullable(FloorMeasurementSchema)),
});

/** Spec 02 §3 improvement (in a section or a building). */
export const ReportImprovementSchema = Type.Object({
  name: Text(),
  marker: Type.Optional(nullable(ReportMarkerSchema)),
  structure: Type.Optional(Text()),
  category: Text(),
  type: Text(),
  class: Text(),
  rate: CapturedAmountSchema,
  unit: Type.Optional(Text(40)),
  numberOfUnits: nullable(Type.Number({ minimum: 0, maximum: 1e9 })),
});

/** Spec 02 §3 building. */
export const ReportBuildingSchema = Type.Object({
  name: Text(),
  marker: Type.Optional(nullable(ReportMarkerSchema)),
  improvements: Type.Array(ReportImprovementSchema, { maxItems: REPORT_LIMITS.improvements }),
  category: Text(),
  type: Text(),
  class: Text(),
  constructionType: Text(),
  rate: CapturedAmountSchema,
  unit: Text(40),
  numberOfUnits: nullable(Type.Number({ minimum: 0, maximum: 1e9 })),
  floors: Type.Array(ReportFloorSchema, { maxItems: REPORT_LIMITS.floors }),
  group: Text(),
  slope: Type.Boolean({ default: false }),
  slopePercentage: nullable(Percent),
  comment: Text(REPORT_LIMITS.text),
});

/** Spec 02 §3 section (one RVE): name, type, includeImage (default true), comment, marker, buildings, improvements, groups. */
export const ReportSectionSchema = Type.Object({
  name: Text(),
  type: Text(),
  includeImage: Type.Boolean({ default: true }),
  comment: Text(REPORT_LIMITS.text),
  marker: Type.Optional(nullable(ReportMarkerSchema)),
  buildings: Type.Array(ReportBuildingSchema, { maxItems: REPORT_LIMITS.buildingsPerSection }),
  improvements: Type.Array(ReportImprovementSchema, { maxItems: REPORT_LIMITS.improvements }),
  groups: Type.Array(Type.Object({ name: Text() }), { maxItems: REPORT_LIMITS.groups }),
});

/** Spec 02 §3: the sections of the request's savi report, keyed by section ID (in the order they were added). */
export const ReportSectionsSchema = Type.Record(Type.String(), ReportSectionSchema, {
  maxProperties: REPORT_LIMITS.sections,
});

export type ReportMarkerBody = Static<typeof ReportMarkerSchema>;
export type ReportFloorBody = Static<typeof ReportFloorSchema>;
export type ReportImprovementBody = Static<typeof ReportImprovementSchema>;
export type ReportBuildingBody = Static<typeof ReportBuildingSchema>;
export type ReportSectionBody = Static<typeof ReportSectionSchema>;
export type ReportSectionsBody = Static<typeof ReportSectionsSchema>;

/**
 * The optimistic-concurrency version the client read (0 before the report's first save). When sent, a
 * save of another version is a 409 carrying the report as it is now.
 */
export const SeenVersion = Type.Optional(Type.Integer({ minimum: 0 }));

/** Who last saved and when (null before the first save). */
const Saved = {
  version: Type.Integer({ minimum: 0 }),
  updatedAt: nullable(Type.String()),
  updatedBy: nullable(Type.Object({ id: Type.String(), name: Type.String() })),
};

/** What the caller may do with the report now: edit only staff, in an editable status. */
const Access = {
  status: Type.String(),
  editable: Type.Boolean(),
};

/** GET sections/{requestID}; also the answer of POST section. */
export const SectionsAnswer = Type.Object({
  ID: Type.String(),
  reportType: Type.Literal(REPORT_TYPE),
  sections: ReportSectionsSchema,
  ...Saved,
  ...Access,
  /** The building save warnings of spec 02 §5 ("Section / Building: text"): they warn, never block. */
  warnings: Type.Array(Type.String()),
});
export type SectionsAnswer = Static<typeof SectionsAnswer>;

/** POST section: the sections whole; `comment`, when sent, is the report's comments, saved with them. */
export const SaveSectionsBody = Type.Object({
  ID: RequestIdString,
  sections: ReportSectionsSchema,
  comment: Type.Optional(Text(REPORT_LIMITS.text)),
  version: SeenVersion,
});
export type SaveSectionsBody = Static<typeof SaveSectionsBody>;

/** Spec 02 §3 extraField (the group names it: 'Betterments' by default). */
export const ExtraFieldSchema = Type.Object({
  include: Type.Boolean(),
  description: Text(),
  value: Type.Number(),
});
export type ExtraFieldAnswer = Static<typeof ExtraFieldSchema>;

export const NoteSchema = Type.Object({ text: Text(REPORT_LIMITS.text) });

/** Spec 02 §3 "Report details". */
export const ReportDetails = Type.Object({
  ID: Type.String(),
  gripReference: Type.String(),
  location: Type.String(),
  suburb: Type.String(),
  town: Type.String(),
  province: Type.String(),
  comments: Type.String(),
  note: NoteSchema,
  coordinates: nullable(Type.Object({ lat: Type.Number(), lng: Type.Number() })),
  extraField: ExtraFieldSchema,
  vatPercentage: Type.Number(),
  suburbTownCity: Type.String(),
  /** The request's group (the client's), whose rates and settings price the report. */
  group: nullable(Type.Object({ id: Type.String(), name: Type.String() })),
  ...Saved,
  ...Access,
});
export type ReportDetails = Static<typeof ReportDetails>;

/** GET requestReportAddressDetails/{requestID}: what edit-report-address shows. */
export const AddressDetailsAnswer = Type.Object({
  ID: Type.String(),
  location: Type.String(),
  suburbTownCity: Type.String(),
  suburb: Type.String(),
  town: Type.String(),
  province: Type.String(),
  coordinates: nullable(Type.Object({ lat: Type.Number(), lng: Type.Number() })),
  version: Type.Integer({ minimum: 0 }),
});
export type AddressDetailsAnswer = Static<typeof AddressDetailsAnswer>;

/** POST requestDetails/address: the new location and suburbTownCity (spec 02 §2.1 edit-report-address). */
export const SaveAddressBody = Type.Object({
  requestID: RequestIdString,
  addressDetails: Type.Object({
    location: Text(500),
    suburbTownCity: Text(500),
  }),
  version: SeenVersion,
});
export type SaveAddressBody = Static<typeof SaveAddressBody>;

/** Query of GET requestComments / requestNote without the id in the path. */
export const ReportIdQuery = Type.Object({ ID: Type.Optional(RequestIdString) });
export const RequestIdParams = Type.Object({ requestID: RequestIdString });

/** requestComments: { ID, userID, comment } (userID: who last wrote it; sent by the client, the caller counts). */
export const CommentsBody = Type.Object({
  ID: Type.Optional(RequestIdString),
  userID: Type.Optional(Type.String({ maxLength: 64 })),
  comment: Text(REPORT_LIMITS.text),
  version: SeenVersion,
});
export type CommentsBody = Static<typeof CommentsBody>;
export const CommentsAnswer = Type.Object({
  ID: Type.String(),
  userID: nullable(Type.String()),
  comment: Type.String(),
  version: Type.Integer({ minimum: 0 }),
});
export type CommentsAnswer = Static<typeof CommentsAnswer>;

/** requestNote: { ID, userID, note } (the note as text or as the details' {text}). */
export const NoteBody = Type.Object({
  ID: Type.Optional(RequestIdString),
  userID: Type.Optional(Type.String({ maxLength: 64 })),
  note: Type.Union([Text(REPORT_LIMITS.text), NoteSchema]),
  version: SeenVersion,
});
export type NoteBody = Static<typeof NoteBody>;
export const NoteAnswer = Type.Object({
  ID: Type.String(),
  userID: nullable(Type.String()),
  note: NoteSchema,
  version: Type.Integer({ minimum: 0 }),
});
export type NoteAnswer = Static<typeof NoteAnswer>;

export const ExtraFieldIncludedBody = Type.Object({
  requestID: RequestIdString,
  included: Type.Boolean(),
  version: SeenVersion,
});
export const ExtraFieldDescriptionBody = Type.Object({
  requestID: RequestIdString,
  description: Text(),
  version: SeenVersion,
});
/** The value as typed: blank → 0, commas stripped (spec 02 §4.4); anything else not a number is a 400. */
export const ExtraFieldValueBody = Type.Object({
  requestID: RequestIdString,
  value: CapturedAmountSchema,
  version: SeenVersion,
});
export type ExtraFieldIncludedBody = Static<typeof ExtraFieldIncludedBody>;
export type ExtraFieldDescriptionBody = Static<typeof ExtraFieldDescriptionBody>;
export type ExtraFieldValueBody = Static<typeof ExtraFieldValueBody>;

const BuildingTotalsSchema = Type.Object({
  area: Type.Number(),
  value: Type.Number(),
  improvements: Type.Number(),
  total: Type.Number(),
});
/** The figures of libs/domain reportTotals (rand, 2 decimals) and the same in whole cents. */
export const ReportTotalsSchema = Type.Object({
  sections: Type.Record(
    Type.String(),
    Type.Object({
      buildings: Type.Array(BuildingTotalsSchema),
      improvements: Type.Array(Type.Number()),
      subtotal: Type.Number(),
    }),
  ),
  extraField: Type.Number(),
  subtotal: Type.Number(),
  professionalFee: Type.Number(),
  vat: Type.Number(),
  grandTotal: Type.Number(),
  cents: Type.Object({
    subtotal: Type.Integer(),
    professionalFee: Type.Integer(),
    vat: Type.Integer(),
    grandTotal: Type.Integer(),
  }),
});
export type ReportTotalsAnswer = Static<typeof ReportTotalsSchema>;

/** The group's settings (identity.groups) and the report's VAT rate that priced the totals. */
export const TotalsSettingsSchema = Type.Object({
  doubleVolumePercent: Type.Number(),
  includeProfessionalFee: Type.Boolean(),
  professionalFeePercentage: Type.Number(),
  includeVAT: Type.Boolean(),
  vatPercentage: Type.Number(),
});

/**
 * The sum-insured check (issue 13 "Beyond the spec"): the client's sum insured from the request's reference
 * under a key matching /SUM_INSURED/ (e.g. the group's reference 'Sum Insured'), against the grand total
 * (libs/domain sumInsuredCheck). `differencePercent` = (value − grand total) / grand total × 100 (negative:
 * under-insured); beyond ± `tolerancePercent` it is under- or over-insured.
 */
export const SumInsuredCheckSchema = Type.Object({
  value: Type.Number(),
  verdict: Type.Union([Type.Literal('under-insured'), Type.Literal('over-insured'), Type.Literal('within')]),
  differencePercent: Type.Number(),
  tolerancePercent: Type.Number(),
});
export type SumInsuredCheck = Static<typeof SumInsuredCheckSchema>;

/** GET totals/{requestID}. `formatted`: spec 02 §4.5's en-US figures ('1,234,567.89'). */
export const TotalsAnswer = Type.Object({
  ID: Type.String(),
  version: Type.Integer({ minimum: 0 }),
  settings: TotalsSettingsSchema,
  totals: ReportTotalsSchema,
  formatted: Type.Object({
    extraField: Type.String(),
    subtotal: Type.String(),
    professionalFee: Type.String(),
    vat: Type.String(),
    grandTotal: Type.String(),
  }),
  /**
   * Null: no sum insured in the request's reference, or no grand total to compare with. Optional: an
   * older service leaves it out.
   */
  sumInsured: Type.Optional(nullable(SumInsuredCheckSchema)),
});
export type TotalsAnswer = Static<typeof TotalsAnswer>;

/** What changed in a submitted version since the one before it (issue 13 "Beyond the spec"). */
export const VersionChanges = Type.Object({
  sectionsAdded: Type.Array(Type.String()),
  sectionsRemoved: Type.Array(Type.String()),
  sectionsChanged: Type.Array(Type.String()),
  detailsChanged: Type.Array(Type.String()),
  grandTotalBefore: nullable(Type.Number()),
  grandTotalAfter: nullable(Type.Number()),
});
export type VersionChanges = Static<typeof VersionChanges>;

export const ReportVersion = Type.Object({
  number: Type.Integer({ minimum: 1 }),
  reportVersion: Type.Integer({ minimum: 0 }),
  submittedAt: Type.String(),
  submittedBy: nullable(Type.Object({ id: nullable(Type.String()), name: Type.String() })),
  sections: ReportSectionsSchema,
  totals: nullable(ReportTotalsSchema),
  /** Against the version before (the first: against nothing). */
  changes: VersionChanges,
});
export type ReportVersion = Static<typeof ReportVersion>;

/** GET versions/{requestID}: newest first; `sinceLast` compares the report now with the last submission. */
export const VersionsAnswer = Type.Object({
  ID: Type.String(),
  versions: Type.Array(ReportVersion),
  sinceLast: nullable(VersionChanges),
});
export type VersionsAnswer = Static<typeof VersionsAnswer>;

/** A 409: the request's status does not allow editing, or the report changed meanwhile (`current`). */
export const SectionsConflictAnswer = Type.Object({
  statusCode: Type.Literal(409),
  error: Type.String(),
  message: Type.String(),
  messages: Type.Optional(Type.Array(Type.String())),
  requestId: Type.Optional(Type.String()),
  current: Type.Optional(SectionsAnswer),
});
export const DetailsConflictAnswer = Type.Object({
  statusCode: Type.Literal(409),
  error: Type.String(),
  message: Type.String(),
  messages: Type.Optional(Type.Array(Type.String())),
  requestId: Type.Optional(Type.String()),
  current: Type.Optional(ReportDetails),
});
