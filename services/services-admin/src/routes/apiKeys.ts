import { Type } from '@sinclair/typebox';
import {
  API_KEY_ROUTES,
  ApiKey,
  ApiKeyList,
  ApiKeyParams,
  CreateApiKeyBody,
  CreatedApiKey,
  errorAnswers,
  GroupRateLimitBody,
  IdParams,
  ROLE,
} from '@portal/contracts';
import { forgetApiKey, newApiKey, badRequest, forbidden, type TypedFastify } from '@portal/server-kit';
import { assertAdminOfGroup, type Guard } from '../access';
import type { ServicesAdminContext } from '../context';
import { recordChange } from '../store/audit';
import {
  apiKeyById,
  groupApiKeys,
  insertApiKey,
  keyGroupOr404,
  keyToRevokeOr404,
  rateLimitOf,
  revokeApiKey,
  setGroupRateLimit,
} from '../store/apiKeys';

/**
 * A group's API keys (issue 22): administrators, and the group's own admin for their group (the route
 * table's GROUP_INTEGRATION with the finer check assertAdminOfGroup), create, list and revoke them; only
 * administrators give a key staff roles or set the group's limit per key. A key is shown once, in the
 * creation's answer; what is kept is its SHA-256 and its first characters (docs/decisions.md "API keys").
 */

export const API_KEY_TEXT = {
  nameEmpty: 'The key needs a name.',
  servicesNotHeld: (services: string[]) =>
    `The group does not have the service${services.length > 1 ? 's' : ''} ${services.join(', ')}: a key may only use the group's services.`,
  expiryPast: 'The expiry date must be in the future.',
  expiryInvalid: 'The expiry date is not a valid date.',
  rolesAdminsOnly: 'Only an administrator may give a key staff roles.',
} as const;

const TAGS = ['API keys'];
const RateLimitAnswer = Type.Pick(ApiKeyList, ['rateLimitPerMinute', 'rateLimitIsDefault']);

/** A key's fields as audited: never the key or its hash. */
const audited = (key: ApiKey) => ({
  groupId: key.groupId,
  name: key.name,
  prefix: key.prefix,
  services: key.services,
  scope: key.scope,
  roles: key.roles,
  expiresAt: key.expiresAt,
  revokedAt: key.revokedAt,
});

/** The expiry a body asks for: none, or a valid instant after now (400 otherwise). */
function expiryOf(expiresAt: string | null | undefined, now = Date.now()): Date | null {
  if (expiresAt === undefined || expiresAt === null) return null;
  const at = new Date(expiresAt);
  if (Number.isNaN(at.getTime())) throw badRequest(API_KEY_TEXT.expiryInvalid);
  if (at.getTime() <= now) throw badRequest(API_KEY_TEXT.expiryPast);
  return at;
}

export async function apiKeyRoutes(
  app: TypedFastify,
  { ds, redis, config }: ServicesAdminContext,
  guard: Guard,
) {
  const integration = guard(ROLE.admin, ROLE.groupAdmin);

  app.post(
    API_KEY_ROUTES.groupKeys,
    {
      onRequest: integration,
      schema: {
        summary: 'Create an API key for a group',
        description:
          "Creates a key for the group's machines with the services it may use (some of the group's), a read or " +
          'write scope and an optional expiry; the answer carries the key itself, the only time it is shown.',
        tags: TAGS,
        params: IdParams,
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKey, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { id: groupId } = request.params;
      const { body, actor } = request;
      await assertAdminOfGroup(ds, actor, groupId);
      const name = body.name.trim();
      if (!name) throw badRequest(API_KEY_TEXT.nameEmpty);
      const roles = body.roles ?? [];
      if (roles.length > 0 && !actor.roles.includes(ROLE.admin))
        throw forbidden(API_KEY_TEXT.rolesAdminsOnly);
      const expiresAt = expiryOf(body.expiresAt);
      const made = newApiKey();
      const key = await ds.transaction(async (manager) => {
        // Shared lock: the group's services cannot change between the check and the key's insert.
        const group = await keyGroupOr404(manager, groupId, true);
        const lacking = body.services.filter((service) => !group.services.includes(service));
        if (lacking.length > 0) throw badRequest(API_KEY_TEXT.servicesNotHeld(lacking));
        const created = await insertApiKey(manager, {
          groupId,
          name,
          prefix: made.prefix,
          secretHash: made.secretHash,
          services: body.services,
          scope: body.scope,
          roles,
          expiresAt,
          createdBy: actor.id,
        });
        await recordChange(manager, request, {
          entity: 'apiKey',
          entityId: created._id,
          message: `API key ${created.prefix} (${created.name}) created for group ${group.code}`,
          before: null,
          after: audited(created),
        });
        return created;
      });
      return reply.status(201).send({ ...key, key: made.key });
    },
  );

  app.get(
    API_KEY_ROUTES.groupKeys,
    {
      onRequest: integration,
      schema: {
        summary: "List a group's API keys",
        description:
          "The group's keys, newest first, with their prefix, creator, state, last use and use count (never the " +
          'key itself); the group with the services a key may use, and its limit of calls per minute per key.',
        tags: TAGS,
        params: IdParams,
        response: { 200: ApiKeyList, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { id: groupId } = request.params;
      await assertAdminOfGroup(ds, request.actor, groupId);
      const group = await keyGroupOr404(ds.manager, groupId);
      return {
        group: { _id: group.id, name: group.name, code: group.code, services: group.services },
        keys: await groupApiKeys(ds.manager, groupId),
        ...rateLimitOf(group),
      };
    },
  );

  app.delete(
    API_KEY_ROUTES.key,
    {
      onRequest: integration,
      schema: {
        summary: 'Revoke an API key',
        description:
          'Revokes the key at once: its next call, on any instance of any service, is a 401. Revoking a revoked ' +
          'key changes nothing; the answer is the key as it now stands.',
        tags: TAGS,
        params: ApiKeyParams,
        response: { 200: ApiKey, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { keyId } = request.params;
      const revoked = await ds.transaction(async (manager) => {
        const key = await keyToRevokeOr404(manager, keyId);
        await assertAdminOfGroup(manager, request.actor, key.groupId);
        if (key.revoked) return key;
        const before = (await apiKeyById(manager, keyId))!;
        await revokeApiKey(manager, key, request.actor.id);
        await recordChange(manager, request, {
          entity: 'apiKey',
          entityId: key.id,
          message: `API key ${key.prefix} (${key.name}) of group ${key.groupCode} revoked`,
          before: audited(before),
          after: audited((await apiKeyById(manager, keyId))!),
        });
        return key;
      });
      // After the commit: a look-up racing the revocation cannot cache the key again as it was.
      await forgetApiKey(redis, config.redisPrefix, revoked.secretHash);
      return (await apiKeyById(ds.manager, keyId))!;
    },
  );

  app.put(
    API_KEY_ROUTES.groupRateLimit,
    {
      onRequest: guard(ROLE.admin),
      schema: {
        summary: "Set a group's API rate limit",
        description:
          "Sets how many calls per minute each of the group's keys may make (null: the portal's default). " +
          'Administrators only; it holds for every key of the group within a minute.',
        tags: TAGS,
        params: IdParams,
        body: GroupRateLimitBody,
        response: { 200: RateLimitAnswer, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { id: groupId } = request.params;
      const limit = request.body.rateLimitPerMinute;
      return ds.transaction(async (manager) => {
        const group = await keyGroupOr404(manager, groupId, true);
        if (group.rateLimitPerMinute !== limit) {
          await setGroupRateLimit(manager, groupId, limit);
          await recordChange(manager, request, {
            entity: 'group',
            entityId: groupId,
            message: `Group ${group.code} API rate limit ${limit === null ? 'set to the default' : `set to ${limit} per minute`}`,
            before: { apiRateLimitPerMinute: group.rateLimitPerMinute },
            after: { apiRateLimitPerMinute: limit },
          });
        }
        return rateLimitOf({ rateLimitPerMinute: limit });
      });
    },
  );
}
