import { Type, type Static } from '@sinclair/typebox';
import type { Queue } from 'bullmq';
import {
  GenerateReportAnswer,
  PDF_STATES,
  REPORTBUILDER_API,
  REPORTBUILDER_ROUTES,
  ReadyAnswer,
  RequestIdParams,
  RequestIdString,
  isReportSubmittedStatus,
  literalUnion,
  type PdfState,
} from '@portal/contracts';
import { ensurePdfJob, saviJobInput, waitForPdfJob, type PdfJobData, type PdfJobRow } from '@portal/pdf-jobs';
import {
  HttpError,
  badRequest,
  callerHooks,
  fileAnswer,
  notFound,
  type Caller,
  type Storage,
  type TypedFastify,
} from '@portal/server-kit';
import type { ReportBuilderContext } from '../context';
import { ERRORS } from './errors';
import { attachmentHeader, currentSaviJob, latestDoneSaviPdf, saviFileName } from '../pdf/report';
import { checkRead, readReport, versionOf, type ReportState } from '../store';

export const PDF_TEXT = {
  notReady: 'There is no PDF of this report yet: generate it first.',
  making: 'The PDF of this report is being made: try again in a moment.',
  country: (country: string) => `Reports are made for South Africa, not '${country}'.`,
} as const;

/**
 * GET report/{requestID}/savi/{country}/{group}/full: the contract's `{ success, url }` (url: the download
 * path once the PDF of the current version is ready, else null) and the job's state.
 */
export const GeneratePdfAnswer = Type.Object({
  ...GenerateReportAnswer.properties,
  ready: Type.Boolean(),
  state: literalUnion(PDF_STATES),
  progress: Type.Number(),
  version: Type.Integer(),
  error: Type.Union([Type.Null(), Type.String()]),
});
export type GeneratePdfAnswer = Static<typeof GeneratePdfAnswer>;

/** GET report/{requestID}/pdf/ready: IRiS's ready answer plus the versions. */
export const SaviReadyAnswer = Type.Object({
  ...ReadyAnswer.properties,
  /** The report's current version (what generate would render). */
  version: Type.Integer(),
  /** The version the download serves (the newest finished PDF), or null before there is one. */
  pdfVersion: Type.Union([Type.Null(), Type.Integer()]),
});
export type SaviReadyAnswer = Static<typeof SaviReadyAnswer>;

/**
 * The report PDF's calls (spec 02 §7.1; issue 13) over libs/pdf-jobs: generate (queues the PDF of the
 * report's current version and waits up to REPORTBUILDER_PDF_WAIT_MS for it), a ready poll for the remote's
 * preview, and the download of the newest finished PDF. A submitted report's (QC check and later) PDF is
 * queued by its submission (services/requests); the ready poll and the download queue it again should it be
 * missing, and its download serves its current version. Each is the request's owner's and staff's (the
 * readers of the report: admin, saviOperator, saviQC); others 403, no session 401, a request that is not
 * SAVI 409. The PDFs are rendered by src/worker.ts.
 */
export async function pdfRoutes(
  app: TypedFastify,
  ctx: ReportBuilderContext & { queue: Queue<PdfJobData>; storage: Storage },
): Promise<void> {
  const onRequest = callerHooks(app, ctx.ds);
  const defaultVat = ctx.config.vatPercentage;

  const read = async (id: string, caller: Caller) => {
    const state = await readReport(ctx.ds, id, defaultVat);
    checkRead(state, caller);
    return state;
  };

  /** Queues the current version's PDF (once per version; a failed or cancelled one is queued anew). */
  const queuePdf = (state: ReportState, userId: string) =>
    ensurePdfJob(ctx.ds, ctx.queue, saviJobInput(state, userId));

  /**
   * A submitted report's PDF is its current version's, made by the server (docs/decisions.md "The request's
   * life is the server's"): when it is not done yet (still rendering, or lost and queued again here) the
   * download waits for it like generate does; past that wait it is a 503 with Retry-After, never "no PDF".
   */
  const submittedPdf = async (state: ReportState, userId: string): Promise<PdfJobRow> => {
    let job = await currentSaviJob(ctx.ds, state);
    if (job?.state !== 'done')
      job = await waitForPdfJob(ctx.ds, await queuePdf(state, userId), ctx.config.pdfWaitMs);
    if (job.state !== 'done') throw new HttpError(503, PDF_TEXT.making, undefined, { 'retry-after': '10' });
    return job;
  };

  const generateAnswer = (requestId: string, job: PdfJobRow): GeneratePdfAnswer => ({
    success: job.state !== 'failed',
    url: job.state === 'done' ? REPORTBUILDER_API.download(requestId) : null,
    ready: job.state === 'done',
    state: job.state,
    progress: Math.round(job.progress),
    version: job.version,
    error: job.state === 'failed' ? job.error : null,
  });

  app.get(
    REPORTBUILDER_ROUTES.generate,
    {
      onRequest,
      schema: {
        summary: "Make a SAVi report's PDF",
        description:
          "Queues the PDF of the report's current version and waits up to `wait` seconds for it; answers its state and, once done, its download URL (spec 02 §7.1).",
        tags: ['Report builder'],
        params: Type.Object({
          requestID: RequestIdString,
          country: Type.String({ maxLength: 100 }),
          group: Type.String({ maxLength: 200 }),
        }),
        querystring: Type.Object({ wait: Type.Optional(Type.Integer({ minimum: 0, maximum: 60 })) }),
        response: { 200: GeneratePdfAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const { requestID, country } = request.params;
      if (country.trim().toLowerCase() !== 'south africa') throw badRequest(PDF_TEXT.country(country));
      // The group in the path is the remote's; the totals (and the PDF) use the request's own group.
      const state = await read(requestID, request.caller);
      const waitMs = request.query.wait === undefined ? ctx.config.pdfWaitMs : request.query.wait * 1000;
      const job = await waitForPdfJob(ctx.ds, await queuePdf(state, request.caller.id), waitMs);
      return generateAnswer(state.request.id, job);
    },
  );

  app.get(
    REPORTBUILDER_ROUTES.ready,
    {
      onRequest,
      schema: {
        summary: "Ask whether a SAVi report's PDF is ready",
        description:
          "The state of the report's PDF (queued, running, done, failed), its progress and the download URL of the latest one done; a submitted report's missing PDF is queued.",
        tags: ['Report builder'],
        params: RequestIdParams,
        response: { 200: SaviReadyAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const state = await read(request.params.requestID, request.caller);
      let job = await currentSaviJob(ctx.ds, state);
      // A queued or running job whose BullMQ job was lost (Redis flushed) is queued again: nothing is lost.
      // A submitted report's PDF is the server's to make: one that is missing is queued (never 'none').
      if (
        (job && (job.state === 'queued' || job.state === 'running')) ||
        (!job && isReportSubmittedStatus(state.request.status))
      )
        job = await queuePdf(state, job?.user_id ?? request.caller.id);
      const done = await latestDoneSaviPdf(ctx.ds, state.request.id);
      return {
        success: true,
        pdfReady: job?.state === 'done',
        pdfUrl: done ? REPORTBUILDER_API.download(state.request.id) : null,
        progress: job ? Math.round(job.progress) : 0,
        state: (job?.state ?? 'none') as PdfState,
        error: job?.state === 'failed' ? job.error : null,
        version: versionOf(state),
        pdfVersion: done?.version ?? null,
      };
    },
  );

  app.get(
    REPORTBUILDER_ROUTES.download,
    {
      onRequest,
      schema: {
        summary: "Download a SAVi report's PDF",
        description:
          "The report's PDF (application/pdf; an attachment, or inline with `inline=true`): for a submitted report " +
          'the PDF of its submitted version (made first if missing), otherwise the latest one done.',
        tags: ['Report builder'],
        response: { 200: fileAnswer('application/pdf', 'The PDF of the report.'), ...ERRORS },
        params: RequestIdParams,
        querystring: Type.Object({ inline: Type.Optional(Type.Boolean()) }),
      },
    },
    async (request, reply) => {
      const state = await read(request.params.requestID, request.caller);
      const job = isReportSubmittedStatus(state.request.status)
        ? await submittedPdf(state, request.caller.id)
        : await latestDoneSaviPdf(ctx.ds, state.request.id);
      const file = job?.file_key ? await ctx.storage.stream(job.file_key) : null;
      if (!job || !file) throw notFound(PDF_TEXT.notReady);
      const name = await saviFileName(ctx.ds, state, job.finished_at ?? new Date());
      const disposition = attachmentHeader(name);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-length', String(file.info.size))
        .header(
          'content-disposition',
          request.query.inline ? disposition.replace(/^attachment/, 'inline') : disposition,
        )
        .header('cache-control', 'private, no-cache')
        .send(file.stream);
    },
  );
}
