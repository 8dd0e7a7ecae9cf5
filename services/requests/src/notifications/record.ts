import type { EntityManager } from 'typeorm';
import { REQUEST_SUBTYPE, statusNotificationKind, type NotificationData } from '@portal/contracts';
import { recordNotifications } from '@portal/db';
import type { RequestDbRow } from '../queue/rows';

/**
 * The requester's notification of a status change made by the console's calls (queue/changes.ts
 * writeChange, inside the change's transaction, after the row was written): queried or disputed back to
 * them, located, or their report ready (contracts' statusNotificationKind). The person who made the
 * change is not told of it (a requester disputing their own report).
 */
export async function notifyStatusChange(
  em: EntityManager,
  row: RequestDbRow,
  set: Record<string, unknown>,
  actorId: string,
): Promise<void> {
  const to = String(set.status);
  const kind = statusNotificationKind({
    from: row.status,
    to,
    cantLocate: row.cant_locate || row.request_sub_type === REQUEST_SUBTYPE.cantLocate,
    hasReport: Boolean(set.report_pdf_url ?? row.report_pdf_url),
  });
  if (!kind) return;
  const data: NotificationData =
    kind === 'request.queried'
      ? { comment: typeof set.query === 'string' ? set.query : null, disputed: set.report_disputed === true }
      : {};
  await recordNotifications(em, { kind, requestIds: [row.id], to: 'requester', actorId, data: { ...data } });
}
