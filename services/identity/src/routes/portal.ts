import {
  IDENTITY_ROUTES,
  AuditBody,
  ErrorAnswer,
  MenuAnswer,
  MenuParams,
  MyReferencesAnswer,
  ServicesAnswer,
  SuccessAnswer,
} from '@portal/contracts';
import { MENUS } from '@portal/domain';
import { notFound, unauthorized } from '@portal/server-kit';
import type { TypedFastify } from '@portal/server-kit';
import { insertAuditRecord, ownServices, toServiceAnswer, userById, userWithGroup } from '../store';
import type { IdentityContext } from '../context';

/** What the shell's frame needs besides the account calls: menus, the home tiles, the audit log. */
export async function portalRoutes(app: TypedFastify, ctx: IdentityContext) {
  const { ds } = ctx;

  app.get(
    IDENTITY_ROUTES.menu,
    {
      schema: {
        summary: 'Read a menu of the portal',
        description:
          "The entries of one of the portal's named menus (the shell's frame); 404 for a name there is no menu by.",
        tags: ['Account'],
        params: MenuParams,
        response: { 200: MenuAnswer, 404: ErrorAnswer },
      },
    },
    async (request) => {
      // Own keys only: 'constructor' or 'toString' (the name's pattern allows them) are no menus.
      const menu = Object.hasOwn(MENUS, request.params.name) ? MENUS[request.params.name] : undefined;
      if (!menu) throw notFound(`There is no menu named '${request.params.name}'.`);
      return { name: request.params.name, defaultMenu: menu };
    },
  );

  // The session (401) of these calls is the route table's gate (libs/domain/src/routeAccess.ts), which
  // leaves its claims in request.user.
  app.get(
    IDENTITY_ROUTES.services,
    {
      schema: {
        summary: "List the caller's services",
        description:
          "The services (SAVi, AVS, IRiS, SpatialKey) the signed-in user may use, from their own and their group's: the home page's tiles.",
        tags: ['Account'],
        response: { 200: ServicesAnswer, 401: ErrorAnswer },
      },
    },
    async (request) => {
      const user = await userById(ds, request.user.sub);
      if (!user || !user.active) throw unauthorized();
      return { success: true, services: (await ownServices(ds, user)).map(toServiceAnswer) };
    },
  );

  // The request form's reference fields (spec 01 §3, §5): users/me carries the group without them, and the
  // group administration calls are for admins. Read fresh, like users/me, so an edited group shows at once.
  app.get(
    IDENTITY_ROUTES.myReferences,
    {
      schema: {
        summary: "Read the caller's reference fields",
        description:
          "The client reference fields of the caller's group (its claims references for a claims user) that a new request asks for.",
        tags: ['Account'],
        response: { 200: MyReferencesAnswer, 401: ErrorAnswer },
      },
    },
    async (request) => {
      const user = await userWithGroup(ds, request.user.sub);
      if (!user || !user.active) throw unauthorized();
      const group = user.group && user.group.active ? user.group : null;
      return {
        claimsUser: user.claimsUser,
        references: (user.claimsUser ? group?.claimsReferences : group?.references) ?? [],
      };
    },
  );

  // Spec 01 §7: overrides are logged here. The session decides who acted; the body's user fields are
  // kept as sent, since they describe whom the client believed it was acting for.
  app.post(
    IDENTITY_ROUTES.audit,
    {
      schema: {
        summary: 'Log an audit record',
        description:
          'Records an override or another action the client must log (spec 01 §7); the session says who acted, the body what and for whom.',
        tags: ['Account'],
        body: AuditBody,
        response: { 201: SuccessAnswer, 400: ErrorAnswer, 401: ErrorAnswer },
      },
    },
    async (request, reply) => {
      const { message, details, user_name, user_email, user_id } = request.body;
      await insertAuditRecord(ds, {
        message,
        details: details === undefined ? undefined : (details as object),
        userName: user_name ?? request.user.name,
        userEmail: user_email ?? request.user.email,
        userId: user_id ?? request.user.sub,
        actorUserId: request.user.sub,
        ip: request.ip,
      });
      return reply.status(201).send({ success: true });
    },
  );
}
