import type { FastifyRequest } from 'fastify';
import type { DataSource, EntityManager } from 'typeorm';
import {
  ADMIN_API,
  AllServicesAnswer,
  IdParams,
  ROLE,
  ServiceAssignmentBody,
  ServiceListAnswer,
} from '@portal/contracts';
import { GroupServiceEntity, ServiceEntity, UserServiceEntity } from '@portal/db';
import type { TypedFastify } from '@portal/server-kit';
import type { Guard } from '../access';
import { recordChange } from '../audit';
import type { ServicesAdminContext } from '../context';
import { groupOr404, serviceOr404, userOr404 } from '../lookups';
import { AssignmentParams, ERRORS } from '../schemas';

/** Services are granted to a group (and so to all its users) or to one user directly. */
const HOLDERS = {
  group: {
    link: GroupServiceEntity,
    table: 'identity.group_services',
    column: 'group_id',
    key: 'groupId',
    /** The holder's name for the audit message; 404 when unknown. */
    find: async (manager: EntityManager, id: string, lock = false) =>
      (await groupOr404(manager, id, lock)).code,
  },
  user: {
    link: UserServiceEntity,
    table: 'identity.user_services',
    column: 'user_id',
    key: 'userId',
    find: async (manager: EntityManager, id: string, lock = false) =>
      (await userOr404(manager, id, lock)).email,
  },
} as const;
type Holder = keyof typeof HOLDERS;

/** Identifiers of the services granted to a group or directly to a user, sorted. */
async function servicesOf(manager: EntityManager, holder: Holder, id: string): Promise<string[]> {
  const { table, column } = HOLDERS[holder];
  const rows: { identifier: string }[] = await manager.query(
    `SELECT s.identifier FROM ${table} h JOIN identity.services s ON s.id = h.service_id
     WHERE h.${column} = $1 ORDER BY s.identifier`,
    [id],
  );
  return rows.map((row) => row.identifier);
}

/**
 * Grants or withdraws a service. Idempotent: granting a held service or withdrawing one that is not held
 * changes nothing and writes no audit record. The holder's row is locked so concurrent changes queue up
 * and each audit record's before/after is exact.
 */
async function changeAssignment(
  ds: DataSource,
  request: FastifyRequest,
  holder: Holder,
  id: string,
  service: string,
  grant: boolean,
) {
  const { link, key } = HOLDERS[holder];
  return ds.transaction(async (manager) => {
    const label = await HOLDERS[holder].find(manager, id, true);
    const { id: serviceId, identifier } = await serviceOr404(manager, service);
    const before = await servicesOf(manager, holder, id);
    if (before.includes(identifier) !== grant) {
      const row = { [key]: id, serviceId };
      if (grant) await manager.insert(link, row);
      else await manager.delete(link, row);
      const after = await servicesOf(manager, holder, id);
      await recordChange(manager, request, {
        entity: holder,
        entityId: id,
        message: `Service ${identifier} ${grant ? 'granted to' : 'withdrawn from'} ${holder} ${label}`,
        before: { services: before },
        after: { services: after },
      });
      return { success: true, services: after };
    }
    return { success: true, services: before };
  });
}

export async function serviceAssignmentRoutes(app: TypedFastify, { ds }: ServicesAdminContext, guard: Guard) {
  const admin = guard(ROLE.admin);
  const listed = { response: { 200: ServiceListAnswer, ...ERRORS } };

  app.get(
    ADMIN_API.allServices,
    { onRequest: admin, schema: { response: { 200: AllServicesAnswer, ...ERRORS } } },
    async () => {
      const services = await ds.getRepository(ServiceEntity).find({ order: { name: 'ASC' } });
      return {
        success: true,
        services: services.map(({ id, ...service }) => ({ _id: id, ...service })),
      };
    },
  );

  // The caller's own group's services (spec 03 §7 "GET /api/v1.0/group/services").
  app.get('/api/v1.0/group/services', { onRequest: admin, schema: listed }, async (request) => ({
    success: true,
    services: request.actor.groupId ? await servicesOf(ds.manager, 'group', request.actor.groupId) : [],
  }));

  for (const holder of ['group', 'user'] as const) {
    app.get(
      `/api/v1.0/${holder}/:id/services`,
      { onRequest: admin, schema: { params: IdParams, ...listed } },
      async (request) => {
        await HOLDERS[holder].find(ds.manager, request.params.id);
        return { success: true, services: await servicesOf(ds.manager, holder, request.params.id) };
      },
    );
    app.post(
      `/api/v1.0/${holder}/:id/services`,
      { onRequest: admin, schema: { params: IdParams, body: ServiceAssignmentBody, ...listed } },
      async (request) => changeAssignment(ds, request, holder, request.params.id, request.body.service, true),
    );
    app.delete(
      `/api/v1.0/${holder}/:id/service/:service`,
      { onRequest: admin, schema: { params: AssignmentParams, ...listed } },
      async (request) =>
        changeAssignment(ds, request, holder, request.params.id, request.params.service, false),
    );
  }
}
