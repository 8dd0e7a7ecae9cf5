import { QC_CHECKS, QS_CHECKS, ROUTE_REFUSALS } from '@portal/domain';

/** What the queue's calls answer when they refuse (the 403s are the route table's own words). */
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
  noRequest: 'No such request.',
  noLocatedRequest: 'No such request, or it has no location.',
  invoiceNumber: 'An invoice number is required.',
  viewName: 'A view needs a name.',
  submitStatus: (to: string) => `Submitting a report sends it to '${to}'.`,
  queryStatus: "A query sets the status 'Query'.",
} as const;
