import { IdsBody, MarkInvoicedBody, REQUEST_ADMIN_ROUTES, UpdateAllFeesBody } from '@portal/contracts';
import { transitionAllowed } from '@portal/domain';
import { badRequest, forbidden, type TypedFastify } from '@portal/server-kit';
import type { RequestsContext } from '../../context';
import { isAdmin, requireConsoleUser } from '../../queue/guards';
import { feeHistoryLines } from '../../queue/historyLines';
import { QUEUE_TEXT } from '../../queue/texts';
import { changeRoutes } from './changeRoutes';

/**
 * The console's bulk actions on a selection (spec 02 §7.2): prioritise, all to Delivered, the fees and the
 * invoice number. All or nothing: a refusal of one is a refusal of all, answered with the refused requests.
 */
export async function queueBulkRoutes(app: TypedFastify, ctx: RequestsContext): Promise<void> {
  const { postBulkChange } = changeRoutes(app, ctx);

  postBulkChange(REQUEST_ADMIN_ROUTES.prioritiseAll, IdsBody, (body, caller) => {
    if (!isAdmin(caller)) throw forbidden(QUEUE_TEXT.prioritise);
    return {
      ids: body.ids,
      decide: (row) =>
        row.priority
          ? null
          : { set: { priority: true }, history: [{ field: 'priority', from: 'No', to: 'Yes' }] },
    };
  });

  postBulkChange(REQUEST_ADMIN_ROUTES.allToDelivered, IdsBody, (body, caller) => {
    requireConsoleUser(caller);
    return {
      ids: body.ids,
      decide: (row) =>
        row.status === 'Delivered'
          ? null
          : {
              set: { status: 'Delivered' },
              history: [{ field: 'status', from: row.status, to: 'Delivered' }],
            },
      refuse: { test: (row) => !transitionAllowed('deliver', row.status), message: QUEUE_TEXT.notDispatched },
    };
  });

  postBulkChange(REQUEST_ADMIN_ROUTES.updateAllFees, UpdateAllFeesBody, (body, caller) => {
    requireConsoleUser(caller);
    const { type, buildings, price } = body;
    return {
      ids: body.ids,
      decide: (row) => ({
        set: { property_type: type, number_of_buildings: buildings, unit_price: price },
        history: feeHistoryLines(row, { propertyType: type, numberOfBuildings: buildings, unitPrice: price }),
      }),
    };
  });

  postBulkChange(REQUEST_ADMIN_ROUTES.markInvoiced, MarkInvoicedBody, (body, caller) => {
    requireConsoleUser(caller);
    const invoice = body.invoiceNumber.trim();
    if (!invoice) throw badRequest(QUEUE_TEXT.invoiceNumber);
    return {
      ids: body.requestids,
      decide: (row) =>
        row.report_invoice_number === invoice
          ? null
          : {
              set: { report_invoice_number: invoice },
              history: [{ field: 'invoice', from: row.report_invoice_number, to: invoice }],
            },
    };
  });
}
