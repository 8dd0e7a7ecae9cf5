/**
 * Writing an API key (issue 22): the key's own account row (identity.users, kind 'apiKey') and the key's
 * row, in the caller's transaction so neither exists without the other. services-admin's create route
 * calls it; tests of other services create keys with it. Making the key itself (random bytes, hash,
 * prefix) is server-kit's newApiKey: the caller passes what it made.
 */

/** Runs SQL: node-postgres' client, TypeORM's DataSource, EntityManager or QueryRunner. */
export interface ApiKeySqlRunner {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

export interface ApiKeyRowsInput {
  groupId: string;
  name: string;
  prefix: string;
  secretHash: string;
  services: readonly string[];
  scope: 'read' | 'write';
  roles?: readonly string[];
  expiresAt?: Date | null;
  createdBy?: string | null;
}

/** What no password hash can ever match: a key's account never logs in. */
export const API_KEY_ACCOUNT_PASSWORD = '!api-key';

/** The e-mail of a key's account (unique, lower case, a reserved domain that mails nothing). */
export const apiKeyAccountEmail = (prefix: string) => `${prefix.toLowerCase()}@api-keys.invalid`;

/** Inserts the account row and the key row; answers both ids. Run it inside a transaction. */
export async function insertApiKeyRows(
  runner: ApiKeySqlRunner,
  input: ApiKeyRowsInput,
): Promise<{ id: string; userId: string }> {
  const [user] = (await runner.query(
    `INSERT INTO identity.users (name, email, password_hash, kind, group_id, active)
     VALUES ($1, $2, $3, 'apiKey', $4, true) RETURNING id`,
    [`API key: ${input.name}`, apiKeyAccountEmail(input.prefix), API_KEY_ACCOUNT_PASSWORD, input.groupId],
  )) as { id: string }[];
  const [key] = (await runner.query(
    `INSERT INTO identity.api_keys
       (group_id, user_id, name, prefix, secret_hash, services, scope, roles, expires_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
    [
      input.groupId,
      user.id,
      input.name,
      input.prefix,
      input.secretHash,
      [...input.services],
      input.scope,
      [...(input.roles ?? [])],
      input.expiresAt ?? null,
      input.createdBy ?? null,
    ],
  )) as { id: string }[];
  return { id: key.id, userId: user.id };
}
