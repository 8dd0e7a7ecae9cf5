import { Type } from '@sinclair/typebox';
import {
  INSIGHT_ROUTES,
  InsightAnswer,
  InsightExportQuery,
  InsightQuery,
  errorAnswers,
} from '@portal/contracts';
import { callerHooks, type TypedFastify } from '@portal/server-kit';
import type { RequestsContext } from '../context';
import { chartTable, exportFileName, tableCsv, tableWorkbook } from '../insight/exportTables';
import { insightFigures, type InsightQueues } from '../insight/figures';
import { insightScope } from '../insight/scope';

const TAGS = ['Insight'];
const ERRORS = errorAnswers(400, 401, 403);
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** A file's bytes (the OpenAPI document says what they are; nothing is serialised). */
const FileAnswer = (contentType: string) =>
  Type.Unsafe<Buffer | string>({ type: 'string', format: 'binary', contentMediaType: contentType });

/**
 * The operations dashboard (issue 24; docs/insight.md): the period's figures from the request history, and
 * each chart's data as a file. The route table lets in administrators, SAVi operators and group admins;
 * insightScope keeps a group's admin to their own group (403 for another).
 */
export async function insightRoutes(
  app: TypedFastify,
  ctx: RequestsContext & { queues: InsightQueues },
): Promise<void> {
  const onRequest = callerHooks(app, ctx.ds);
  const figures = (caller: Parameters<typeof insightScope>[0], query: InsightQuery) =>
    insightFigures(
      { ds: ctx.ds, queues: ctx.queues, targets: ctx.config.ageingTargets },
      insightScope(caller, query),
      caller,
    );

  app.get(
    INSIGHT_ROUTES.insight,
    {
      onRequest,
      schema: {
        summary: 'How the request work is going over a period',
        description:
          'Requests created and finished, turnaround New → Dispatch (median, p90), time in each status against the ' +
          'ageing targets, backlog by status, QC send-backs, work per operator, the PDF and export queues, and the ' +
          'requests late now (paged). Days are SAST; a group admin sees their own group only.',
        tags: TAGS,
        querystring: InsightQuery,
        response: { 200: InsightAnswer, ...ERRORS },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return figures(request.caller, request.query);
    },
  );

  for (const [route, extension, type] of [
    [INSIGHT_ROUTES.exportXlsx, 'xlsx', XLSX],
    [INSIGHT_ROUTES.exportCsv, 'csv', 'text/csv'],
  ] as const) {
    app.get(
      route,
      {
        onRequest,
        schema: {
          summary: `One chart's data as ${extension === 'xlsx' ? 'a spreadsheet' : 'CSV'}`,
          description:
            'The rows of the chart named by `chart`, for the same period and filters as the figures (the late list: the page asked for).',
          tags: TAGS,
          querystring: InsightExportQuery,
          response: { 200: FileAnswer(type), ...ERRORS },
        },
      },
      async (request, reply) => {
        const { chart, ...query } = request.query;
        const answer = await figures(request.caller, query);
        const table = chartTable(answer, chart);
        const body =
          extension === 'xlsx'
            ? await tableWorkbook(table, chart, `${answer.period.from} to ${answer.period.to}`)
            : tableCsv(table);
        return reply
          .type(extension === 'xlsx' ? XLSX : 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${exportFileName(chart, answer, extension)}"`)
          .header('cache-control', 'no-store')
          .send(body);
      },
    );
  }
}
