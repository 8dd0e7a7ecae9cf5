import type { FastifyReply } from 'fastify';
import { badRequest, type Caller } from '@portal/server-kit';
import type { ReportBuilderContext } from '../context';
import { REPORT_TEXT, ReportConflict, checkRead, readReport, saveReport, type ReportState } from '../store';

/** The request id of a call that may name it in the path, the body or the query (they must agree). */
export function requestIdOf(fromPath: string | undefined, fromBody: string | undefined): string {
  if (fromPath !== undefined && fromBody !== undefined && fromPath.toLowerCase() !== fromBody.toLowerCase())
    throw badRequest(REPORT_TEXT.idMismatch);
  const id = fromPath ?? fromBody;
  if (id === undefined || id === '') throw badRequest(REPORT_TEXT.idRequired);
  return id;
}

/**
 * What every report call does (routes/reports.ts and reportDetails.ts): read the report the caller may
 * read, save it in one transaction under the request's lock with the version checked (store.ts), and
 * answer a lost race with a 409 carrying the report as it is now.
 */
export function reportCalls(ctx: ReportBuilderContext) {
  const defaultVat = ctx.config.vatPercentage;
  const read = async (id: string, caller: Caller) => {
    const state = await readReport(ctx.ds, id, defaultVat);
    checkRead(state, caller);
    return state;
  };
  const save = (
    id: string,
    caller: Caller,
    version: number | undefined,
    what: string,
    decide: Parameters<typeof saveReport>[2],
  ) => saveReport(ctx.ds, { id, caller, version, what, defaultVat }, decide);

  /** A 409 with the report as it is now, in the answer's own shape (sections or details). */
  const conflictReply = (
    reply: FastifyReply,
    error: unknown,
    requestId: string,
    current: (state: ReportState, caller: Caller) => unknown,
  ) => {
    if (!(error instanceof ReportConflict)) throw error;
    reply.log.info({ status: 409, message: error.message }, 'request refused');
    return reply.code(409).send({
      statusCode: 409 as const,
      error: 'Conflict',
      message: error.message,
      requestId,
      current: current(error.state, error.caller),
    });
  };
  return { read, save, conflictReply };
}
