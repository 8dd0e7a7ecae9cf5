import type { FastifyRequest } from 'fastify';
import type { DataSource, EntityManager } from 'typeorm';
import {
  ADMIN_ROUTES,
  AllServicesAnswer,
  IdParams,
  ROLE,
  ServiceAssignmentBody,
  ServiceListAnswer,
} from '@portal/contracts';
import type { TypedFastify } from '@portal/server-kit';
import type { Guard } from '../access';
import { recordChange } from '../store/audit';
import type { ServicesAdminContext } from '../context';
import { groupOr404, serviceOr404, userOr404 } from '../store/lookups';
import { allServices, servicesOf, setServiceGrant, type Holder } from '../store/service-assignment';
import { AssignmentParams, ERRORS } from '../schemas';

/** Each holder's name for the audit message; 404 when unknown. */
const HOLDERS = {
  group: {
    find: async (manager: EntityManager, id: string, lock = false) =>
      (await groupOr404(manager, id, lock)).code,
  },
  user: {
    find: async (manager: EntityManager, id: string, lock = false) =>
      (await userOr404(manager, id, lock)).email,
  },
} as const satisfies Record<Holder, unknown>;

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
  return ds.transaction(async (manager) => {
    const label = await HOLDERS[holder].find(manager, id, true);
    const { id: serviceId, identifier } = await serviceOr404(manager, service);
    const before = await servicesOf(manager, holder, id);
    if (before.includes(identifier) !== grant) {
      await setServiceGrant(manager, holder, id, serviceId, grant);
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
    ADMIN_ROUTES.allServices,
    {
      onRequest: admin,
      schema: {
        summary: 'List every service',
        description:
          'The services the portal offers (SAVi, AVS, IRiS, SpatialKey), to assign to groups and users.',
        tags: ['Services admin'],
        response: { 200: AllServicesAnswer, ...ERRORS },
      },
    },
    async () => {
      const services = await allServices(ds.manager);
      return {
        success: true,
        services: services.map(({ id, ...service }) => ({ _id: id, ...service })),
      };
    },
  );

  // The caller's own group's services (spec 03 §7 "GET /api/v1.0/group/services").
  app.get(
    ADMIN_ROUTES.ownGroupServices,
    {
      onRequest: admin,
      schema: {
        summary: "List the caller's group's services",
        description: "The services assigned to the signed-in administrator's own group.",
        tags: ['Services admin'],
        ...listed,
      },
    },
    async (request) => ({
      success: true,
      services: request.actor.groupId ? await servicesOf(ds.manager, 'group', request.actor.groupId) : [],
    }),
  );

  for (const holder of ['group', 'user'] as const) {
    app.get(
      ADMIN_ROUTES[`${holder}Services`],
      {
        onRequest: admin,
        schema: {
          summary: `List a ${holder}'s services`,
          description: `The services assigned to one ${holder} (a user also has their group's).`,
          tags: ['Services admin'],
          params: IdParams,
          ...listed,
        },
      },
      async (request) => {
        await HOLDERS[holder].find(ds.manager, request.params.id);
        return { success: true, services: await servicesOf(ds.manager, holder, request.params.id) };
      },
    );
    app.post(
      ADMIN_ROUTES[`${holder}Services`],
      {
        onRequest: admin,
        schema: {
          summary: `Assign a service to a ${holder}`,
          description: `Gives a ${holder} a service and answers the ${holder}'s services after; audited.`,
          tags: ['Services admin'],
          params: IdParams,
          body: ServiceAssignmentBody,
          ...listed,
        },
      },
      async (request) => changeAssignment(ds, request, holder, request.params.id, request.body.service, true),
    );
    app.delete(
      ADMIN_ROUTES[`${holder}Service`],
      {
        onRequest: admin,
        schema: {
          summary: `Remove a service from a ${holder}`,
          description: `Takes a service from a ${holder} and answers the ${holder}'s services after; audited.`,
          tags: ['Services admin'],
          params: AssignmentParams,
          ...listed,
        },
      },
      async (request) =>
        changeAssignment(ds, request, holder, request.params.id, request.params.service, false),
    );
  }
}
