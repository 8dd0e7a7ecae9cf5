import { Type } from '@sinclair/typebox';
import type { Queue } from 'bullmq';
import sharp from 'sharp';
import {
  AERIAL_MAX_BYTES,
  AERIAL_MAX_SIDE,
  AERIAL_VIEW_IDS,
  CanGenerateAnswer,
  ErrorAnswer,
  errorAnswers,
  GenerateAnswer,
  HIGH_RES_STATUSES,
  HighResBody,
  IRIS_API,
  IRIS_ROUTES,
  IrisCreateAnswer,
  IrisCreateBody,
  IrisReport,
  IrisSettings,
  literalUnion,
  ReadyAnswer,
  ReportIdParams,
  ROLE,
  SuccessAnswer,
  SurveyId,
  type HighResStatus,
  type PdfState,
} from '@portal/contracts';
import { roundCoordinate } from '@portal/domain';
import { cancelPdfJob, ensurePdfJob, type PdfJobData, type PdfJobRow } from '@portal/pdf-jobs';
import {
  badRequest,
  callerHooks,
  conflict,
  fileAnswer,
  forbidden,
  notFound,
  type Caller,
  type Storage,
  type TypedFastify,
} from '@portal/server-kit';
import type { IrisContext } from '../context';
import { computeRiskReport } from '../risk/compute';
import { IRIS_PDF_KIND, canGenerate, toIrisReport } from '../reports';
import {
  bumpReportVersion,
  clearAerial,
  currentJob,
  insertReport,
  latestDonePdf,
  readAerialSurvey,
  readIrisRequest,
  readReport,
  readReportOfRequest,
  saveAerial,
  saveHighResStatus,
  type ReportRow,
} from '../store';

const ERRORS = errorAnswers(400, 401, 403, 404);

export const IRIS_TEXT = {
  noService: 'The IRiS service is not active for your account.',
  notYours: 'This report belongs to another user.',
  requestNotYours: 'This request belongs to another user.',
  noReport: 'No such report.',
  noRequest: 'No such request.',
  notIris: (type: string) => `Request is a ${type} request: only IRIS requests have risk reports.`,
  noPoint: 'The request has no coordinates: a risk report needs a point.',
  wrongRequest: 'The report does not belong to that request.',
  notPrepared: "The report's imagery is still being prepared: ask again shortly.",
  notReady: 'The PDF is not ready.',
  notMostCommon: (status: number) => `Status ${status} is not the most common of the counts sent.`,
  badImage: 'The aerial view must be a JPEG or PNG picture.',
  imageTooLarge: `The aerial view may be at most ${AERIAL_MAX_SIDE} pixels a side.`,
  noSurvey: (id: number) => `There is no imagery survey ${id}.`,
  surveyMissesPoint: (id: number) => `Imagery survey ${id} does not cover the report's point.`,
} as const;

/** Who sees a report: its owner, administrators and SAVi operators (spec 03 §7 download; the same for every call). */
const STAFF: readonly string[] = [ROLE.admin, ROLE.saviOperator];
const mayRead = (caller: Caller, ownerId: string) =>
  caller.id === ownerId || caller.roles.some((role) => STAFF.includes(role));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const readyAnswer = (reportId: string, job: PdfJobRow | null) => ({
  success: true,
  pdfReady: job?.state === 'done',
  pdfUrl: job?.state === 'done' ? IRIS_API.download(reportId) : null,
  progress: job ? Math.round(job.progress) : 0,
  state: (job?.state ?? 'none') as PdfState,
  error: job?.state === 'failed' ? job.error : null,
});

/**
 * The IRiS calls (spec 03 §7 "Requests and IRiS"): create the report of an IRIS request (its risk data
 * computed from the request's point), the imagery step (high-resolution status, the chosen aerial view,
 * clean), and the PDF flow of §4 (canGenerate, generate, ready, regenerate, cancel, download) over
 * libs/pdf-jobs. Every call needs a session and is the report owner's, an administrator's or an operator's.
 */
export async function irisRoutes(
  app: TypedFastify,
  ctx: IrisContext & { queue: Queue<PdfJobData>; storage: Storage },
): Promise<void> {
  const onRequest = callerHooks(app, ctx.ds);

  const loadReport = async (reportId: string, caller: Caller): Promise<ReportRow> => {
    const report = await readReport(ctx.ds, reportId);
    if (!report) throw notFound(IRIS_TEXT.noReport);
    if (!mayRead(caller, report.user_id)) throw forbidden(IRIS_TEXT.notYours);
    return report;
  };

  /** Queues the PDF of the report's current version (idempotent: the same version is queued once). */
  const queuePdf = (report: ReportRow, userId: string) =>
    ensurePdfJob(ctx.ds, ctx.queue, {
      kind: IRIS_PDF_KIND,
      subjectId: report.id,
      version: report.version,
      userId,
    });

  app.get(
    IRIS_ROUTES.settings,
    {
      onRequest,
      schema: {
        summary: "Read IRiS's settings",
        description: 'What the IRiS screens need besides the reports: the support address.',
        tags: ['IRiS'],
        response: { 200: IrisSettings, ...ERRORS },
      },
    },
    async () => ({ supportEmail: ctx.config.supportEmail }),
  );

  app.put(
    IRIS_ROUTES.create,
    {
      onRequest,
      schema: {
        summary: 'Create the risk report of a request',
        description:
          "Creates the IRiS risk report of an IRIS request (its risk data computed at the request's point) and answers it with the request; asking again answers the report there is (200, 201 when created).",
        tags: ['IRiS'],
        body: IrisCreateBody,
        response: { 200: IrisCreateAnswer, 201: IrisCreateAnswer, ...ERRORS },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      if (!caller.services.includes('iris')) throw forbidden(IRIS_TEXT.noService);
      const { requestId } = request.body;
      if (!UUID.test(requestId)) throw badRequest('requestId must be a request id (a UUID).');
      const target = await readIrisRequest(ctx.ds, requestId);
      if (!target) throw notFound(IRIS_TEXT.noRequest);
      if (!mayRead(caller, target.user_id)) throw forbidden(IRIS_TEXT.requestNotYours);
      if (target.request_type !== 'IRIS') throw badRequest(IRIS_TEXT.notIris(target.request_type));
      if (target.lat === null || target.lng === null) throw badRequest(IRIS_TEXT.noPoint);
      const requestAnswer = {
        _id: target.id,
        gripReference: target.grip_reference,
        requestType: target.request_type,
        status: target.status,
        address: target.address,
        created: new Date(target.created_at).toISOString(),
        coordinates: { lat: target.lat, lng: target.lng },
      };
      // One report per request: asking again answers the one there is.
      const existing = await readReportOfRequest(ctx.ds, target.id);
      if (existing) {
        return {
          success: true,
          request: requestAnswer,
          report: toIrisReport(existing, await currentJob(ctx.ds, existing)),
        };
      }
      const point = { lat: roundCoordinate(target.lat), lng: roundCoordinate(target.lng) };
      const data = await computeRiskReport(ctx.ds, point);
      await insertReport(ctx.ds, { requestId: target.id, userId: target.user_id, ...point, data });
      const created = await readReportOfRequest(ctx.ds, target.id);
      if (!created) throw notFound(IRIS_TEXT.noRequest);
      app.meter(request, 'iris_report');
      reply.code(201);
      return { success: true, request: requestAnswer, report: toIrisReport(created, null) };
    },
  );

  app.get(
    IRIS_ROUTES.report,
    {
      onRequest,
      schema: {
        summary: 'Read a risk report',
        description:
          "A risk report with its risk data, imagery choices and the state of its PDF; the owner's, an administrator's or an operator's.",
        tags: ['IRiS'],
        params: ReportIdParams,
        response: { 200: Type.Object({ success: Type.Boolean(), report: IrisReport }), ...ERRORS },
      },
    },
    async (request) => {
      const report = await loadReport(request.params.reportId, request.caller);
      return { success: true, report: toIrisReport(report, await currentJob(ctx.ds, report)) };
    },
  );

  app.get(
    IRIS_ROUTES.canGenerate,
    {
      onRequest,
      schema: {
        summary: "Ask whether a report's PDF can be made",
        description:
          'Whether the report is ready for its PDF (its imagery prepared), and why not when it is not.',
        tags: ['IRiS'],
        params: ReportIdParams,
        response: { 200: CanGenerateAnswer, ...ERRORS },
      },
    },
    async (request) => canGenerate(await loadReport(request.params.reportId, request.caller)),
  );

  app.get(
    IRIS_ROUTES.generate,
    {
      onRequest,
      schema: {
        summary: "Queue a report's PDF",
        description:
          "Queues the PDF of the report's current version (once per version: asking again answers the same job); poll pdf/ready, then download it.",
        tags: ['IRiS'],
        params: Type.Object({
          reportId: Type.String({ format: 'uuid' }),
          requestId: Type.String({ format: 'uuid' }),
        }),
        response: { 200: GenerateAnswer, 409: ErrorAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const report = await loadReport(request.params.reportId, request.caller);
      if (report.request_id !== request.params.requestId) throw badRequest(IRIS_TEXT.wrongRequest);
      if (!canGenerate(report).canGeneratePdf) throw conflict(IRIS_TEXT.notPrepared);
      const job = await queuePdf(report, request.caller.id);
      return { success: true, progress: Math.round(job.progress), state: job.state, version: job.version };
    },
  );

  app.get(
    IRIS_ROUTES.ready,
    {
      onRequest,
      schema: {
        summary: "Ask whether a report's PDF is ready",
        description:
          "The state of the report's PDF job (queued, running, done, failed, cancelled), its progress in per cent, and the download URL once it is done.",
        tags: ['IRiS'],
        params: ReportIdParams,
        response: { 200: ReadyAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const report = await loadReport(request.params.reportId, request.caller);
      let job = await currentJob(ctx.ds, report);
      // A queued or running job whose BullMQ job was lost (Redis flushed) is queued again: nothing is lost.
      if (job && (job.state === 'queued' || job.state === 'running'))
        job = await queuePdf(report, job.user_id ?? request.caller.id);
      return readyAnswer(report.id, job);
    },
  );

  app.get(
    IRIS_ROUTES.regenerate,
    {
      onRequest,
      schema: {
        summary: "Make a report's PDF again",
        description:
          'Queues a new PDF of the report (a new version), e.g. after its imagery changed; 409 while one is being made.',
        tags: ['IRiS'],
        params: ReportIdParams,
        response: { 200: GenerateAnswer, 409: ErrorAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const before = await loadReport(request.params.reportId, request.caller);
      if (!canGenerate(before).canGeneratePdf) throw conflict(IRIS_TEXT.notPrepared);
      const old = await currentJob(ctx.ds, before);
      if (old && (old.state === 'queued' || old.state === 'running'))
        await cancelPdfJob(ctx.ds, ctx.queue, old.id);
      await bumpReportVersion(ctx.ds, before.id);
      const report = (await readReport(ctx.ds, before.id))!;
      const job = await queuePdf(report, request.caller.id);
      return { success: true, progress: Math.round(job.progress), state: job.state, version: job.version };
    },
  );

  app.route({
    method: ['GET', 'POST'],
    url: IRIS_ROUTES.cancel,
    onRequest,
    schema: {
      summary: "Cancel a report's PDF",
      description: "Cancels the report's queued or running PDF job and answers the job's state after.",
      tags: ['IRiS'],
      params: ReportIdParams,
      response: { 200: ReadyAnswer, ...ERRORS },
    },
    handler: async (request) => {
      const { reportId } = request.params as { reportId: string };
      const report = await loadReport(reportId, request.caller);
      const job = await currentJob(ctx.ds, report);
      const after = job ? await cancelPdfJob(ctx.ds, ctx.queue, job.id) : null;
      return readyAnswer(report.id, after);
    },
  });

  app.get(
    IRIS_ROUTES.download,
    {
      onRequest,
      schema: {
        summary: "Download a report's PDF",
        description: "The report's latest PDF (application/pdf, as an attachment); 404 while none is done.",
        tags: ['IRiS'],
        params: ReportIdParams,
        response: { 200: fileAnswer('application/pdf', 'The PDF of the report.'), ...ERRORS },
      },
    },
    async (request, reply) => {
      const report = await loadReport(request.params.reportId, request.caller);
      const job = await latestDonePdf(ctx.ds, report.id);
      const file = job?.file_key ? await ctx.storage.stream(job.file_key) : null;
      if (!file) throw notFound(IRIS_TEXT.notReady);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-length', String(file.info.size))
        .header('content-disposition', `attachment; filename="IRiS-${report.grip_reference}.pdf"`)
        .header('cache-control', 'private, no-cache')
        .send(file.stream);
    },
  );

  app.route({
    method: ['GET', 'POST'],
    url: IRIS_ROUTES.clean,
    onRequest,
    schema: {
      summary: "Clear a report's imagery choices",
      description:
        "Removes the report's chosen aerial view and high-resolution status, so the imagery step starts over.",
      tags: ['IRiS'],
      params: ReportIdParams,
      response: { 200: SuccessAnswer, ...ERRORS },
    },
    handler: async (request) => {
      const { reportId } = request.params as { reportId: string };
      const report = await loadReport(reportId, request.caller);
      // Spec 03 §4 step 6: closing the report deletes the server's images (the PDFs made stay).
      const keys = AERIAL_VIEW_IDS.map((view) => aerialKey(report.id, view));
      await Promise.all(keys.map((key) => ctx.storage.delete(key).catch(() => false)));
      await clearAerial(ctx.ds, report.id);
      return { success: true };
    },
  });

  app.post(
    IRIS_ROUTES.highres,
    {
      onRequest,
      schema: {
        summary: 'Set the high-resolution imagery status',
        description:
          "Records the report's high-resolution imagery status (the most common of the counts sent must be the one named).",
        tags: ['IRiS'],
        params: Type.Object({
          reportId: Type.String({ format: 'uuid' }),
          status: literalUnion(HIGH_RES_STATUSES),
        }),
        body: Type.Optional(HighResBody),
        response: { 200: SuccessAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const report = await loadReport(request.params.reportId, request.caller);
      const status = Number(request.params.status) as HighResStatus;
      const counts = request.body?.counts ?? {};
      const values = Object.values(counts).filter((n): n is number => typeof n === 'number');
      // Spec 03 §4: the most common status is sent; a status the counts contradict is refused.
      if (values.length > 0 && (counts[status] ?? 0) < Math.max(...values))
        throw badRequest(IRIS_TEXT.notMostCommon(status));
      await saveHighResStatus(ctx.ds, report.id, status, counts);
      return { success: true };
    },
  );

  app.addContentTypeParser(
    ['image/jpeg', 'image/png'],
    { parseAs: 'buffer', bodyLimit: AERIAL_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );
  app.post(
    IRIS_ROUTES.aerial,
    {
      onRequest,
      bodyLimit: AERIAL_MAX_BYTES,
      schema: {
        summary: "Set a report's aerial view",
        description:
          "Stores the request's body, a picture (Content-Type image/jpeg or image/png), as one of the report's aerial views, with the imagery survey it came from.",
        tags: ['IRiS'],
        params: Type.Object({
          reportId: Type.String({ format: 'uuid' }),
          viewId: literalUnion(AERIAL_VIEW_IDS),
        }),
        // Issue 21: the survey the picture was taken in (the screen's timeline may pick an older one);
        // without it, the newest at the point — what the locator's imagery calls answer without `survey`.
        querystring: Type.Object({ survey: Type.Optional(SurveyId) }),
        response: { 200: SuccessAnswer, 415: ErrorAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const report = await loadReport(request.params.reportId, request.caller);
      if (!Buffer.isBuffer(request.body)) throw badRequest(IRIS_TEXT.badImage);
      const surveyId = request.query.survey ?? null;
      const survey = await readAerialSurvey(ctx.ds, surveyId, report);
      if (surveyId !== null && !survey) throw badRequest(IRIS_TEXT.noSurvey(surveyId));
      if (surveyId !== null && !survey!.covers) throw badRequest(IRIS_TEXT.surveyMissesPoint(surveyId));
      // Magic bytes and size are checked by decoding; the stored picture is re-encoded, never the upload.
      let jpeg: Buffer;
      try {
        const image = sharp(request.body, { limitInputPixels: AERIAL_MAX_SIDE * AERIAL_MAX_SIDE });
        const meta = await image.metadata();
        if (meta.format !== 'jpeg' && meta.format !== 'png') throw badRequest(IRIS_TEXT.badImage);
        if ((meta.width ?? 0) > AERIAL_MAX_SIDE || (meta.height ?? 0) > AERIAL_MAX_SIDE)
          throw badRequest(IRIS_TEXT.imageTooLarge);
        jpeg = await image.rotate().jpeg({ quality: 85 }).toBuffer();
      } catch (err) {
        if (err instanceof Error && 'statusCode' in err) throw err;
        throw badRequest(IRIS_TEXT.badImage);
      }
      const viewId = String(request.params.viewId);
      const key = aerialKey(report.id, viewId);
      await ctx.storage.put(key, jpeg, { contentType: 'image/jpeg' });
      await saveAerial(ctx.ds, report.id, { viewId, key, survey });
      return { success: true };
    },
  );
}

/** Where the chosen aerial picture of a report is kept. */
export const aerialKey = (reportId: string, viewId: string) => `iris/${reportId}/aerial-${viewId}.jpg`;
