import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import {
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  API_KEY_SHOWN_LENGTH,
  API_KEY_TEXTS,
  DEFAULT_API_RATE_LIMIT_PER_MINUTE,
  type ApiKeyScope,
  type ServiceIdentifier,
} from '@portal/contracts';
import { HttpError } from './errors';

/**
 * API keys (issue 22) on the server's side: making one, recognising one on a call, and its limit per
 * minute. The admin routes that create, list and revoke keys are services-admin's; every service accepts
 * keys through the session plugin (auth.ts), and the route gate (route-access.ts) says what a key may call.
 */

/** What a call made with a valid key carries (request.apiKey). */
export interface ApiKeyAuth {
  id: string;
  /** The key's first characters, as lists show them. */
  prefix: string;
  name: string;
  groupId: string;
  /** The key's own account row (identity.users, kind 'apiKey'): the calls are its. */
  userId: string;
  email: string;
  services: ServiceIdentifier[];
  scope: ApiKeyScope;
  /** Staff roles an administrator gave the key. */
  roles: string[];
  rateLimitPerMinute: number;
}

/** A new key and what is stored of it. */
export function newApiKey(): { key: string; prefix: string; secretHash: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, API_KEY_SHOWN_LENGTH), secretHash: hashApiKey(key) };
}

/** SHA-256: keys are 256 random bits, so there is nothing to guess a slow hash would protect. */
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** The bearer token of a call when it has the shape of a portal key (a session JWT never has). */
export function bearerApiKey(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  const token = match?.[1];
  return token?.startsWith(API_KEY_PREFIX) ? token : undefined;
}

/** True when the token is shaped like a key at all (a truncated or padded one is refused before any look-up). */
export const isApiKeyShaped = (token: string) => API_KEY_PATTERN.test(token);

const cacheKey = (redisPrefix: string, secretHash: string) => `${redisPrefix}:apikey:${secretHash}`;

/** How long a key's record is kept in Redis between look-ups: revoking deletes it at once (forgetApiKey). */
export const API_KEY_CACHE_SECONDS = 60;

/** Drops a key's cached record: a revoked key is refused on its very next call, on every instance. */
export async function forgetApiKey(redis: Redis, redisPrefix: string, secretHash: string): Promise<void> {
  await redis.del(cacheKey(redisPrefix, secretHash));
}

interface KeyRecord extends ApiKeyAuth {
  expiresAt: string | null;
}

interface KeyRow {
  id: string;
  prefix: string;
  name: string;
  group_id: string;
  user_id: string;
  email: string;
  services: ServiceIdentifier[];
  scope: ApiKeyScope;
  roles: string[];
  expires_at: Date | null;
  rate_limit: number | null;
}

/** Reads keys from PostgreSQL: any object with node-postgres' or TypeORM's `query(sql, params)`. */
export interface ApiKeyReader {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * The key a token names, when it is valid now: known, not revoked, not expired, its account and group
 * active. Null otherwise (the gate answers 401). Valid keys' records are cached in Redis for a minute;
 * a revoked key's is deleted when it is revoked, and expiry is checked on every call.
 */
export async function lookupApiKey(
  token: string,
  deps: { redis: Redis; reader: ApiKeyReader; redisPrefix: string },
): Promise<ApiKeyAuth | null> {
  if (!isApiKeyShaped(token)) return null;
  const secretHash = hashApiKey(token);
  const cached = await deps.redis.get(cacheKey(deps.redisPrefix, secretHash));
  let record: KeyRecord | null = cached ? (JSON.parse(cached) as KeyRecord) : null;
  if (!record) {
    const [row] = (await deps.reader.query(
      `SELECT k.id, k.prefix, k.name, k.group_id, k.user_id, u.email, k.services, k.scope, k.roles, k.expires_at,
              g.api_rate_limit_per_minute AS rate_limit
       FROM identity.api_keys k
       JOIN identity.users u ON u.id = k.user_id AND u.active
       JOIN identity.groups g ON g.id = k.group_id AND g.active
       WHERE k.secret_hash = $1 AND k.revoked_at IS NULL`,
      [secretHash],
    )) as KeyRow[];
    if (!row) return null;
    record = {
      id: row.id,
      prefix: row.prefix,
      name: row.name,
      groupId: row.group_id,
      userId: row.user_id,
      email: row.email,
      services: row.services,
      scope: row.scope,
      roles: row.roles,
      rateLimitPerMinute: row.rate_limit ?? DEFAULT_API_RATE_LIMIT_PER_MINUTE,
      expiresAt: row.expires_at ? row.expires_at.toISOString() : null,
    };
    await deps.redis.set(
      cacheKey(deps.redisPrefix, secretHash),
      JSON.stringify(record),
      'EX',
      API_KEY_CACHE_SECONDS,
    );
  }
  if (record.expiresAt && Date.parse(record.expiresAt) <= Date.now()) return null;
  const { expiresAt: _expiresAt, ...auth } = record;
  void _expiresAt;
  return auth;
}

/** The window of the per-key limit. */
export const API_RATE_WINDOW_SECONDS = 60;
const POLICY = 'per-key';

/**
 * Counts a key's call in its current minute (a fixed window in Redis, shared by every instance of every
 * service) and writes the IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy`
 * the quota and window, `RateLimit` what remains and when the window resets). Past the limit: a 429 with
 * `Retry-After`.
 */
export async function countKeyCall(
  redis: Redis,
  redisPrefix: string,
  key: Pick<ApiKeyAuth, 'id' | 'rateLimitPerMinute'>,
  reply: FastifyReply,
  now = Date.now(),
): Promise<void> {
  const window = Math.floor(now / 1000 / API_RATE_WINDOW_SECONDS);
  const resetIn = Math.max(1, (window + 1) * API_RATE_WINDOW_SECONDS - Math.floor(now / 1000));
  const name = `${redisPrefix}:ratelimit:key:${key.id}:${window}`;
  const [[, used]] = (await redis
    .multi()
    .incr(name)
    .expire(name, API_RATE_WINDOW_SECONDS * 2)
    .exec()) as [[null, number], [null, number]];
  const limit = key.rateLimitPerMinute;
  reply.header('ratelimit-policy', `"${POLICY}";q=${limit};w=${API_RATE_WINDOW_SECONDS}`);
  reply.header('ratelimit', `"${POLICY}";r=${Math.max(0, limit - used)};t=${resetIn}`);
  if (used > limit)
    throw new HttpError(429, API_KEY_TEXTS.rateLimited(resetIn), undefined, {
      'retry-after': String(resetIn),
    });
}
