import type { EntityManager } from 'typeorm';
import { GroupServiceEntity, ServiceEntity, UserServiceEntity } from '@portal/db';

/** Services are granted to a group (and so to all its users) or to one user directly. */
export type Holder = 'group' | 'user';

/** Where each holder's grants are stored. */
const LINKS = {
  group: { link: GroupServiceEntity, table: 'identity.group_services', column: 'group_id', key: 'groupId' },
  user: { link: UserServiceEntity, table: 'identity.user_services', column: 'user_id', key: 'userId' },
} as const;

/** Every service, by name. */
export const allServices = (manager: EntityManager) =>
  manager.getRepository(ServiceEntity).find({ order: { name: 'ASC' } });

/** Identifiers of the services granted to a group or directly to a user, sorted. */
export async function servicesOf(manager: EntityManager, holder: Holder, id: string): Promise<string[]> {
  const { table, column } = LINKS[holder];
  const rows: { identifier: string }[] = await manager.query(
    `SELECT s.identifier FROM ${table} h JOIN identity.services s ON s.id = h.service_id
     WHERE h.${column} = $1 ORDER BY s.identifier`,
    [id],
  );
  return rows.map((row) => row.identifier);
}

/** Grants (or withdraws) the service `serviceId` to the holder `id`. */
export async function setServiceGrant(
  manager: EntityManager,
  holder: Holder,
  id: string,
  serviceId: string,
  grant: boolean,
): Promise<void> {
  const { link, key } = LINKS[holder];
  const row = { [key]: id, serviceId };
  if (grant) await manager.insert(link, row);
  else await manager.delete(link, row);
}
