import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { DataSource } from 'typeorm';
import { ROLE } from '@portal/contracts';
import { rolesOf } from '@portal/domain';
import type { UserEntity } from '@portal/db';
import { forbidden, sessionVerifiedByGate, unauthorized } from '@portal/server-kit';
import { isUuid } from './store/lookups';

/** The user making the call, as the database has it now (not as the session token remembers it). */
export interface Actor {
  id: string;
  name: string;
  email: string;
  groupId: string | null;
  roles: string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guard of every route. */
    actor: Actor;
  }
}

/** What a guard reads of the caller's row. */
type GuardRow = Pick<
  UserEntity,
  | 'id'
  | 'name'
  | 'email'
  | 'groupId'
  | 'active'
  | 'tokensValidAfter'
  | 'isAdmin'
  | 'ratesEditor'
  | 'saviOperator'
  | 'saviQC'
> & {
  /** The user is their active group's admin (role 'groupAdmin'). */
  groupAdmin: boolean;
};

export type Guard = (...roles: string[]) => onRequestAsyncHookHandler[];

/**
 * Route guards, run as `onRequest` hooks so that nobody's body is read or validated before the caller is
 * known. The session and its roles (401/403 from the token alone) are the route table's gate's
 * (libs/domain/src/routeAccess.ts, which lists the same roles for every route here); the guard checks that
 * the user's row holds one of the roles right now. Re-reading the row costs one primary-key lookup and
 * means an admin who loses the role, or an account that is deactivated, loses this API at once rather than
 * when the token expires; the user's own pages follow on their next users/me or login.
 */
export function guards(app: FastifyInstance, ds: DataSource): Guard {
  app.decorateRequest('actor', null as unknown as Actor);
  return (...roles) => [
    async (request: FastifyRequest) => {
      // Every route of the service is in the route table and none is open to anyone: the gate has
      // verified the session (request.user) before this runs. Should one ever not be, no row is read.
      if (!sessionVerifiedByGate(request)) throw unauthorized();
      // Plain SQL: this runs before every call, and the repository's query building cost more than the
      // lookup itself (bench/page-for-model.mjs).
      const [user]: GuardRow[] = await ds.query(
        `SELECT id, name, email, group_id AS "groupId", active, tokens_valid_after AS "tokensValidAfter",
                is_admin AS "isAdmin", rates_editor AS "ratesEditor", savi_operator AS "saviOperator",
                savi_qc AS "saviQC",
                EXISTS (SELECT 1 FROM identity.groups g
                        WHERE g.id = u.group_id AND g.admin_user_id = u.id AND g.active) AS "groupAdmin"
         FROM identity.users u WHERE id = $1`,
        [request.user.sub],
      );
      if (!user || !user.active) throw unauthorized();
      if (user.tokensValidAfter && request.user.ims < user.tokensValidAfter.getTime()) throw unauthorized();
      const current = rolesOf(user);
      if (!roles.some((role) => current.includes(role))) throw forbidden();
      request.actor = {
        id: user.id,
        name: user.name,
        email: user.email,
        groupId: user.groupId,
        roles: current,
      };
    },
  ];
}

/**
 * Reading a rate table: the report builder's users (SAVi operators and QC) price reports of every client
 * group, so they read any group's table; everyone else as for editing.
 */
export function assertMayReadRatesOf(actor: Actor, groupId: string): void {
  if (actor.roles.includes(ROLE.saviOperator) || actor.roles.includes(ROLE.saviQC)) return;
  assertMayEditRatesOf(actor, groupId);
}

/** Rate tables: an admin may open any group's, a rates editor only their own group's. */
export function assertMayEditRatesOf(actor: Actor, groupId: string): void {
  if (actor.roles.includes(ROLE.admin)) return;
  if (actor.groupId !== groupId) throw forbidden('You may only edit the rates of your own group.');
}

/**
 * "An administrator, or the admin of this group": who may manage a group's integration — its API keys,
 * webhooks and usage (issue 22; the route table's GROUP_INTEGRATION entries, whose finer check this is).
 * The one place for it: services-admin's api-keys (routes/apiKeys.ts), webhooks and usage routes call it
 * after `guard(ROLE.admin, ROLE.groupAdmin)`. The session's role may be stale, so the group's row is read
 * now: the user must be its `admin_user_id`, be in it, and the group be active. 403 otherwise (the same
 * answer whether or not the group exists, so a group admin learns nothing of other groups).
 */
export async function assertAdminOfGroup(
  ds: Pick<DataSource, 'query'>,
  actor: Actor,
  groupId: string,
): Promise<void> {
  if (actor.roles.includes(ROLE.admin)) return;
  if (actor.groupId === groupId && isUuid(groupId)) {
    const [row]: { admin: boolean }[] = await ds.query(
      `SELECT (admin_user_id = $2 AND active) AS admin FROM identity.groups WHERE id = $1`,
      [groupId, actor.id],
    );
    if (row?.admin) return;
  }
  throw forbidden(GROUP_ADMIN_TEXT.ownGroupOnly);
}

export const GROUP_ADMIN_TEXT = {
  ownGroupOnly: "Only an administrator, or the group's own admin, may manage this group's integration.",
} as const;
