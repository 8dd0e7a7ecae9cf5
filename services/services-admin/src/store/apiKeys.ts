import type { EntityManager } from 'typeorm';
import { DEFAULT_API_RATE_LIMIT_PER_MINUTE, type ApiKey, type ApiKeyScope } from '@portal/contracts';
import { insertApiKeyRows } from '@portal/db';
import { notFound } from '@portal/server-kit';
import { isUuid, NOT_FOUND_TEXT } from './lookups';

/**
 * A group's API keys (issue 22; identity.api_keys, migration ApiKeys): written here with the key's own
 * account row (libs/db's insertApiKeyRows, in the route's transaction), listed, revoked; and the group's
 * limit per key. Neither a key nor its hash ever leaves this module in an answer.
 */

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A key as the contract's ApiKey: its state as of now (the database's clock, which set the dates). */
const API_KEY_COLUMNS = `
  k.id AS "_id", k.group_id AS "groupId", k.name, k.prefix, k.services, k.scope, k.roles,
  k.created_by AS "createdBy", c.name AS "createdByName", ${iso('k.created_at')} AS "createdAt",
  ${iso('k.expires_at')} AS "expiresAt", ${iso('k.revoked_at')} AS "revokedAt",
  ${iso('k.last_used_at')} AS "lastUsedAt", k.use_count::float8 AS "useCount",
  CASE WHEN k.revoked_at IS NOT NULL THEN 'revoked'
       WHEN k.expires_at <= now() THEN 'expired'
       ELSE 'active' END AS state`;
const API_KEY_FROM = `identity.api_keys k LEFT JOIN identity.users c ON c.id = k.created_by`;

/** What a key's routes need of its group: whether it exists, its code, services and limit. */
export interface KeyGroup {
  id: string;
  name: string;
  code: string;
  /** The services linked to the group (identifiers): a key may use some of these only. */
  services: string[];
  rateLimitPerMinute: number | null;
}

/** The group of a path id, locked against a concurrent change of its services when `lock`; 404 when unknown. */
export async function keyGroupOr404(
  manager: EntityManager,
  groupId: string,
  lock = false,
): Promise<KeyGroup> {
  const [group]: KeyGroup[] = isUuid(groupId)
    ? await manager.query(
        `SELECT g.id, g.name, g.code, g.api_rate_limit_per_minute AS "rateLimitPerMinute",
                ARRAY(SELECT s.identifier FROM identity.group_services gs
                      JOIN identity.services s ON s.id = gs.service_id
                      WHERE gs.group_id = g.id ORDER BY s.identifier) AS services
         FROM identity.groups g WHERE g.id = $1 ${lock ? 'FOR SHARE' : ''}`,
        [groupId],
      )
    : [];
  if (!group) throw notFound(NOT_FOUND_TEXT.noGroup);
  return group;
}

export interface NewApiKey {
  groupId: string;
  name: string;
  prefix: string;
  secretHash: string;
  services: string[];
  scope: ApiKeyScope;
  roles: string[];
  expiresAt: Date | null;
  createdBy: string;
}

/** Inserts the key and its account row (kind 'apiKey', inactive never, no usable password); answers the key. */
export async function insertApiKey(manager: EntityManager, key: NewApiKey): Promise<ApiKey> {
  const { id } = await insertApiKeyRows(manager, key);
  return (await apiKeyById(manager, id))!;
}

export async function apiKeyById(manager: EntityManager, keyId: string): Promise<ApiKey | undefined> {
  if (!isUuid(keyId)) return undefined;
  const [key]: ApiKey[] = await manager.query(
    `SELECT ${API_KEY_COLUMNS} FROM ${API_KEY_FROM} WHERE k.id = $1`,
    [keyId],
  );
  return key;
}

/** The group's keys, newest first (revoked and expired ones too: the list is their history). */
export const groupApiKeys = (manager: EntityManager, groupId: string): Promise<ApiKey[]> =>
  manager.query(
    `SELECT ${API_KEY_COLUMNS} FROM ${API_KEY_FROM} WHERE k.group_id = $1 ORDER BY k.created_at DESC, k.id DESC`,
    [groupId],
  );

/** What revoking a key needs: its group (who may), its hash (the cache entry to drop), its account row. */
export interface KeyToRevoke {
  id: string;
  groupId: string;
  groupCode: string;
  prefix: string;
  name: string;
  userId: string;
  secretHash: string;
  revoked: boolean;
}

/** The key of a path id, locked for the revocation's transaction; 404 when unknown. */
export async function keyToRevokeOr404(manager: EntityManager, keyId: string): Promise<KeyToRevoke> {
  const [key]: KeyToRevoke[] = isUuid(keyId)
    ? await manager.query(
        `SELECT k.id, k.group_id AS "groupId", g.code AS "groupCode", k.prefix, k.name, k.user_id AS "userId",
                k.secret_hash AS "secretHash", k.revoked_at IS NOT NULL AS revoked
         FROM identity.api_keys k JOIN identity.groups g ON g.id = k.group_id
         WHERE k.id = $1 FOR UPDATE OF k`,
        [keyId],
      )
    : [];
  if (!key) throw notFound(API_KEY_STORE_TEXT.noKey);
  return key;
}

/**
 * Revokes the key now and deactivates its account row, so that no check — the key's own, or a caller hook
 * reading the account — lets it in again.
 */
export async function revokeApiKey(manager: EntityManager, key: KeyToRevoke, by: string): Promise<void> {
  await manager.query(
    `UPDATE identity.api_keys SET revoked_at = now(), revoked_by = $2 WHERE id = $1 AND revoked_at IS NULL`,
    [key.id, by],
  );
  await manager.query(`UPDATE identity.users SET active = false WHERE id = $1 AND kind = 'apiKey'`, [
    key.userId,
  ]);
}

/** The group's limit per key per minute, and whether it is the portal's default. */
export const rateLimitOf = (group: Pick<KeyGroup, 'rateLimitPerMinute'>) => ({
  rateLimitPerMinute: group.rateLimitPerMinute ?? DEFAULT_API_RATE_LIMIT_PER_MINUTE,
  rateLimitIsDefault: group.rateLimitPerMinute === null,
});

export async function setGroupRateLimit(
  manager: EntityManager,
  groupId: string,
  limit: number | null,
): Promise<void> {
  await manager.query(`UPDATE identity.groups SET api_rate_limit_per_minute = $2 WHERE id = $1`, [
    groupId,
    limit,
  ]);
}

/** Deletes the account rows of the group's keys, and so the keys (a group being deleted). */
export async function deleteGroupKeyAccounts(manager: EntityManager, groupId: string): Promise<void> {
  await manager.query(`DELETE FROM identity.users WHERE group_id = $1 AND kind = 'apiKey'`, [groupId]);
}

export const API_KEY_STORE_TEXT = {
  noKey: 'There is no API key with that id.',
} as const;
