import type { EntityManager } from 'typeorm';
import {
  ADMIN_ROUTES,
  AdminListQuery,
  GroupAnswer,
  GroupBody,
  GroupUpdateBody,
  GroupsAnswer,
  IdParams,
  ROLE,
  SuccessAnswer,
} from '@portal/contracts';
import { messages } from '@portal/domain';
import { GroupEntity, PG_ERROR, pgErrorCode } from '@portal/db';
import { badRequest, conflict, type TypedFastify } from '@portal/server-kit';
import type { Guard } from '../access';
import { recordChange } from '../store/audit';
import type { ServicesAdminContext } from '../context';
import { assertUserExists, groupOr404 } from '../store/lookups';
import { normaliseReferences } from '../references';
import { ERRORS } from '../schemas';
import { deleteGroupKeyAccounts } from '../store/apiKeys';
import { groupCodeTaken, groupPeopleCount, listGroups } from '../store/groups';
import { adminGroup } from '../store/views';

const GROUP_TEXT = {
  codeTaken: (code: string) => `A group with the code '${code}' already exists.`,
  adminMustExist: 'The group admin must be an existing user.',
  stillHasUsers: (count: number) =>
    `This group still has ${count} user(s). Move them to another group first.`,
  deleted: 'Group deleted.',
} as const;

/** The stored fields of a group, as audited. */
type GroupFields = Pick<
  GroupEntity,
  | 'name'
  | 'code'
  | 'adminUserId'
  | 'active'
  | 'includeVAT'
  | 'includeProfessionalFee'
  | 'professionalFeePercentage'
  | 'extraField'
  | 'reportNameFormat'
  | 'references'
  | 'claimsReferences'
>;

const groupFields = (group: GroupFields): GroupFields => ({
  name: group.name,
  code: group.code,
  adminUserId: group.adminUserId,
  active: group.active,
  includeVAT: group.includeVAT,
  includeProfessionalFee: group.includeProfessionalFee,
  professionalFeePercentage: group.professionalFeePercentage,
  extraField: group.extraField,
  reportNameFormat: group.reportNameFormat,
  references: group.references,
  claimsReferences: group.claimsReferences,
});

/**
 * Checks the fields a create or update sends and turns them into columns: names and codes trimmed and
 * present, the code unused by another group (case-insensitively), the admin an existing user, references
 * complete.
 */
async function groupChanges(
  manager: EntityManager,
  body: GroupUpdateBody,
  groupId?: string,
): Promise<Partial<GroupFields>> {
  const changes: Partial<GroupFields> = {};
  if (body.name !== undefined) {
    changes.name = body.name.trim();
    if (!changes.name) throw badRequest(messages.notEmpty('Name'));
  }
  if (body.code !== undefined) {
    const code = body.code.trim();
    if (!code) throw badRequest(messages.notEmpty('Code'));
    if (await groupCodeTaken(manager, code, groupId)) throw conflict(GROUP_TEXT.codeTaken(code));
    changes.code = code;
  }
  if (body.admin !== undefined) {
    if (body.admin !== null && body.admin !== '')
      await assertUserExists(manager, body.admin, GROUP_TEXT.adminMustExist);
    changes.adminUserId = body.admin || null;
  }
  if (body.active !== undefined) changes.active = body.active;
  if (body.includeVAT !== undefined) changes.includeVAT = body.includeVAT;
  if (body.includeProfessionalFee !== undefined) changes.includeProfessionalFee = body.includeProfessionalFee;
  if (body.professionalFeePercentage !== undefined)
    changes.professionalFeePercentage = body.professionalFeePercentage;
  if (body.extraField !== undefined) changes.extraField = body.extraField.trim();
  if (body.reportNameFormat !== undefined) changes.reportNameFormat = body.reportNameFormat.trim();
  if (body.references !== undefined) changes.references = normaliseReferences(body.references);
  if (body.claimsReferences !== undefined)
    changes.claimsReferences = normaliseReferences(body.claimsReferences);
  return changes;
}

/** Saves a group row; a code taken by a concurrent request is the same 409 as one found beforehand. */
async function saveGroup<T>(code: string | undefined, save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (err) {
    if (pgErrorCode(err) === PG_ERROR.uniqueViolation && code) throw conflict(GROUP_TEXT.codeTaken(code));
    throw err;
  }
}

export async function groupRoutes(app: TypedFastify, { ds }: ServicesAdminContext, guard: Guard) {
  app.get(
    ADMIN_ROUTES.groups,
    {
      onRequest: guard(ROLE.admin),
      schema: {
        summary: 'List groups',
        description: 'Every group (company) with its settings, paged and filtered like the groups grid.',
        tags: ['Services admin'],
        querystring: AdminListQuery,
        response: { 200: GroupsAnswer, ...ERRORS },
      },
    },
    async (request) => ({ success: true, ...(await listGroups(ds.manager, request.query)) }),
  );

  app.put(
    ADMIN_ROUTES.groups,
    {
      onRequest: guard(ROLE.admin),
      schema: {
        summary: 'Create a group',
        description:
          'Creates a group with its code, name, references and report settings; 409 when its code is taken.',
        tags: ['Services admin'],
        body: GroupBody,
        response: { 201: GroupAnswer, ...ERRORS },
      },
    },
    async (request, reply) => {
      const id = await ds.transaction(async (manager) => {
        const changes = await groupChanges(manager, request.body);
        const group = await saveGroup(changes.code, () => manager.save(manager.create(GroupEntity, changes)));
        await recordChange(manager, request, {
          entity: 'group',
          entityId: group.id,
          message: `Group ${group.code} created`,
          before: null,
          after: groupFields(group),
        });
        return group.id;
      });
      return reply.status(201).send({ success: true, group: await adminGroup(ds.manager, id) });
    },
  );

  app.post(
    ADMIN_ROUTES.group,
    {
      onRequest: guard(ROLE.admin),
      schema: {
        summary: 'Change a group',
        description: "Saves a group's changed fields (the grid saves each edited cell); audited.",
        tags: ['Services admin'],
        params: IdParams,
        body: GroupUpdateBody,
        response: { 200: GroupAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const { id } = request.params;
      await ds.transaction(async (manager) => {
        const group = await groupOr404(manager, id, true);
        const changes = await groupChanges(manager, request.body, id);
        const before = groupFields(group);
        const after = { ...before, ...changes };
        if (JSON.stringify(before) === JSON.stringify(after)) return;
        await saveGroup(changes.code, () => manager.save(Object.assign(group, changes)));
        await recordChange(manager, request, {
          entity: 'group',
          entityId: id,
          message: `Group ${after.code} updated`,
          before,
          after,
        });
      });
      return { success: true, group: await adminGroup(ds.manager, id) };
    },
  );

  // A group with members is refused (the users' foreign key would refuse it too). The row lock keeps
  // users from joining between the count and the delete: joining takes a key-share lock on the group row.
  // Its service links and rate table go with it.
  app.delete(
    ADMIN_ROUTES.group,
    {
      onRequest: guard(ROLE.admin),
      schema: {
        summary: 'Delete a group',
        description:
          'Deletes a group without members, with its service links, rate table and API keys; 409 while it has members.',
        tags: ['Services admin'],
        params: IdParams,
        response: { 200: SuccessAnswer, ...ERRORS },
      },
    },
    async (request) => {
      const { id } = request.params;
      await ds.transaction(async (manager) => {
        const group = await groupOr404(manager, id, true);
        const members = await groupPeopleCount(manager, id);
        if (members > 0) throw conflict(GROUP_TEXT.stillHasUsers(members));
        const before = await adminGroup(manager, id);
        // The group's API keys go with it, and their account rows (which would hold the group otherwise).
        await deleteGroupKeyAccounts(manager, id);
        await manager.delete(GroupEntity, id);
        await recordChange(manager, request, {
          entity: 'group',
          entityId: id,
          message: `Group ${group.code} deleted`,
          before,
          after: null,
        });
      });
      return { success: true, message: GROUP_TEXT.deleted };
    },
  );
}
