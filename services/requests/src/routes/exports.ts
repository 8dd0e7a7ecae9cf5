import type { Queue } from 'bullmq';
import {
  ConsoleJob,
  CreateZipBody,
  ErrorAnswer,
  EXPORT_MAX_ROWS,
  ExportToExcelBody,
  REQUEST_ADMIN_ROUTES,
} from '@portal/contracts';
import { ROUTE_REFUSALS } from '@portal/domain';
import {
  badRequest,
  conflict,
  fileAnswer,
  forbidden,
  notFound,
  type Storage,
  type TypedFastify,
} from '@portal/server-kit';
import { callerHooks } from '@portal/server-kit';
import type { RequestsContext } from '../context';
import { enqueueConsoleJob, readConsoleJob, toConsoleJob } from '../jobs/consoleJobs';
import { checkId } from '../queue/changes';
import { countMatchingRequests } from '../queue/counts';
import { parseRequestFilters } from '../queue/filters';
import { isAdmin, isConsoleUser } from '../queue/guards';
import { ERRORS, IdParam } from './schemas';

export const EXPORT_TEXT = {
  console: ROUTE_REFUSALS.exports,
  notYours: 'This job belongs to another user.',
  notFound: 'No such job.',
  notReady: (state: string) => `The file is not ready (the job is ${state}).`,
  tooMany: (count: number) =>
    `${count.toLocaleString('en-ZA')} requests match: an export holds at most ${EXPORT_MAX_ROWS.toLocaleString('en-ZA')}. Narrow the filters.`,
} as const;

/**
 * The console's background work (spec 02 §7.2): export_to_excel and createzip record a job and queue it
 * (202 with the job), the worker (src/worker.ts) writes the file, jobs/{id} answers its progress from
 * PostgreSQL, download_xlsx/{id} and downloadzip/{id} stream the file. A job is its user's own.
 */
export async function exportRoutes(
  app: TypedFastify,
  ctx: RequestsContext & { queue: Queue; storage: Storage },
): Promise<void> {
  const onRequest = callerHooks(app, ctx.ds);
  const requireConsoleUser = (caller: { roles: string[] }) => {
    if (!isConsoleUser(caller)) throw forbidden(EXPORT_TEXT.console);
  };
  const ownJob = async (id: string, caller: { id: string; roles: string[] }) => {
    const job = await readConsoleJob(ctx.ds, checkId(id));
    if (!job) throw notFound(EXPORT_TEXT.notFound);
    if (job.user_id !== caller.id && !isAdmin(caller)) throw forbidden(EXPORT_TEXT.notYours);
    return job;
  };

  app.post(
    REQUEST_ADMIN_ROUTES.exportToExcel,
    {
      onRequest,
      schema: {
        summary: 'Export requests to Excel',
        description:
          "Queues an xlsx export of the requests matching the console's filters (or a selection) and answers the job (202); poll it, then download it.",
        tags: ['Requests'],
        body: ExportToExcelBody,
        response: { 202: ConsoleJob, ...ERRORS },
      },
    },
    async (request, reply) => {
      requireConsoleUser(request.caller);
      const ids = request.body.requests?.length ? [...new Set(request.body.requests.map(checkId))] : null;
      const filters = request.body.filters ?? {};
      if (!ids) {
        // Checked now (a bad filter is a 400 to the user, not a failed job), and bounded by Excel's sheet.
        const total = await countMatchingRequests(ctx.ds, parseRequestFilters(filters));
        if (total > EXPORT_MAX_ROWS) throw badRequest(EXPORT_TEXT.tooMany(total));
      }
      const job = await enqueueConsoleJob(ctx.ds, ctx.queue, {
        kind: 'xlsx',
        userId: request.caller.id,
        params: { ids, filters },
      });
      return reply.code(202).send(job);
    },
  );

  app.post(
    REQUEST_ADMIN_ROUTES.createZip,
    {
      onRequest,
      schema: {
        summary: 'Zip the reports of requests',
        description:
          "Queues a zip of the selected requests' report PDFs and answers the job (202); poll it, then download it.",
        tags: ['Requests'],
        body: CreateZipBody,
        response: { 202: ConsoleJob, ...ERRORS },
      },
    },
    async (request, reply) => {
      requireConsoleUser(request.caller);
      const ids = [...new Set(request.body.requestids.map(checkId))];
      const job = await enqueueConsoleJob(ctx.ds, ctx.queue, {
        kind: 'zip',
        userId: request.caller.id,
        params: { ids },
      });
      return reply.code(202).send(job);
    },
  );

  app.get(
    REQUEST_ADMIN_ROUTES.job,
    {
      onRequest,
      schema: {
        summary: 'Read an export job',
        description: "The state and progress of one of the caller's export or zip jobs.",
        tags: ['Requests'],
        params: IdParam,
        response: { 200: ConsoleJob, ...ERRORS },
      },
    },
    async (request) => toConsoleJob(await ownJob(request.params.id, request.caller)),
  );

  const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  const registerFileDownload = (kind: 'xlsx' | 'zip', path: string) => {
    const schema = {
      summary: kind === 'xlsx' ? 'Download an Excel export' : 'Download a zip of reports',
      description: `The finished ${kind} file of one of the caller's export jobs (an attachment); 409 while the job runs.`,
      tags: ['Requests'],
      params: IdParam,
      response: {
        200: fileAnswer(kind === 'xlsx' ? XLSX_MEDIA_TYPE : 'application/zip', `The ${kind} file.`),
        ...ERRORS,
        409: ErrorAnswer,
      },
    };
    app.get(path, { onRequest, schema }, async (request, reply) => {
      const job = await ownJob(request.params.id, request.caller);
      if (job.kind !== kind) throw notFound(EXPORT_TEXT.notFound);
      if (job.state !== 'done' || !job.file_key) throw conflict(EXPORT_TEXT.notReady(job.state));
      const file = await ctx.storage.stream(job.file_key);
      if (!file) throw notFound(EXPORT_TEXT.notFound);
      const day = new Date(job.created_at).toISOString().slice(0, 10);
      const name = kind === 'xlsx' ? `requests-${day}.xlsx` : `reports-${day}.zip`;
      return reply
        .type(file.info.contentType)
        .header('content-length', String(file.info.size))
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'private, no-store')
        .send(file.stream);
    });
  };
  registerFileDownload('xlsx', REQUEST_ADMIN_ROUTES.downloadXlsx);
  registerFileDownload('zip', REQUEST_ADMIN_ROUTES.downloadZip);
}
