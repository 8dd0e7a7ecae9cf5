import type { EntityManager } from 'typeorm';
import {
  ADMIN_ROUTES,
  AdminListQuery,
  IdParams,
  ROLE,
  SuccessAnswer,
  UserAnswer,
  UserUpdateBody,
  UsersAnswer,
} from '@portal/contracts';
import { ACCOUNT_TEXT, isValidEmail, messages, normaliseEmail } from '@portal/domain';
import { GroupEntity, PG_ERROR, pgErrorCode, UserEntity } from '@portal/db';
import { badRequest, conflict, revokeSessionsBefore, type TypedFastify } from '@portal/server-kit';
import type { Guard } from '../access';
import { recordChange } from '../store/audit';
import type { ServicesAdminContext } from '../context';
import { groupOr404, isUuid, NOT_FOUND_TEXT, userOr404 } from '../store/lookups';
import { ERRORS } from '../schemas';
import { groupIdsNamed } from '../store/groups';
import { listUsers } from '../store/users';
import { adminUser } from '../store/views';

const USER_TEXT = {
  notOwnAdmin: 'You cannot remove your own admin role.',
  notOwnActive: 'You cannot deactivate your own account.',
  notOwnDelete: 'You cannot delete your own account.',
  noGroupNamed: (name: string) => `There is no group named '${name}'.`,
  severalGroupsNamed: (name: string) => `Several groups are named '${name}': choose the group by id.`,
  deleted: 'User deleted.',
} as const;

/** The columns an admin manages (the rest of the row is identity's: credentials, sessions). */
type ManagedFields = Pick<
  UserEntity,
  | 'name'
  | 'email'
  | 'groupId'
  | 'active'
  | 'isAdmin'
  | 'ratesEditor'
  | 'saviOperator'
  | 'saviQC'
  | 'claimsUser'
>;

const managedFields = (user: ManagedFields): ManagedFields => ({
  name: user.name,
  email: user.email,
  groupId: user.groupId,
  active: user.active,
  isAdmin: user.isAdmin,
  ratesEditor: user.ratesEditor,
  saviOperator: user.saviOperator,
  saviQC: user.saviQC,
  claimsUser: user.claimsUser,
});

/** The group a user update names: by id (`group`, null for none) or else by name (`groupName`). */
async function groupIdOf(manager: EntityManager, body: UserUpdateBody): Promise<string | null | undefined> {
  if (body.group !== undefined) {
    if (body.group === null || body.group === '') return null;
    if (!isUuid(body.group) || !(await manager.existsBy(GroupEntity, { id: body.group }))) {
      throw badRequest(NOT_FOUND_TEXT.noGroup);
    }
    return body.group;
  }
  if (body.groupName === undefined) return undefined;
  const name = body.groupName.trim();
  if (name === '') return null;
  const groups = await groupIdsNamed(manager, name);
  if (groups.length === 0) throw badRequest(USER_TEXT.noGroupNamed(name));
  if (groups.length > 1) throw badRequest(USER_TEXT.severalGroupsNamed(name));
  return groups[0];
}

/** The fields of the body that can be checked without the database, as entity columns. */
function plainChanges(body: UserUpdateBody): Partial<ManagedFields> {
  const changes: Partial<ManagedFields> = {};
  if (body.name !== undefined) {
    changes.name = body.name.trim();
    if (!changes.name) throw badRequest(messages.notEmpty('Name'));
  }
  if (body.email !== undefined) {
    changes.email = normaliseEmail(body.email);
    if (!isValidEmail(changes.email)) throw badRequest(messages.email('Email'));
  }
  if (body.active !== undefined) changes.active = body.active;
  if (body.admin !== undefined) changes.isAdmin = body.admin;
  if (body.ratesEditor !== undefined) changes.ratesEditor = body.ratesEditor;
  if (body.saviOperator !== undefined) changes.saviOperator = body.saviOperator;
  if (body.saviQC !== undefined) changes.saviQC = body.saviQC;
  if (body.claimsUser !== undefined) changes.claimsUser = body.claimsUser;
  return changes;
}

export async function userRoutes(
  app: TypedFastify,
  { ds, redis, config }: ServicesAdminContext,
  guard: Guard,
) {
  const revokeSessions = (userId: string, at: Date) =>
    revokeSessionsBefore(redis, userId, at, config.sessionTtlSeconds);

  app.get(
    ADMIN_ROUTES.users,
    {
      onRequest: guard(ROLE.admin),
      schema: {
        summary: 'List users',
        description:
          'Every user (people, not API keys) with their roles, group and state, paged and filtered like the users grid.',
        tags: ['Services admin'],
        querystring: AdminListQuery,
        response: { 200: UsersAnswer, ...ERRORS },
      },
    },
    async (request) => ({ success: true, ...(await listUsers(ds.manager, request.query)) }),
  );

  app.get(
    ADMIN_ROUTES.groupUsers,
    {
      onRequest: guard(ROLE.admin),
      schema: {
        summary: "List a group's users",
        description: 'The users of one group, paged and filtered like the users grid.',
        tags: ['Services admin'],
        params: IdParams,
        querystring: AdminListQuery,
        response: { 200: UsersAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const group = await groupOr404(ds.manager, request.params.id);
      return { success: true, ...(await listUsers(ds.manager, request.query, group.id)) };
    },
  );

  // Each cell edit of the users grid saves here with just the field it changed.
  app.post(
    ADMIN_ROUTES.user,
    {
      onRequest: guard(ROLE.admin),
      schema: {
        summary: 'Change a user',
        description:
          "Saves a user's changed fields (roles, group, active, e-mail address); deactivating ends the user's sessions at once. Audited.",
        tags: ['Services admin'],
        params: IdParams,
        body: UserUpdateBody,
        response: { 200: UserAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const { id } = request.params;
      const changes = plainChanges(request.body);
      if (id === request.actor.id && changes.isAdmin === false) throw conflict(USER_TEXT.notOwnAdmin);
      if (id === request.actor.id && changes.active === false) throw conflict(USER_TEXT.notOwnActive);

      await ds.transaction(async (manager) => {
        const user = await userOr404(manager, id, true);
        const groupId = await groupIdOf(manager, request.body);
        if (groupId !== undefined) changes.groupId = groupId;
        const before = managedFields(user);
        const after = { ...before, ...changes };
        const changed = (Object.keys(changes) as (keyof ManagedFields)[]).filter(
          (key) => before[key] !== after[key],
        );
        if (changed.length === 0) return;

        if (changes.email !== undefined && changes.email !== before.email) {
          if (await manager.existsBy(UserEntity, { email: changes.email }))
            throw conflict(ACCOUNT_TEXT.emailTaken);
        }
        // Role and group changes show on the user's next users/me or login (identity reads them fresh).
        // Deactivation must not wait: every session of the user ends now.
        const deactivatedAt = before.active && !after.active ? new Date() : undefined;
        try {
          await manager.update(UserEntity, id, {
            ...changes,
            ...(deactivatedAt ? { tokensValidAfter: deactivatedAt } : {}),
          });
        } catch (err) {
          // Another admin gave the address to someone else in between: the unique index decides.
          if (pgErrorCode(err) === PG_ERROR.uniqueViolation) throw conflict(ACCOUNT_TEXT.emailTaken);
          throw err;
        }
        await recordChange(manager, request, {
          entity: 'user',
          entityId: id,
          message: `User ${after.email} updated: ${changed.join(', ')}`,
          before,
          after,
        });
        if (deactivatedAt) await revokeSessions(id, deactivatedAt);
      });
      return { success: true, user: await adminUser(ds.manager, id) };
    },
  );

  // The UI asks for confirmation. The user's direct service links go with the row (ON DELETE CASCADE);
  // the audit trail keeps who they were.
  app.delete(
    ADMIN_ROUTES.user,
    {
      onRequest: guard(ROLE.admin),
      schema: {
        summary: 'Delete a user',
        description: 'Deletes a user with their own service links; the audit trail keeps who they were.',
        tags: ['Services admin'],
        params: IdParams,
        response: { 200: SuccessAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (id === request.actor.id) throw conflict(USER_TEXT.notOwnDelete);
      await ds.transaction(async (manager) => {
        await userOr404(manager, id, true);
        const before = await adminUser(manager, id);
        await manager.delete(UserEntity, id);
        await recordChange(manager, request, {
          entity: 'user',
          entityId: id,
          message: `User ${before.email} deleted`,
          before,
          after: null,
        });
        await revokeSessions(id, new Date());
      });
      return { success: true, message: USER_TEXT.deleted };
    },
  );
}
