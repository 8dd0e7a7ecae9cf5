import type { EntityManager, EntityTarget, FindOptionsWhere } from 'typeorm';
import { GroupEntity, ServiceEntity, UserEntity } from '@portal/db';
import { badRequest, notFound } from '@portal/server-kit';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are uuids; anything else is answered before it reaches PostgreSQL (which would refuse the cast). */
export const isUuid = (value: string) => UUID.test(value);

export const NOT_FOUND_TEXT = {
  noUser: 'There is no user with that id.',
  noGroup: 'There is no group with that id.',
  noService: (service: string) => `There is no service '${service}'.`,
} as const;

/** The row of a path id, locked for the rest of the transaction when `lock` is set; 404 when unknown. */
async function byIdOr404<T extends UserEntity | GroupEntity>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  id: string,
  lock: boolean,
  message: string,
): Promise<T> {
  const row = isUuid(id)
    ? await manager.findOne(entity, {
        where: { id } as FindOptionsWhere<T>,
        ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
      })
    : null;
  if (!row) throw notFound(message);
  return row;
}

/**
 * A person's row (the users grid's edits and deletes, their services): an API key's own account row
 * (kind 'apiKey', issue 22) is not a user here — it is the key's, changed through the key's routes.
 */
export async function userOr404(manager: EntityManager, id: string, lock = false): Promise<UserEntity> {
  if (isUuid(id) && !(await isPerson(manager, id))) throw notFound(NOT_FOUND_TEXT.noUser);
  return byIdOr404(manager, UserEntity, id, lock, NOT_FOUND_TEXT.noUser);
}

/** PEOPLE: the condition on `identity.users u` that leaves out API keys' account rows (issue 22). */
export const PEOPLE = `u.kind = 'person'`;

const isPerson = async (manager: EntityManager, id: string) =>
  ((await manager.query(`SELECT 1 FROM identity.users u WHERE u.id = $1 AND ${PEOPLE}`, [id])) as unknown[])
    .length > 0;

export const groupOr404 = (manager: EntityManager, id: string, lock = false) =>
  byIdOr404(manager, GroupEntity, id, lock, NOT_FOUND_TEXT.noGroup);

/** A service named by its identifier (any case) or its id; 404 when unknown. */
export async function serviceOr404(manager: EntityManager, service: string): Promise<ServiceEntity> {
  const found = await manager.findOneBy(
    ServiceEntity,
    isUuid(service)
      ? { id: service }
      : { identifier: service.trim().toLowerCase() as ServiceEntity['identifier'] },
  );
  if (!found) throw notFound(NOT_FOUND_TEXT.noService(service));
  return found;
}

/**
 * A user id given in a body (a group's admin): 400 rather than 404, since the call's own target exists.
 * A person: an API key's account row is never a group's admin.
 */
export async function assertUserExists(manager: EntityManager, id: string, message: string): Promise<void> {
  if (!isUuid(id) || !(await isPerson(manager, id))) throw badRequest(message);
}
