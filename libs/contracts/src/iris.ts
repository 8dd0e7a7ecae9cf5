import { Type, type Static } from '@sinclair/typebox';
import { literalUnion } from './common';

/**
 * IRiS risk reports (spec 03 "IRiS request and report screen", §3 "IRiS report", §4 "IRiS PDF flow" and
 * "High-resolution imagery status", §7 "Requests and IRiS", §8, §9), served by services/iris; the PDFs are
 * rendered by the iris worker (libs/pdf-jobs). mf-iris (/iris) is the screen.
 */

export const IRIS_API = {
  /** GET: the screen's settings ({ supportEmail }): the address of the spec's error text (configuration). */
  settings: '/api/v1.0/iris/settings',
  /** PUT { requestId }: creates the report of an IRIS request; answers { success, request, report }. */
  create: '/api/v1.0/iris/',
  /** GET: one report (its owner, admin or saviOperator). */
  report: (reportId: string) => `/api/v1.0/iris/${encodeURIComponent(reportId)}`,
  canGenerate: (reportId: string) => `/api/v1.0/iris/${encodeURIComponent(reportId)}/pdf/canGenerate/`,
  generate: (reportId: string, requestId: string) =>
    `/api/v1.0/iris/${encodeURIComponent(reportId)}/${encodeURIComponent(requestId)}/pdf/generate/`,
  ready: (reportId: string) => `/api/v1.0/iris/${encodeURIComponent(reportId)}/pdf/ready/`,
  regenerate: (reportId: string) => `/api/v1.0/iris/${encodeURIComponent(reportId)}/pdf/regenerate/`,
  /** Not in the spec's list (§4 step 5 says the user can cancel): stops the waiting or running job. */
  cancel: (reportId: string) => `/api/v1.0/iris/${encodeURIComponent(reportId)}/pdf/cancel/`,
  download: (reportId: string) => `/api/v1.0/iris/${encodeURIComponent(reportId)}/pdf/download/`,
  clean: (reportId: string) => `/api/v1.0/iris/${encodeURIComponent(reportId)}/imagery/clean/`,
  highres: (reportId: string, status: HighResStatus) =>
    `/api/v1.0/iris/${encodeURIComponent(reportId)}/imagery/highres/${status}`,
  /** POST, body image/jpeg or image/png: the aerial view the user chose for the PDF. */
  aerial: (reportId: string, viewId: AerialViewId) =>
    `/api/v1.0/iris/${encodeURIComponent(reportId)}/aerial/${viewId}`,
} as const;

/** Spec 03 §9: polling intervals of the PDF flow (milliseconds). */
export const IRIS_POLL = { canGenerateMs: 2000, generateRetryMs: 3000, readyMs: 3000 } as const;

/**
 * How long a report waits for its imagery step (the high-resolution status and the chosen aerial view)
 * before canGenerate answers timeout: true (the PDF is then made without the aerial picture, and says so).
 */
export const IRIS_PREPARE_TIMEOUT_MS = 30_000;

/** Spec 03 §4: each imagery answer counted as 0 available, 1 no coverage, 2 offline. */
export const HIGH_RES_STATUSES = [0, 1, 2] as const;
export type HighResStatus = (typeof HIGH_RES_STATUSES)[number];
export const HIGH_RES_STATUS_NAMES: Record<HighResStatus, string> = {
  0: 'available',
  1: 'no coverage',
  2: 'offline',
};

/** The imagery views (spec 01's orientations): the ortho and the four obliques. */
export const AERIAL_VIEW_IDS = ['o', 'n', 'e', 's', 'w'] as const;
export type AerialViewId = (typeof AERIAL_VIEW_IDS)[number];

/** Uploaded aerial pictures: at most this many bytes and pixels a side. */
export const AERIAL_MAX_BYTES = 8 * 1024 * 1024;
export const AERIAL_MAX_SIDE = 4096;

// ---- risk classes (spec 03 §9); the rules are in libs/domain/src/iris.ts ----

export const RISK_CLASSES = ['safe', 'maybe safe', 'not safe', 'dangerous'] as const;
export type RiskClass = (typeof RISK_CLASSES)[number];
const RiskClassSchema = literalUnion(RISK_CLASSES);

/** Where a section's numbers come from: named in the screen and in the PDF. */
export const DataSource = Type.Object({
  name: Type.String(),
  /** The data's own date or period, as published (e.g. '2008/09–2022/23', '2020'). */
  date: Type.String(),
  licence: Type.Optional(Type.String()),
});
export type DataSource = Static<typeof DataSource>;

/** A section with no data for this point says why, plainly (never a made-up number). */
const Unavailable = Type.Union([Type.Null(), Type.String()], {
  description: "null when the section has data; otherwise why not ('outside the elevation model', …)",
});

export const CrimePoint = Type.Object({
  /** The financial year's end: 2009 for SAPS's 2008/2009. */
  yearTo: Type.Integer(),
  /** Incidents per 100 000 residents of the station's area (null when the station has no population). */
  rate: Type.Union([Type.Null(), Type.Number()]),
  /** The reported count for that year. */
  count: Type.Integer(),
});
export type CrimePoint = Static<typeof CrimePoint>;

export const CrimeData = Type.Object({
  precinctName: Type.Union([Type.Null(), Type.String()]),
  /** 'precinct' (the point lies in the precinct polygon) or 'nearest station' (no polygons there). */
  match: Type.Union([Type.Null(), Type.Literal('precinct'), Type.Literal('nearest station')]),
  /** Distance from the point to the station (m). */
  stationDistance: Type.Union([Type.Null(), Type.Number()]),
  population: Type.Union([Type.Null(), Type.Integer()]),
  burglaryBusiness: Type.Array(CrimePoint),
  burglaryResidential: Type.Array(CrimePoint),
  maliciousDamage: Type.Array(CrimePoint),
  unit: Type.String({ description: "e.g. 'incidents per 100 000 residents per year'" }),
  unavailable: Unavailable,
  source: DataSource,
});
export type CrimeData = Static<typeof CrimeData>;

export const ProfileSample = Type.Object({
  /** Signed distance from the point (m): negative south / west, positive north / east. */
  offset: Type.Number(),
  /** Elevation (m); null where the model has no value. */
  ele: Type.Union([Type.Null(), Type.Number()]),
});
export type ProfileSample = Static<typeof ProfileSample>;

export const ElevationData = Type.Object({
  /** Elevation of the point (m above sea level), null outside the model. */
  ele: Type.Union([Type.Null(), Type.Number()]),
  /** North–south and east–west profiles through the point, ±1000 m (spec 03 §9). */
  elevation_ns: Type.Array(ProfileSample),
  elevation_ew: Type.Array(ProfileSample),
  unavailable: Unavailable,
  source: DataSource,
});
export type ElevationData = Static<typeof ElevationData>;

export const WaterBody = Type.Object({
  name: Type.String(),
  kind: Type.Union([Type.Literal('lake'), Type.Literal('river'), Type.Literal('coast')]),
  /** Distance from the point to the nearest part of the water body (m). */
  distance: Type.Number(),
  /** Elevation of that nearest part (m), null outside the elevation model. */
  altitude: Type.Union([Type.Null(), Type.Number()]),
  altitudeClass: Type.Union([Type.Null(), RiskClassSchema]),
  distanceClass: RiskClassSchema,
});
export type WaterBody = Static<typeof WaterBody>;

export const WaterBodyData = Type.Object({
  /** The search radius for "in range" (m). */
  range: Type.Number(),
  waterBodiesInRange: Type.Array(WaterBody),
  riversInRange: Type.Array(WaterBody),
  coastInRange: Type.Array(WaterBody),
  /** The worst class over all water in range, or null when none is in range. */
  overallClass: Type.Union([Type.Null(), RiskClassSchema]),
  /**
   * Why the lists say nothing (no water layer loaded), so an empty list is never read as "no water near".
   * Optional: reports stored before it was added leave it out.
   */
  unavailable: Type.Optional(Unavailable),
  source: DataSource,
});
export type WaterBodyData = Static<typeof WaterBodyData>;

export const FireStation = Type.Object({
  name: Type.String(),
  distance: Type.Number(),
  lat: Type.Number(),
  lng: Type.Number(),
});
export const FireServicesData = Type.Object({
  closestFire: Type.Union([Type.Null(), FireStation]),
  unavailable: Unavailable,
  source: DataSource,
});
export type FireServicesData = Static<typeof FireServicesData>;

export const SoilData = Type.Object({
  s6Value: Type.Union([Type.Null(), Type.Number()]),
  s11Value: Type.Union([Type.Null(), Type.Number()]),
  /** s6Value + s11Value ≥ 12 (spec 03 §9). */
  dangerous: Type.Union([Type.Null(), Type.Boolean()]),
  /** The soil profile site the values come from, its class and distance from the point (m). */
  site: Type.Union([
    Type.Object({
      id: Type.String(),
      classification: Type.Union([Type.Null(), Type.String()]),
      drainage: Type.Union([Type.Null(), Type.String()]),
      distance: Type.Number(),
    }),
    Type.Null(),
  ]),
  /** How s6 and s11 are scored from the profile (shown in the report). */
  method: Type.String(),
  unavailable: Unavailable,
  source: DataSource,
});
export type SoilData = Static<typeof SoilData>;

export const IrisReportData = Type.Object({
  /** The point, rounded to 6 decimals (spec 03 §9). */
  coordinates: Type.Object({ lat: Type.Number(), lng: Type.Number() }),
  crimeData: CrimeData,
  elevation: ElevationData,
  waterBodyData: WaterBodyData,
  fireServicesData: FireServicesData,
  soilData: SoilData,
  /** When the numbers were computed (ISO, UTC; shown in SAST). */
  computedAt: Type.String(),
});
export type IrisReportData = Static<typeof IrisReportData>;

export const PDF_STATES = ['none', 'queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type PdfState = (typeof PDF_STATES)[number];

export const IrisReport = Type.Object({
  _id: Type.String(),
  requestId: Type.String(),
  gripReference: Type.String(),
  address: Type.Union([Type.Null(), Type.String()]),
  created: Type.String(),
  data: IrisReportData,
  highResStatus: Type.Union([Type.Null(), Type.Literal(0), Type.Literal(1), Type.Literal(2)]),
  aerialView: Type.Union([Type.Null(), Type.String()]),
  /** The PDF version the next generate makes (bumped by regenerate). */
  version: Type.Integer(),
  pdf: Type.Object({
    state: literalUnion(PDF_STATES),
    progress: Type.Number(),
    error: Type.Union([Type.Null(), Type.String()]),
  }),
});
export type IrisReport = Static<typeof IrisReport>;

// ---- calls ----

export const IrisSettings = Type.Object({ supportEmail: Type.String() });
export type IrisSettings = Static<typeof IrisSettings>;
/** The support address when IRIS_SUPPORT_EMAIL is not set. */
export const IRIS_SUPPORT_EMAIL_DEFAULT = 'support@portal.test';

export const IrisCreateBody = Type.Object(
  { requestId: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export type IrisCreateBody = Static<typeof IrisCreateBody>;

export const IrisCreateAnswer = Type.Object({
  success: Type.Boolean(),
  /** The request ({ _id, gripReference, … } as GET request/{id}/any answers it). */
  request: Type.Object({ _id: Type.String(), gripReference: Type.String() }, { additionalProperties: true }),
  report: IrisReport,
});
export type IrisCreateAnswer = Static<typeof IrisCreateAnswer>;

export const ReportIdParams = Type.Object({ reportId: Type.String({ format: 'uuid' }) });
export type ReportIdParams = Static<typeof ReportIdParams>;

export const CanGenerateAnswer = Type.Object({
  success: Type.Boolean(),
  /** The imagery step's progress, 0–100. */
  progress: Type.Number(),
  canGeneratePdf: Type.Boolean(),
  timeout: Type.Boolean(),
});
export type CanGenerateAnswer = Static<typeof CanGenerateAnswer>;

export const GenerateAnswer = Type.Object({
  success: Type.Boolean(),
  progress: Type.Number(),
  state: literalUnion(PDF_STATES),
  version: Type.Integer(),
});
export type GenerateAnswer = Static<typeof GenerateAnswer>;

export const ReadyAnswer = Type.Object({
  success: Type.Boolean(),
  pdfUrl: Type.Union([Type.Null(), Type.String()]),
  pdfReady: Type.Boolean(),
  progress: Type.Number(),
  state: literalUnion(PDF_STATES),
  error: Type.Union([Type.Null(), Type.String()]),
});
export type ReadyAnswer = Static<typeof ReadyAnswer>;

/** POST imagery/highres/{status}: how many imagery answers had each status. */
export const HighResBody = Type.Object(
  {
    counts: Type.Object(
      {
        0: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000 })),
        1: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000 })),
        2: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000 })),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type HighResBody = Static<typeof HighResBody>;

/** The queues of the portal, listed by the operators' dashboard (/admin/queues). */
export const PORTAL_QUEUES = {
  requestConsole: 'request-console',
  irisPdf: 'iris-pdf',
  reportbuilderPdf: 'reportbuilder-pdf',
  /** Webhooks (issue 22): an event's fan-out to its endpoints (and the outbox sweeper), and each delivery. */
  webhookDispatch: 'webhook-dispatch',
  webhookDelivery: 'webhook-delivery',
  /** Notifications (issue 24): a notification's push and mail (and the late sweep), by the requests worker. */
  notifications: 'notifications',
} as const;
export const QUEUE_DASHBOARD_PATH = '/admin/queues';
