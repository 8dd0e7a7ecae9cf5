import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { ROLE, type ServiceIdentifier } from '@portal/contracts';
import { rolesOf } from '@portal/domain';
import { unauthorized } from './errors';
import { sessionVerifiedByGate } from './route-access';
import type {} from './auth';

/**
 * The user making the call as the database has it now (services/requests, services/iris): roles, group and
 * the services the user may use, read on every call so a removed role or service counts at once.
 */
export interface Caller {
  id: string;
  name: string;
  email: string;
  roles: string[];
  claimsUser: boolean;
  group: {
    id: string;
    name: string;
    code: string;
    references: unknown[];
    claimsReferences: unknown[];
  } | null;
  /** The services the user may use (their own and their active group's, switched on). */
  services: ServiceIdentifier[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the caller hook of every route. */
    caller: Caller;
  }
}

/** Roles that see every request (spec 02: the operations team). */
export const STAFF_ROLES: readonly string[] = [ROLE.admin, ROLE.saviOperator, ROLE.saviQC];
export const isStaff = (caller: Caller) => caller.roles.some((role) => STAFF_ROLES.includes(role));

interface CallerRow {
  id: string;
  name: string;
  email: string;
  active: boolean;
  tokens_valid_after: Date | null;
  is_admin: boolean;
  rates_editor: boolean;
  savi_operator: boolean;
  savi_qc: boolean;
  claims_user: boolean;
  group_id: string | null;
  group_name: string | null;
  group_code: string | null;
  group_active: boolean | null;
  /** The user is their active group's admin (role 'groupAdmin'). */
  group_admin: boolean;
  references: unknown[] | null;
  claims_references: unknown[] | null;
  services: ServiceIdentifier[];
}

/**
 * Route hooks (on request, so nobody's body is read before the caller is known): a valid session
 * (server-kit, 401) and the user's row as it is now — a deactivated account or a revoked session is a 401
 * at once, a removed staff role or a changed group counts from the next call, not from the next login.
 * The group's references and the user's services come in the same statement.
 */
export function callerHooks(
  app: FastifyInstance,
  ds: { query(sql: string, params?: unknown[]): Promise<unknown> },
): onRequestAsyncHookHandler[] {
  app.decorateRequest('caller', null as unknown as Caller);
  const session = app.requireRoles(ROLE.authenticated);
  return [
    // The route table's gate (route-access.ts) has verified the session already on a gated service.
    async function callerSession(this: FastifyInstance, request, reply) {
      if (!sessionVerifiedByGate(request)) await session.call(this, request, reply);
    },
    async (request: FastifyRequest) => {
      const [row] = (await ds.query(
        `SELECT u.id, u.name, u.email, u.active, u.tokens_valid_after, u.is_admin, u.rates_editor,
                u.savi_operator, u.savi_qc, u.claims_user, u.group_id,
                g.name AS group_name, g.code AS group_code, g.active AS group_active, g."references",
                g.claims_references, COALESCE(g.active AND g.admin_user_id = u.id, false) AS group_admin,
                ARRAY(SELECT s.identifier FROM identity.services s
                      WHERE s.active
                        AND (s.id IN (SELECT us.service_id FROM identity.user_services us WHERE us.user_id = u.id)
                             OR s.id IN (SELECT gs.service_id FROM identity.group_services gs
                                         JOIN identity.groups sg ON sg.id = gs.group_id AND sg.active
                                         WHERE gs.group_id = u.group_id))) AS services
         FROM identity.users u LEFT JOIN identity.groups g ON g.id = u.group_id
         WHERE u.id = $1`,
        [request.user.sub],
      )) as CallerRow[];
      if (!row || !row.active) throw unauthorized();
      if (row.tokens_valid_after && request.user.ims < row.tokens_valid_after.getTime()) throw unauthorized();
      request.caller = {
        id: row.id,
        name: row.name,
        email: row.email,
        // A key acts with the staff roles given to it, and with the services both it and its group hold.
        roles: request.apiKey
          ? ['authenticated', ...request.apiKey.roles]
          : rolesOf({
              isAdmin: row.is_admin,
              ratesEditor: row.rates_editor,
              saviOperator: row.savi_operator,
              saviQC: row.savi_qc,
              groupAdmin: row.group_admin,
            }),
        claimsUser: row.claims_user,
        group: row.group_id
          ? {
              id: row.group_id,
              name: row.group_name ?? '',
              code: row.group_code ?? '',
              // The form asks nothing of an inactive group's users (GET users/me/references answers none).
              references: row.group_active ? (row.references ?? []) : [],
              claimsReferences: row.group_active ? (row.claims_references ?? []) : [],
            }
          : null,
        services: request.apiKey
          ? row.services.filter((service) => request.apiKey?.services.includes(service))
          : row.services,
      };
    },
  ];
}
