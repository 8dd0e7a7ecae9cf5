import type { FastifyRequest } from 'fastify';
import type { EntityManager } from 'typeorm';
import { AuditRecordEntity } from '@portal/db';

export interface Change {
  entity: 'user' | 'group' | 'rates' | 'apiKey' | 'webhookEndpoint';
  entityId: string;
  message: string;
  /** The state before and after the change; null for a creation or a deletion. */
  before: unknown;
  after: unknown;
}

/**
 * Writes the audit record of an admin change. Called with the transaction's manager, so the record exists
 * exactly when the change does.
 */
export async function recordChange(
  manager: EntityManager,
  request: FastifyRequest,
  change: Change,
): Promise<void> {
  await manager.insert(AuditRecordEntity, {
    ...change,
    // Left out (so NULL) for a creation's before and a deletion's after.
    before: (change.before ?? undefined) as object | undefined,
    after: (change.after ?? undefined) as object | undefined,
    actorUserId: request.actor.id,
    ip: request.ip,
  });
}
