import type { Static, TSchema } from '@sinclair/typebox';
import {
  ClientReferencesBody,
  DisputeBody,
  NumberOfBuildingsBody,
  PriorityBody,
  PropertyTypeBody,
  QcChecklistBody,
  QsChecklistBody,
  QueryBody,
  REQUEST_ADMIN_ROUTES,
  ROLE,
  SubmitBody,
  type RequestRow,
  UnitPriceBody,
  UpdateStatusBody,
  referenceFields,
  referenceProblems,
} from '@portal/contracts';
import {
  OVERRIDE_QUERY_COMMENT,
  QC_CHECKS,
  QS_CHECKS,
  TRANSITIONS,
  type TransitionKind,
  statusChangeAllowed,
  transitionAllowed,
} from '@portal/domain';
import { badRequest, forbidden, type TypedFastify } from '@portal/server-kit';
import type { RequestsContext } from '../../context';
import { RequestConflict, type HistoryLine, type RowChange } from '../../queue/changes';
import { isAdmin, requireConsoleUser, requireOwnerOrStaff, requireStaff } from '../../queue/guards';
import { feeHistoryLines, type FeeChange } from '../../queue/historyLines';
import type { RequestDbRow } from '../../queue/rows';
import { requestReferences } from '../../queue/references';
import { submissionChange } from '../../queue/submission';
import { QUEUE_TEXT } from '../../queue/texts';
import { isYes, yesNoText } from '../../queue/yesNo';
import { changeRoutes } from './changeRoutes';

/** A comment a call needs (a query's, a dispute's), trimmed; a 400 when there is none. */
function requiredComment(comment: string): string {
  const trimmed = comment.trim();
  if (!trimmed) throw badRequest(QUEUE_TEXT.comment);
  return trimmed;
}

/** The workflow lets the request take `kind` from the status it is in now; else a 409 with the row as it is. */
function requireTransition(kind: TransitionKind, row: RequestDbRow, current: RequestRow): void {
  if (!transitionAllowed(kind, row.status))
    throw new RequestConflict(QUEUE_TEXT.transition(row.status, TRANSITIONS[kind].to), current);
}

/** A call that names the status it moves the request to must name the one `kind` moves it to. */
function checkNamedStatus(named: string | undefined, kind: TransitionKind, message: string): void {
  if (named !== undefined && named !== TRANSITIONS[kind].to) throw badRequest(message);
}

/**
 * The QC or QS checklist's ticks, when the call sends them (spec 02 §7.2's bodies carry none: the screen
 * enforces its ticks, a machine client vouches by calling): all `count` of them ticked, else a 400.
 */
function checkTicks(checks: boolean[] | undefined, count: number, message: string): void {
  if (checks !== undefined && !(checks.length === count && checks.every(Boolean))) throw badRequest(message);
}

/**
 * The console's changes to one request (spec 02 §7.2): the status and its workflow steps (submit, query,
 * dispute, the QC and QS checklists), priority, the fee fields and the client references. Each is one
 * transaction on the row as it is now (queue/changes.ts); a stale version or a move the workflow does not
 * allow is a 409 with the row as it is.
 */
export async function queueChangeRoutes(app: TypedFastify, ctx: RequestsContext): Promise<void> {
  const { postRequestChange } = changeRoutes(app, ctx);

  postRequestChange(REQUEST_ADMIN_ROUTES.updateStatus, UpdateStatusBody, (body, caller) => {
    requireStaff(caller);
    const status = body.status as string;
    return {
      id: body._id,
      version: body.version,
      decide: async (row, current, em) => {
        if (row.status === status) throw new RequestConflict(QUEUE_TEXT.sameStatus(row.status), current);
        if (!statusChangeAllowed(row.status, status, isAdmin(caller)))
          throw new RequestConflict(QUEUE_TEXT.transition(row.status, status), current);
        // Into QC check or later (a submission by the grid's status): the report's RVETotal and PDF too.
        const report = await submissionChange(em, ctx, { row, to: status, userId: caller.id });
        const set: Record<string, unknown> = { status: status, ...report };
        // An admin setting Query in the grid records the spec's override comment as the query.
        const comment = status === 'Query' ? OVERRIDE_QUERY_COMMENT : null;
        if (comment) set.query = comment;
        if (status === 'In progress' && row.first_user_id === null) {
          set.first_user_id = caller.id;
          set.first_user_name = caller.name;
        }
        return { set, history: [{ field: 'status', from: row.status, to: status, comment }] };
      },
    };
  });

  postRequestChange(REQUEST_ADMIN_ROUTES.submit, SubmitBody, (body, caller) => {
    requireStaff(caller);
    const to = TRANSITIONS.submit.to;
    checkNamedStatus(body.status, 'submit', QUEUE_TEXT.submitStatus(to));
    return {
      id: body._id,
      version: body.version,
      decide: async (row, current, em) => {
        requireTransition('submit', row, current);
        // Spec 02 §4.4: submitting generates the report — its RVETotal now, its PDF queued at the commit.
        const report = await submissionChange(em, ctx, { row, to, userId: caller.id });
        return {
          set: { status: to, lat: body.lat, lng: body.lng, ...report },
          history: [{ field: 'status', from: row.status, to, comment: 'Report submitted' }],
        };
      },
    };
  });

  postRequestChange(REQUEST_ADMIN_ROUTES.query, QueryBody, (body, caller) => {
    requireStaff(caller);
    const comment = requiredComment(body.comment);
    checkNamedStatus(body.status, 'query', QUEUE_TEXT.queryStatus);
    return {
      id: body._id,
      version: body.version,
      decide: (row, current) => {
        requireTransition('query', row, current);
        return {
          set: { status: 'Query', query: comment },
          history: [{ field: 'status', from: row.status, to: 'Query', comment }],
        };
      },
    };
  });

  // Not only staff: the request's own user may dispute its report too.
  postRequestChange(REQUEST_ADMIN_ROUTES.dispute, DisputeBody, (body, caller) => {
    const comment = requiredComment(body.comment);
    return {
      id: body._id,
      version: body.version,
      decide: (row, current) => {
        requireOwnerOrStaff(caller, row.user_id);
        requireTransition('dispute', row, current);
        return {
          set: { status: 'Query', query: comment, report_disputed: true },
          history: [{ field: 'dispute', from: row.status, to: 'Query', comment }],
        };
      },
    };
  });

  postRequestChange(REQUEST_ADMIN_ROUTES.qcChecklist, QcChecklistBody, (body, caller) => {
    requireConsoleUser(caller);
    const to = TRANSITIONS.qcApprove.to;
    checkNamedStatus(body.status, 'qcApprove', QUEUE_TEXT.qcStatus);
    if (!caller.roles.includes(ROLE.saviQC)) throw forbidden(QUEUE_TEXT.qcApproval);
    checkTicks(body.checks, QC_CHECKS.length, QUEUE_TEXT.qcChecks);
    const fees = {
      propertyType: body.propertyType,
      numberOfBuildings: body.numberOfBuildings,
      unitPrice: body.price,
    };
    return {
      id: body._id,
      version: body.version,
      decide: (row, current) => {
        requireTransition('qcApprove', row, current);
        return {
          set: {
            status: to,
            property_type: fees.propertyType,
            number_of_buildings: fees.numberOfBuildings,
            unit_price: fees.unitPrice,
          },
          history: [
            ...feeHistoryLines(row, fees),
            { field: 'status', from: row.status, to, comment: 'QC approved' },
          ],
        };
      },
    };
  });

  postRequestChange(REQUEST_ADMIN_ROUTES.qsChecklist, QsChecklistBody, (body, caller) => {
    requireStaff(caller);
    const to = TRANSITIONS.qsChecklist.to;
    checkNamedStatus(body.status, 'qsChecklist', QUEUE_TEXT.qsStatus);
    checkTicks(body.checks, QS_CHECKS.length, QUEUE_TEXT.qsChecks);
    const priority = isYes(body.priority);
    return {
      id: body._id,
      version: body.version,
      decide: (row, current) => {
        requireTransition('qsChecklist', row, current);
        const history: HistoryLine[] = [
          { field: 'status', from: row.status, to, comment: 'QS checklist saved' },
        ];
        if (row.priority !== priority) history.push(priorityLine(row.priority, priority));
        return {
          set: {
            status: to,
            first_user_id: caller.id,
            first_user_name: caller.name,
            priority,
          },
          history,
        };
      },
    };
  });

  postRequestChange(REQUEST_ADMIN_ROUTES.priority, PriorityBody, (body, caller) => {
    requireConsoleUser(caller);
    const priority = isYes(body.priority);
    return {
      id: body.id,
      version: body.version,
      decide: (row) => ({
        set: { priority },
        history: row.priority === priority ? [] : [priorityLine(row.priority, priority)],
      }),
    };
  });

  /** A fee field saved by its own inline edit of the grid, with its history line when it changes. */
  const postFeeChange = <Body extends TSchema>(
    path: string,
    body: Body,
    edit: (body: Static<Body>) => { set: RowChange; fees: FeeChange },
  ) =>
    postRequestChange(path, body, (fields, caller) => {
      requireConsoleUser(caller);
      // Every inline edit's body names its request by `id`, with the version the grid shows.
      const { id, version } = fields as { id: string; version?: number };
      const { set, fees } = edit(fields);
      return { id, version, decide: (row) => ({ set, history: feeHistoryLines(row, fees) }) };
    });
  postFeeChange(REQUEST_ADMIN_ROUTES.propertyType, PropertyTypeBody, (body) => ({
    set: { property_type: body.propertyType },
    fees: { propertyType: body.propertyType },
  }));
  postFeeChange(REQUEST_ADMIN_ROUTES.numberOfBuildings, NumberOfBuildingsBody, (body) => ({
    set: { number_of_buildings: body.numberOfBuildings },
    fees: { numberOfBuildings: body.numberOfBuildings },
  }));
  postFeeChange(REQUEST_ADMIN_ROUTES.unitPrice, UnitPriceBody, (body) => ({
    set: { unit_price: body.unitPrice },
    fees: { unitPrice: body.unitPrice },
  }));

  postRequestChange(REQUEST_ADMIN_ROUTES.references, ClientReferencesBody, (body, caller) => {
    const values = Object.fromEntries(
      Object.entries(body.clientReferences).map(([key, value]) => [key, value.trim()]),
    );
    return {
      id: body._id,
      decide: async (row) => {
        requireOwnerOrStaff(caller, row.user_id);
        const group = (await requestReferences(ctx.ds, row.id))!;
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
      },
    };
  });
}

const priorityLine = (from: boolean, to: boolean): HistoryLine => ({
  field: 'priority',
  from: yesNoText(from),
  to: yesNoText(to),
});
