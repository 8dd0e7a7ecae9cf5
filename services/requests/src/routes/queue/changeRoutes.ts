import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { EntityManager } from 'typeorm';
import {
  BulkChangeAnswer,
  RequestChangeAnswer,
  type RequestRow,
  type RequestUpdatedEvent,
} from '@portal/contracts';
import { callerHooks, type Caller, type TypedFastify } from '@portal/server-kit';
import type { RequestsContext } from '../../context';
import { publishRequestUpdated } from '../../events';
import { RequestConflict, changeRequest, changeRequests, type ChangeOutcome } from '../../queue/changes';
import type { RequestDbRow } from '../../queue/rows';
import { queueSubmittedPdfs } from '../../queue/submission';
import { CHANGE_ERRORS } from '../schemas';
import { changeDocs } from './changeDocs';

/** What a change call does to one request: which (and the version the caller saw, if named), and how. */
export interface RequestChangePlan {
  id: string;
  version?: number;
  /** Run on the locked row as it is now (`em`: its transaction); throws to refuse (RequestConflict / 400). */
  decide: (
    row: RequestDbRow,
    current: RequestRow,
    em: EntityManager,
  ) => ChangeOutcome | Promise<ChangeOutcome>;
}

/** What a bulk call does to several requests (all or nothing): which, how, and which rows block it. */
export interface BulkChangePlan {
  ids: string[];
  /** null: this row needs no change. */
  decide: (row: RequestDbRow) => ChangeOutcome | null;
  refuse?: { test: (row: RequestDbRow) => boolean; message: (count: number) => string };
}

/** Announces changed rows on Redis (after their commit): one row goes with the event, more by their ids. */
async function announce(ctx: RequestsContext, rows: RequestRow[], log: FastifyBaseLogger): Promise<void> {
  if (rows.length === 0) return;
  const event: RequestUpdatedEvent = {
    ids: rows.map((row) => row.requestID),
    userIds: [...new Set(rows.map((row) => row.userId))],
    ...(rows.length === 1 ? { row: rows[0] } : {}),
  };
  await publishRequestUpdated(ctx, event, log);
}

/** Answers a conflict with the row as it is now (or the refused list), in the contract's 409 shape. */
function conflictAnswer(reply: FastifyReply, error: unknown, requestId: string) {
  if (!(error instanceof RequestConflict)) throw error;
  return reply.code(409).send({
    statusCode: 409 as const,
    error: 'Conflict',
    message: error.message,
    requestId,
    ...(error.current ? { current: error.current } : {}),
    // The refused requests also as messages: clients that read only the one error shape see them.
    ...(error.refused
      ? {
          refused: error.refused,
          messages: error.refused.map((item) => `${item.gripReference} (${item.status})`),
        }
      : {}),
  });
}

/**
 * The console's change calls, registered one way: each is a POST whose `plan` checks the call first (its
 * 400s and 403s) and says what to change; the change is one transaction (queue/changes.ts), answered with
 * the row after it (or how many changed) or a 409, and announced on Redis after it commits; a submitted
 * report's PDF still missing is then queued (queue/submission.ts).
 */
export function changeRoutes(app: TypedFastify, ctx: RequestsContext) {
  const onRequest = callerHooks(app, ctx.ds);

  /**
   * Registers one change call: `start` checks the call (throwing its 400/403) and answers the change to
   * run; the change's rows are announced and its answer sent, or its conflict answered as a 409.
   */
  function postChange<Body extends TSchema>(
    path: string,
    body: Body,
    answer: typeof RequestChangeAnswer | typeof BulkChangeAnswer,
    start: (
      body: Static<Body>,
      caller: Caller,
    ) => () => Promise<{ changed: RequestRow[]; answer: RequestChangeAnswer | BulkChangeAnswer }>,
  ): void {
    app.post(
      path,
      { onRequest, schema: { ...changeDocs(path), body, response: { 200: answer, ...CHANGE_ERRORS } } },
      async (request, reply) => {
        const run = start(request.body as Static<Body>, request.caller);
        try {
          const done = await run();
          await announce(ctx, done.changed, request.log);
          await queueSubmittedPdfs(ctx, done.changed, request.caller.id, request.log);
          return reply.send(done.answer);
        } catch (error) {
          return conflictAnswer(reply, error, request.id);
        }
      },
    );
  }

  return {
    /** A POST that changes one request and answers `{ success, request }` with the row after the change. */
    postRequestChange<Body extends TSchema>(
      path: string,
      body: Body,
      plan: (body: Static<Body>, caller: Caller) => RequestChangePlan,
    ): void {
      postChange(path, body, RequestChangeAnswer, (fields, caller) => {
        const change = plan(fields, caller);
        return async () => {
          const row = await changeRequest(
            ctx.ds,
            { id: change.id, caller, version: change.version },
            change.decide,
          );
          return { changed: [row], answer: { success: true as const, request: row } };
        };
      });
    },

    /** A POST that changes several requests (all or nothing) and answers `{ success, updated }`. */
    postBulkChange<Body extends TSchema>(
      path: string,
      body: Body,
      plan: (body: Static<Body>, caller: Caller) => BulkChangePlan,
    ): void {
      postChange(path, body, BulkChangeAnswer, (fields, caller) => {
        const change = plan(fields, caller);
        return async () => {
          const rows = await changeRequests(
            ctx.ds,
            { ids: change.ids, caller },
            change.decide,
            change.refuse,
          );
          return { changed: rows, answer: { success: true as const, updated: rows.length } };
        };
      });
    },
  };
}
