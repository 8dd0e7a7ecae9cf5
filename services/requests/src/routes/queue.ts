import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import {
  BulkChangeAnswer,
  ClientReferencesAnswer,
  ClientReferencesBody,
  ConflictAnswer,
  DisputeBody,
  DUPLICATE_MAX_NEIGHBOURS,
  ErrorAnswer,
  IdsBody,
  MarkInvoicedBody,
  NearAnswer,
  NearParams,
  NumberOfBuildingsBody,
  PriorityBody,
  PropertyTypeBody,
  QcChecklistBody,
  QsChecklistBody,
  QueryBody,
  REQUEST_ADMIN_API,
  REQUEST_PAGE_SIZES,
  REQUEST_STATUSES,
  RequestChangeAnswer,
  RequestConsoleSettings,
  RequestFilterQuery,
  RequestHistoryAnswer,
  RequestPagerAnswer,
  RequestPagerQuery,
  RequestStatusCountsAnswer,
  ROLE,
  SavedViewBody,
  SavedViewsAnswer,
  SubmitBody,
  UnitPriceBody,
  UpdateAllFeesBody,
  UpdateStatusBody,
  referenceFields,
  referenceLabel,
  referenceProblems,
  type RequestRow,
  type RequestUpdatedEvent,
} from '@portal/contracts';
import {
  DEFAULT_AGEING_TARGETS,
  OVERRIDE_QUERY_COMMENT,
  QC_CHECKS,
  QS_CHECKS,
  ROUTE_REFUSALS,
  TRANSITIONS,
  formatRand,
  statusChangeAllowed,
  transitionAllowed,
} from '@portal/domain';
import { badRequest, forbidden, notFound, type TypedFastify } from '@portal/server-kit';
import { callerHooks, isStaff, type Caller } from '@portal/server-kit';
import type { RequestsContext } from '../context';
import { publishRequestUpdated } from '../events';
import { RequestConflict, changeRequest, changeRequests, checkId, type HistoryLine } from '../queue/changes';
import { parseRequestFilters } from '../queue/filters';
import { nearRequests } from '../queue/near';
import {
  STAFF_DEFAULT_SORT,
  USER_DEFAULT_SORT,
  parseSort,
  requestPage,
  requestRowsCursor,
  settleKeptLists,
  statusCounts,
} from '../queue/pager';

const ERRORS = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer } as const;
const CHANGE_ERRORS = { ...ERRORS, 409: ConflictAnswer } as const;

/** Spec 02 §2.2: the console (and its calls) is for admins and SAVi operators. */
const CONSOLE_ROLES: readonly string[] = [ROLE.admin, ROLE.saviOperator];

export const QUEUE_TEXT = {
  console: ROUTE_REFUSALS.requestConsole,
  staff: ROUTE_REFUSALS.requestStaff,
  qcApproval: 'QC approval needs the saviQC role.',
  prioritise: ROUTE_REFUSALS.prioritiseAll,
  qcChecks: `All ${QC_CHECKS.length} QC checks must be ticked to approve.`,
  qcStatus: 'The QC checklist approves a request (Dispatch); a query is sent with its comment instead.',
  qsChecks: `All ${QS_CHECKS.length} QS checks must be ticked.`,
  qsStatus: "The QS checklist makes a request 'Ready for QS'.",
  comment: 'A comment is required.',
  notYours: 'This request belongs to another user.',
  transition: (from: string, to: string) => `A request in '${from}' cannot move to '${to}'.`,
  sameStatus: (status: string) => `The request is already '${status}'.`,
  notDispatched: (count: number) =>
    `${count} of the selected requests ${count === 1 ? 'is' : 'are'} not in Dispatch: nothing was changed.`,
  view: 'No such saved view.',
  radius: 'radius must be a number of metres above 0 and at most 1 000 000.',
} as const;

const yes = (value: boolean | string) => value === true || value === 'Yes';
const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
const text = (value: unknown) => (value === null || value === undefined ? null : String(value));

/**
 * The request queue (spec 02 §7.2, spec 03 §7): the pager both grids read, the streamed list, counts and
 * settings, every change call of the console with its history, references, the duplicate check and saved
 * views. Roles are docs/decisions.md "Request queue"; every change is one transaction (queue/changes.ts),
 * announced on Redis after it commits.
 */
export async function queueRoutes(app: TypedFastify, ctx: RequestsContext): Promise<void> {
  const onRequest = callerHooks(app, ctx.ds);
  const consoleOnly = (caller: Caller) => {
    if (!caller.roles.some((role) => CONSOLE_ROLES.includes(role))) throw forbidden(QUEUE_TEXT.console);
  };
  const staffOnly = (caller: Caller) => {
    if (!isStaff(caller)) throw forbidden(QUEUE_TEXT.staff);
  };
  const isAdmin = (caller: Caller) => caller.roles.includes(ROLE.admin);
  const ownerOrStaff = (caller: Caller, ownerId: string) => {
    if (ownerId !== caller.id && !isStaff(caller)) throw forbidden(QUEUE_TEXT.notYours);
  };

  const announce = async (rows: RequestRow[], log: Parameters<typeof publishRequestUpdated>[2]) => {
    if (rows.length === 0) return;
    const event: RequestUpdatedEvent = {
      ids: rows.map((row) => row.requestID),
      userIds: [...new Set(rows.map((row) => row.userId))],
      ...(rows.length === 1 ? { row: rows[0] } : {}),
    };
    await publishRequestUpdated(ctx.redis, event, log);
  };

  /** Answers a conflict with the row as it is now (or the refused list), in the contract's 409 shape. */
  const conflictAnswer = (reply: FastifyReply, error: unknown, requestId: string) => {
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
  };

  // ---------------------------------------------------------------- reads

  // The pager's kept lists being read in the background end before the database closes.
  app.addHook('onClose', async () => settleKeptLists(ctx.ds));
  app.get(
    '/api/v1.0/request/pager',
    {
      onRequest,
      schema: { querystring: RequestPagerQuery, response: { 200: RequestPagerAnswer, ...ERRORS } },
    },
    async (request) => {
      const staff = isStaff(request.caller);
      const query = request.query;
      return requestPage(ctx.ds, {
        filters: parseRequestFilters(query),
        ownerId: staff ? null : request.caller.id,
        sort: parseSort(query.sort_object, staff ? STAFF_DEFAULT_SORT : USER_DEFAULT_SORT),
        page: query.page ?? 1,
        limit: query.limit ?? 20,
      });
    },
  );

  // Every match, streamed as one JSON array from a cursor: never held whole in memory.
  app.get(
    '/api/v1.0/requests',
    {
      onRequest,
      schema: {
        querystring: Type.Object({
          ...RequestFilterQuery.properties,
          sort_object: Type.Optional(Type.String({ maxLength: 500 })),
        }),
        // No response schema: the answer is a stream (a JSON array of RequestRow), written as it is read.
      },
    },
    async (request, reply) => {
      consoleOnly(request.caller);
      const filters = parseRequestFilters(request.query);
      const sort = parseSort(request.query.sort_object, STAFF_DEFAULT_SORT);
      async function* json() {
        yield '[';
        let first = true;
        for await (const batch of requestRowsCursor(ctx.ds, { filters, ownerId: null, sort })) {
          const chunk = batch.map((row) => JSON.stringify(row)).join(',');
          yield first ? chunk : `,${chunk}`;
          first = false;
        }
        yield ']';
      }
      return reply.type('application/json; charset=utf-8').send(Readable.from(json()));
    },
  );

  app.get(
    REQUEST_ADMIN_API.statusCounts,
    {
      onRequest,
      schema: { querystring: RequestFilterQuery, response: { 200: RequestStatusCountsAnswer, ...ERRORS } },
    },
    async (request) =>
      statusCounts(
        ctx.ds,
        parseRequestFilters(request.query),
        isStaff(request.caller) ? null : request.caller.id,
      ),
  );

  const ageingTargets = readAgeingTargets(process.env.REQUEST_AGEING_TARGETS);
  app.get(
    REQUEST_ADMIN_API.settings,
    { onRequest, schema: { response: { 200: RequestConsoleSettings, ...ERRORS } } },
    async () => ({
      ageingTargets,
      statuses: [...REQUEST_STATUSES],
      pageSizes: [...REQUEST_PAGE_SIZES],
    }),
  );

  app.get(
    '/api/v1.0/request/:id/history',
    {
      onRequest,
      schema: {
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 200: RequestHistoryAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const id = checkId(request.params.id);
      await ownerOf(id).then((owner) => ownerOrStaff(request.caller, owner));
      const rows = (await ctx.ds.query(
        `SELECT at, user_name, field, from_value, to_value, comment FROM requests.request_history
            WHERE request_id = $1 ORDER BY at DESC, id DESC LIMIT 500`,
        [id],
      )) as {
        at: Date;
        user_name: string | null;
        field: string;
        from_value: string | null;
        to_value: string | null;
        comment: string | null;
      }[];
      return {
        history: rows.map((row) => ({
          at: new Date(row.at).toISOString(),
          user: row.user_name ?? '',
          field: row.field,
          from: row.from_value,
          to: row.to_value,
          comment: row.comment,
        })),
      };
    },
  );

  async function ownerOf(id: string): Promise<string> {
    const [row] = (await ctx.ds.query('SELECT user_id FROM requests.requests WHERE id = $1', [id])) as {
      user_id: string;
    }[];
    if (!row) throw notFound('No such request.');
    return row.user_id;
  }

  app.get(
    '/api/v1.0/request/:id/references',
    {
      onRequest,
      schema: {
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 200: ClientReferencesAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const id = checkId(request.params.id);
      const [row] = (await ctx.ds.query(
        `SELECT r.user_id, r.reference, r.claims_user, g."references", g.claims_references
             FROM requests.requests r LEFT JOIN identity.groups g ON g.id = r.group_id WHERE r.id = $1`,
        [id],
      )) as {
        user_id: string;
        reference: Record<string, unknown>;
        claims_user: boolean;
        references: unknown[] | null;
        claims_references: unknown[] | null;
      }[];
      if (!row) throw notFound('No such request.');
      ownerOrStaff(request.caller, row.user_id);
      const fields = referenceFields(row.claims_user ? row.claims_references : row.references);
      return {
        clientReferences: Object.fromEntries(
          Object.entries(row.reference ?? {}).map(([key, value]) => [key, String(value ?? '')]),
        ),
        fields: fields.map((field) => ({ key: field.key, label: referenceLabel(field) })),
      };
    },
  );

  app.get(
    '/api/v1.0/request/near/:id/:radius',
    {
      onRequest,
      schema: {
        params: Type.Object({ id: Type.String({ maxLength: 64 }), radius: Type.String({ maxLength: 20 }) }),
        response: { 200: NearAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const id = checkId(request.params.id);
      const radius = Number(request.params.radius);
      if (!Number.isFinite(radius) || !(radius > 0) || radius > NearParams.properties.radius.maximum!)
        throw badRequest(QUEUE_TEXT.radius);
      const staff = isStaff(request.caller);
      const answer = await nearRequests(ctx.ds, {
        id,
        radius,
        ownerId: staff ? null : request.caller.id,
        limit: DUPLICATE_MAX_NEIGHBOURS,
      });
      if (!answer) throw notFound('No such request, or it has no location.');
      if (!staff && answer.centreOwner !== request.caller.id) throw forbidden(QUEUE_TEXT.notYours);
      return { centre: answer.centre, requests: answer.requests, radius, truncated: answer.truncated };
    },
  );

  // ---------------------------------------------------------------- single changes

  /** Runs one change and answers it (or its 409), announcing it after the commit. */
  const single = async (
    reply: FastifyReply,
    requestId: string,
    run: () => Promise<RequestRow>,
    log: Parameters<typeof publishRequestUpdated>[2],
  ) => {
    try {
      const row = await run();
      await announce([row], log);
      return reply.send({ success: true as const, request: row });
    } catch (error) {
      return conflictAnswer(reply, error, requestId);
    }
  };

  app.post(
    REQUEST_ADMIN_API.updateStatus,
    {
      onRequest,
      schema: { body: UpdateStatusBody, response: { 200: RequestChangeAnswer, ...CHANGE_ERRORS } },
    },
    async (request, reply) => {
      const { caller } = request;
      staffOnly(caller);
      const body = request.body;
      const status = body.status as string;
      return single(
        reply,
        request.id,
        () =>
          changeRequest(ctx.ds, { id: body._id, caller, version: body.version }, (row, current) => {
            if (row.status === status) throw new RequestConflict(QUEUE_TEXT.sameStatus(row.status), current);
            if (!statusChangeAllowed(row.status, status, isAdmin(caller)))
              throw new RequestConflict(QUEUE_TEXT.transition(row.status, status), current);
            const set: Record<string, unknown> = { status: status };
            // An admin setting Query in the grid records the spec's override comment as the query.
            const comment = status === 'Query' ? OVERRIDE_QUERY_COMMENT : null;
            if (comment) set.query = comment;
            if (status === 'In progress' && row.first_user_id === null) {
              set.first_user_id = caller.id;
              set.first_user_name = caller.name;
            }
            return { set, history: [{ field: 'status', from: row.status, to: status, comment }] };
          }),
        request.log,
      );
    },
  );

  app.post(
    REQUEST_ADMIN_API.submit,
    { onRequest, schema: { body: SubmitBody, response: { 200: RequestChangeAnswer, ...CHANGE_ERRORS } } },
    async (request, reply) => {
      staffOnly(request.caller);
      const body = request.body;
      if (body.status !== undefined && body.status !== TRANSITIONS.submit.to)
        throw badRequest(`Submitting a report sends it to '${TRANSITIONS.submit.to}'.`);
      return single(
        reply,
        request.id,
        () =>
          changeRequest(
            ctx.ds,
            { id: body._id, caller: request.caller, version: body.version },
            (row, current) => {
              if (!transitionAllowed('submit', row.status))
                throw new RequestConflict(QUEUE_TEXT.transition(row.status, TRANSITIONS.submit.to), current);
              return {
                set: { status: TRANSITIONS.submit.to, lat: body.lat, lng: body.lng },
                history: [
                  {
                    field: 'status',
                    from: row.status,
                    to: TRANSITIONS.submit.to,
                    comment: 'Report submitted',
                  },
                ],
              };
            },
          ),
        request.log,
      );
    },
  );

  app.post(
    REQUEST_ADMIN_API.query,
    { onRequest, schema: { body: QueryBody, response: { 200: RequestChangeAnswer, ...CHANGE_ERRORS } } },
    async (request, reply) => {
      staffOnly(request.caller);
      const body = request.body;
      const comment = body.comment.trim();
      if (!comment) throw badRequest(QUEUE_TEXT.comment);
      if (body.status !== undefined && body.status !== 'Query')
        throw badRequest("A query sets the status 'Query'.");
      return single(
        reply,
        request.id,
        () =>
          changeRequest(
            ctx.ds,
            { id: body._id, caller: request.caller, version: body.version },
            (row, current) => {
              if (!transitionAllowed('query', row.status))
                throw new RequestConflict(QUEUE_TEXT.transition(row.status, 'Query'), current);
              return {
                set: { status: 'Query', query: comment },
                history: [{ field: 'status', from: row.status, to: 'Query', comment }],
              };
            },
          ),
        request.log,
      );
    },
  );

  app.post(
    REQUEST_ADMIN_API.dispute,
    { onRequest, schema: { body: DisputeBody, response: { 200: RequestChangeAnswer, ...CHANGE_ERRORS } } },
    async (request, reply) => {
      const body = request.body;
      const comment = body.comment.trim();
      if (!comment) throw badRequest(QUEUE_TEXT.comment);
      return single(
        reply,
        request.id,
        () =>
          changeRequest(
            ctx.ds,
            { id: body._id, caller: request.caller, version: body.version },
            (row, current) => {
              ownerOrStaff(request.caller, row.user_id);
              if (!transitionAllowed('dispute', row.status))
                throw new RequestConflict(QUEUE_TEXT.transition(row.status, 'Query'), current);
              return {
                set: { status: 'Query', query: comment, report_disputed: true },
                history: [{ field: 'dispute', from: row.status, to: 'Query', comment }],
              };
            },
          ),
        request.log,
      );
    },
  );

  app.post(
    REQUEST_ADMIN_API.qcChecklist,
    {
      onRequest,
      schema: { body: QcChecklistBody, response: { 200: RequestChangeAnswer, ...CHANGE_ERRORS } },
    },
    async (request, reply) => {
      const { caller } = request;
      consoleOnly(caller);
      const body = request.body;
      if (body.status !== undefined && body.status !== TRANSITIONS.qcApprove.to)
        throw badRequest(QUEUE_TEXT.qcStatus);
      if (!caller.roles.includes(ROLE.saviQC)) throw forbidden(QUEUE_TEXT.qcApproval);
      if (!body.checks || body.checks.length !== QC_CHECKS.length || !body.checks.every(Boolean))
        throw badRequest(QUEUE_TEXT.qcChecks);
      return single(
        reply,
        request.id,
        () =>
          changeRequest(ctx.ds, { id: body._id, caller, version: body.version }, (row, current) => {
            if (!transitionAllowed('qcApprove', row.status))
              throw new RequestConflict(QUEUE_TEXT.transition(row.status, TRANSITIONS.qcApprove.to), current);
            return {
              set: {
                status: TRANSITIONS.qcApprove.to,
                property_type: body.propertyType,
                number_of_buildings: body.numberOfBuildings,
                unit_price: body.price,
              },
              history: [
                ...feeLines(row, {
                  propertyType: body.propertyType,
                  numberOfBuildings: body.numberOfBuildings,
                  unitPrice: body.price,
                }),
                { field: 'status', from: row.status, to: TRANSITIONS.qcApprove.to, comment: 'QC approved' },
              ],
            };
          }),
        request.log,
      );
    },
  );

  app.post(
    REQUEST_ADMIN_API.qsChecklist,
    {
      onRequest,
      schema: { body: QsChecklistBody, response: { 200: RequestChangeAnswer, ...CHANGE_ERRORS } },
    },
    async (request, reply) => {
      const { caller } = request;
      staffOnly(caller);
      const body = request.body;
      if (body.status !== undefined && body.status !== TRANSITIONS.qsChecklist.to)
        throw badRequest(QUEUE_TEXT.qsStatus);
      if (!body.checks || body.checks.length !== QS_CHECKS.length || !body.checks.every(Boolean))
        throw badRequest(QUEUE_TEXT.qsChecks);
      const priority = yes(body.priority);
      return single(
        reply,
        request.id,
        () =>
          changeRequest(ctx.ds, { id: body._id, caller, version: body.version }, (row, current) => {
            if (!transitionAllowed('qsChecklist', row.status))
              throw new RequestConflict(
                QUEUE_TEXT.transition(row.status, TRANSITIONS.qsChecklist.to),
                current,
              );
            const history: HistoryLine[] = [
              {
                field: 'status',
                from: row.status,
                to: TRANSITIONS.qsChecklist.to,
                comment: 'QS checklist saved',
              },
            ];
            if (row.priority !== priority)
              history.push({ field: 'priority', from: yesNo(row.priority), to: yesNo(priority) });
            return {
              set: {
                status: TRANSITIONS.qsChecklist.to,
                first_user_id: caller.id,
                first_user_name: caller.name,
                priority,
              },
              history,
            };
          }),
        request.log,
      );
    },
  );

  app.post(
    REQUEST_ADMIN_API.priority,
    { onRequest, schema: { body: PriorityBody, response: { 200: RequestChangeAnswer, ...CHANGE_ERRORS } } },
    async (request, reply) => {
      consoleOnly(request.caller);
      const body = request.body;
      const priority = yes(body.priority);
      return single(
        reply,
        request.id,
        () =>
          changeRequest(ctx.ds, { id: body.id, caller: request.caller, version: body.version }, (row) => ({
            set: { priority },
            history:
              row.priority === priority
                ? []
                : [{ field: 'priority', from: yesNo(row.priority), to: yesNo(priority) }],
          })),
        request.log,
      );
    },
  );

  app.post(
    REQUEST_ADMIN_API.propertyType,
    {
      onRequest,
      schema: { body: PropertyTypeBody, response: { 200: RequestChangeAnswer, ...CHANGE_ERRORS } },
    },
    async (request, reply) => {
      consoleOnly(request.caller);
      const body = request.body;
      return single(
        reply,
        request.id,
        () =>
          changeRequest(ctx.ds, { id: body.id, caller: request.caller, version: body.version }, (row) => ({
            set: { property_type: body.propertyType },
            history: feeLines(row, { propertyType: body.propertyType }),
          })),
        request.log,
      );
    },
  );

  app.post(
    REQUEST_ADMIN_API.numberOfBuildings,
    {
      onRequest,
      schema: { body: NumberOfBuildingsBody, response: { 200: RequestChangeAnswer, ...CHANGE_ERRORS } },
    },
    async (request, reply) => {
      consoleOnly(request.caller);
      const body = request.body;
      return single(
        reply,
        request.id,
        () =>
          changeRequest(ctx.ds, { id: body.id, caller: request.caller, version: body.version }, (row) => ({
            set: { number_of_buildings: body.numberOfBuildings },
            history: feeLines(row, { numberOfBuildings: body.numberOfBuildings }),
          })),
        request.log,
      );
    },
  );

  app.post(
    REQUEST_ADMIN_API.unitPrice,
    {
      onRequest,
      schema: { body: UnitPriceBody, response: { 200: RequestChangeAnswer, ...CHANGE_ERRORS } },
    },
    async (request, reply) => {
      consoleOnly(request.caller);
      const body = request.body;
      return single(
        reply,
        request.id,
        () =>
          changeRequest(ctx.ds, { id: body.id, caller: request.caller, version: body.version }, (row) => ({
            set: { unit_price: body.unitPrice },
            history: feeLines(row, { unitPrice: body.unitPrice }),
          })),
        request.log,
      );
    },
  );

  app.post(
    REQUEST_ADMIN_API.references,
    {
      onRequest,
      schema: { body: ClientReferencesBody, response: { 200: RequestChangeAnswer, ...CHANGE_ERRORS } },
    },
    async (request, reply) => {
      const body = request.body;
      const values = Object.fromEntries(
        Object.entries(body.clientReferences).map(([key, value]) => [key, value.trim()]),
      );
      return single(
        reply,
        request.id,
        () =>
          changeRequest(ctx.ds, { id: body._id, caller: request.caller }, async (row) => {
            ownerOrStaff(request.caller, row.user_id);
            const [group] = (await ctx.ds.query(
              `SELECT r.claims_user, g."references", g.claims_references, r.reference
               FROM requests.requests r LEFT JOIN identity.groups g ON g.id = r.group_id WHERE r.id = $1`,
              [row.id],
            )) as {
              claims_user: boolean;
              references: unknown[] | null;
              claims_references: unknown[] | null;
              reference: Record<string, unknown>;
            }[];
            const fields = referenceFields(group.claims_user ? group.claims_references : group.references);
            const problems = referenceProblems(fields, values);
            if (problems.length > 0) throw badRequest(problems.join(' '), problems);
            const before = JSON.stringify(group.reference ?? {});
            const after = JSON.stringify(values);
            return {
              set: {
                reference: after,
                reference_string: fields.length > 0 || Object.keys(values).length > 0 ? after : '',
              },
              history: before === after ? [] : [{ field: 'references', from: before, to: after }],
            };
          }),
        request.log,
      );
    },
  );

  // ---------------------------------------------------------------- bulk changes

  /** Runs a bulk change (all or nothing) and answers how many changed, announcing them after the commit. */
  const bulk = async (
    reply: FastifyReply,
    requestId: string,
    run: () => Promise<RequestRow[]>,
    log: Parameters<typeof publishRequestUpdated>[2],
  ) => {
    try {
      const rows = await run();
      await announce(rows, log);
      return reply.send({ success: true as const, updated: rows.length });
    } catch (error) {
      return conflictAnswer(reply, error, requestId);
    }
  };

  app.post(
    REQUEST_ADMIN_API.prioritiseAll,
    { onRequest, schema: { body: IdsBody, response: { 200: BulkChangeAnswer, ...CHANGE_ERRORS } } },
    async (request, reply) => {
      if (!isAdmin(request.caller)) throw forbidden(QUEUE_TEXT.prioritise);
      return bulk(
        reply,
        request.id,
        () =>
          changeRequests(ctx.ds, { ids: request.body.ids, caller: request.caller }, (row) =>
            row.priority
              ? null
              : { set: { priority: true }, history: [{ field: 'priority', from: 'No', to: 'Yes' }] },
          ),
        request.log,
      );
    },
  );

  app.post(
    REQUEST_ADMIN_API.allToDelivered,
    { onRequest, schema: { body: IdsBody, response: { 200: BulkChangeAnswer, ...CHANGE_ERRORS } } },
    async (request, reply) => {
      consoleOnly(request.caller);
      return bulk(
        reply,
        request.id,
        () =>
          changeRequests(
            ctx.ds,
            { ids: request.body.ids, caller: request.caller },
            (row) =>
              row.status === 'Delivered'
                ? null
                : {
                    set: { status: 'Delivered' },
                    history: [{ field: 'status', from: row.status, to: 'Delivered' }],
                  },
            { test: (row) => !transitionAllowed('deliver', row.status), message: QUEUE_TEXT.notDispatched },
          ),
        request.log,
      );
    },
  );

  app.post(
    REQUEST_ADMIN_API.updateAllFees,
    {
      onRequest,
      schema: { body: UpdateAllFeesBody, response: { 200: BulkChangeAnswer, ...CHANGE_ERRORS } },
    },
    async (request, reply) => {
      consoleOnly(request.caller);
      const { type, buildings, price } = request.body;
      return bulk(
        reply,
        request.id,
        () =>
          changeRequests(ctx.ds, { ids: request.body.ids, caller: request.caller }, (row) => ({
            set: { property_type: type, number_of_buildings: buildings, unit_price: price },
            history: feeLines(row, { propertyType: type, numberOfBuildings: buildings, unitPrice: price }),
          })),
        request.log,
      );
    },
  );

  app.post(
    REQUEST_ADMIN_API.markInvoiced,
    {
      onRequest,
      schema: { body: MarkInvoicedBody, response: { 200: BulkChangeAnswer, ...CHANGE_ERRORS } },
    },
    async (request, reply) => {
      consoleOnly(request.caller);
      const invoice = request.body.invoiceNumber.trim();
      if (!invoice) throw badRequest('An invoice number is required.');
      return bulk(
        reply,
        request.id,
        () =>
          changeRequests(ctx.ds, { ids: request.body.requestids, caller: request.caller }, (row) =>
            row.report_invoice_number === invoice
              ? null
              : {
                  set: { report_invoice_number: invoice },
                  history: [{ field: 'invoice', from: row.report_invoice_number, to: invoice }],
                },
          ),
        request.log,
      );
    },
  );

  // ---------------------------------------------------------------- saved views (beyond the spec)

  app.get(
    REQUEST_ADMIN_API.views,
    { onRequest, schema: { response: { 200: SavedViewsAnswer, ...ERRORS } } },
    async (request) => {
      const rows = (await ctx.ds.query(
        'SELECT id, name, state, updated_at FROM requests.saved_views WHERE user_id = $1 ORDER BY lower(name)',
        [request.caller.id],
      )) as { id: string; name: string; state: Record<string, unknown>; updated_at: Date }[];
      return { views: rows.map(toView) };
    },
  );
  // Saving a view under a name the user already has replaces it.
  app.post(
    REQUEST_ADMIN_API.views,
    { onRequest, schema: { body: SavedViewBody, response: { 200: SavedViewsAnswer, ...ERRORS } } },
    async (request) => {
      const name = request.body.name.trim();
      if (!name) throw badRequest('A view needs a name.');
      await ctx.ds.query(
        `INSERT INTO requests.saved_views (user_id, name, state) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, lower(name)) DO UPDATE SET state = EXCLUDED.state, name = EXCLUDED.name, updated_at = now()`,
        [request.caller.id, name, JSON.stringify(request.body.state)],
      );
      const rows = (await ctx.ds.query(
        'SELECT id, name, state, updated_at FROM requests.saved_views WHERE user_id = $1 ORDER BY lower(name)',
        [request.caller.id],
      )) as { id: string; name: string; state: Record<string, unknown>; updated_at: Date }[];
      return { views: rows.map(toView) };
    },
  );
  app.delete(
    '/api/v1.0/request/views/:id',
    {
      onRequest,
      schema: {
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 204: Type.Null(), ...ERRORS },
      },
    },
    async (request, reply) => {
      const id = checkId(request.params.id);
      // TypeORM answers a DELETE … RETURNING as [rows, count].
      const [deleted] = (await ctx.ds.query(
        'DELETE FROM requests.saved_views WHERE id = $1 AND user_id = $2 RETURNING id',
        [id, request.caller.id],
      )) as [unknown[], number];
      if (deleted.length === 0) throw notFound(QUEUE_TEXT.view);
      return reply.code(204).send(null);
    },
  );
}

function toView(row: { id: string; name: string; state: Record<string, unknown>; updated_at: Date }) {
  return { id: row.id, name: row.name, state: row.state, updatedAt: new Date(row.updated_at).toISOString() };
}

/** History lines of a fee change (property type, buildings, unit price), only for what changes. */
function feeLines(
  row: { property_type: string | null; number_of_buildings: number | null; unit_price: number | null },
  next: { propertyType?: string; numberOfBuildings?: number; unitPrice?: number },
): HistoryLine[] {
  const lines: HistoryLine[] = [];
  if (next.propertyType !== undefined && next.propertyType !== row.property_type)
    lines.push({ field: 'propertyType', from: row.property_type, to: next.propertyType });
  if (next.numberOfBuildings !== undefined && next.numberOfBuildings !== row.number_of_buildings)
    lines.push({
      field: 'numberOfBuildings',
      from: text(row.number_of_buildings),
      to: String(next.numberOfBuildings),
    });
  if (next.unitPrice !== undefined && next.unitPrice !== row.unit_price)
    lines.push({
      field: 'unitPrice',
      from: row.unit_price === null ? null : formatRand(row.unit_price),
      to: formatRand(next.unitPrice),
    });
  return lines;
}

/** REQUEST_AGEING_TARGETS: JSON of hours by status; the defaults where it is not set or not valid. */
export function readAgeingTargets(raw: string | undefined): Record<string, number> {
  const defaults = { ...DEFAULT_AGEING_TARGETS } as Record<string, number>;
  if (!raw) return defaults;
  try {
    const parsed = JSON.parse(raw) as Record<string, unknown>;
    const targets: Record<string, number> = {};
    for (const [status, hours] of Object.entries(parsed))
      if ((REQUEST_STATUSES as readonly string[]).includes(status) && typeof hours === 'number' && hours > 0)
        targets[status] = hours;
    return Object.keys(targets).length > 0 ? targets : defaults;
  } catch {
    return defaults;
  }
}
