import { REQUEST_ADMIN_ROUTES } from '@portal/contracts';

/**
 * What the API's document says of each change call of the request console (changeRoutes registers them all
 * one way, so their words are kept here by path rather than in each call's registration).
 */
const CHANGE_DOCS: Record<string, { summary: string; description: string }> = {
  [REQUEST_ADMIN_ROUTES.updateStatus]: {
    summary: "Change a request's status",
    description:
      'Moves a request to a status its workflow allows from the one it is in (staff); into QC check or later its ' +
      "report's RVETotal and PDF are made. 409 with the row as it is when the version is stale or the move not allowed.",
  },
  [REQUEST_ADMIN_ROUTES.submit]: {
    summary: "Submit a request's report",
    description:
      "Submits the report (spec 02 §4.4): the request goes to QC check, its RVETotal is set from the report's totals " +
      'and its PDF is queued; 409 when the request is not in a status that submits.',
  },
  [REQUEST_ADMIN_ROUTES.query]: {
    summary: 'Query a request',
    description: 'Puts a request in Query with the comment saying what is missing or unclear (staff).',
  },
  [REQUEST_ADMIN_ROUTES.dispute]: {
    summary: "Dispute a request's report",
    description: "The request's own user (or staff) disputes its delivered report with a comment saying why.",
  },
  [REQUEST_ADMIN_ROUTES.qcChecklist]: {
    summary: 'Pass the QC checklist',
    description:
      "Records QC's checklist (spec 02 §7.2's body: status, property type, number of buildings, price) and moves " +
      'the request on; QC approval needs the saviQC role. `checks`, when sent, must all be ticked.',
  },
  [REQUEST_ADMIN_ROUTES.qsChecklist]: {
    summary: 'Pass the QS checklist',
    description:
      "Records the QS's checklist (spec 02 §7.2's body: status, first user, priority) and moves the request on; " +
      '`checks`, when sent, must all be ticked.',
  },
  [REQUEST_ADMIN_ROUTES.priority]: {
    summary: "Set a request's priority",
    description: 'Marks a request prioritised or not (the request console).',
  },
  [REQUEST_ADMIN_ROUTES.propertyType]: {
    summary: "Set a request's property type",
    description:
      "Saves the property type the request's fee is worked out from (an inline edit of the console's grid).",
  },
  [REQUEST_ADMIN_ROUTES.numberOfBuildings]: {
    summary: "Set a request's number of buildings",
    description:
      "Saves the number of buildings the request's fee is worked out from (an inline edit of the grid).",
  },
  [REQUEST_ADMIN_ROUTES.unitPrice]: {
    summary: "Set a request's unit price",
    description: "Saves the request's unit price (an inline edit of the console's grid).",
  },
  [REQUEST_ADMIN_ROUTES.references]: {
    summary: "Change a request's client references",
    description:
      "Saves the client's reference fields of a request (its own user, or staff), with a history line.",
  },
  [REQUEST_ADMIN_ROUTES.prioritiseAll]: {
    summary: 'Prioritise requests',
    description:
      'Prioritises every request of a selection (administrators); all or none, the refused ones answered.',
  },
  [REQUEST_ADMIN_ROUTES.allToDelivered]: {
    summary: 'Deliver requests',
    description:
      'Moves every request of a selection to Delivered; all or none: a request that may not move refuses the lot, ' +
      'answered with the refused ones.',
  },
  [REQUEST_ADMIN_ROUTES.updateAllFees]: {
    summary: 'Set the fees of requests',
    description: 'Sets the fee fields of every request of a selection at once; all or none.',
  },
  [REQUEST_ADMIN_ROUTES.markInvoiced]: {
    summary: 'Mark requests invoiced',
    description: 'Records the invoice number on every request of a selection; all or none.',
  },
};

/** The summary, description and tag of a change call, for its schema (an unknown path: none, the lint says so). */
export const changeDocs = (path: string) => ({ ...CHANGE_DOCS[path], tags: ['Requests'] });
