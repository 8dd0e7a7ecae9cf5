import { Type, type Static } from '@sinclair/typebox';
import { nullable } from './common';
import { SERVICE_IDENTIFIERS } from './auth';

/**
 * API keys (issue 22): a group's machines call the portal with `Authorization: Bearer <key>`. A key is
 * created for a group by an administrator or by the group's own admin (the group's `admin`), shown once,
 * stored hashed, listed by its prefix, and revoked at once. docs/api.md tells an integrator how to use one.
 */
export const API_KEY_ROUTES = {
  /** POST creates a key for the group, GET lists the group's keys. */
  groupKeys: '/api/v1.0/group/:id/api-keys',
  /** DELETE revokes the key. */
  key: '/api/v1.0/api-keys/:keyId',
  /** PUT sets the group's limit per key (administrators). */
  groupRateLimit: '/api/v1.0/group/:id/api-rate-limit',
} as const;

/** Every key starts so: a leaked key is recognisable (secret scanners), and a bearer token is told apart from a session's JWT. */
export const API_KEY_PREFIX = 'ppk_';
/** How many leading characters of a key are kept and shown to tell keys apart. */
export const API_KEY_SHOWN_LENGTH = 12;
/** The shape of a key: the prefix and 43 characters of base64url (32 random bytes). */
export const API_KEY_PATTERN = /^ppk_[A-Za-z0-9_-]{43}$/;

/** read: GET-like calls only (look-ups, reading requests and reports); write: also create and change. */
export const API_KEY_SCOPES = ['read', 'write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** The staff roles an administrator may give a key (the operations team's own automation). */
export const API_KEY_STAFF_ROLES = ['admin', 'saviOperator', 'saviQC'] as const;

/** The portal's limit of calls per minute per key when the group sets none. */
export const DEFAULT_API_RATE_LIMIT_PER_MINUTE = 600;

export const ApiKeyService = Type.Union(SERVICE_IDENTIFIERS.map((id) => Type.Literal(id)));

export const CreateApiKeyBody = Type.Object({
  name: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'What the key is for (shown in the list).',
  }),
  services: Type.Array(ApiKeyService, {
    minItems: 1,
    uniqueItems: true,
    description: "The services the key may use: a subset of the group's (avs, iris, savi, spatialkey).",
  }),
  scope: Type.Union(
    API_KEY_SCOPES.map((scope) => Type.Literal(scope)),
    { description: 'read: look-ups and reads only; write: also create and change.' },
  ),
  /** ISO date-time; omitted or null: the key does not expire. */
  expiresAt: Type.Optional(nullable(Type.String({ format: 'date-time' }))),
  /** Staff roles the key acts with (administrators only). */
  roles: Type.Optional(
    Type.Array(Type.Union(API_KEY_STAFF_ROLES.map((role) => Type.Literal(role))), { uniqueItems: true }),
  ),
});
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

export const ApiKey = Type.Object({
  _id: Type.String(),
  groupId: Type.String(),
  name: Type.String(),
  /** The key's first characters (`ppk_Ab3dE9xZ`), to tell it apart. */
  prefix: Type.String(),
  services: Type.Array(Type.String()),
  scope: Type.String(),
  roles: Type.Array(Type.String()),
  createdBy: nullable(Type.String()),
  createdByName: nullable(Type.String()),
  createdAt: Type.String(),
  expiresAt: nullable(Type.String()),
  revokedAt: nullable(Type.String()),
  lastUsedAt: nullable(Type.String()),
  useCount: Type.Integer(),
  /** active, expired or revoked, as of the answer. */
  state: Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('revoked')]),
});
export type ApiKey = Static<typeof ApiKey>;

/** The answer to creating a key: the key itself, shown this once. */
export const CreatedApiKey = Type.Composite([ApiKey, Type.Object({ key: Type.String() })]);
export type CreatedApiKey = Static<typeof CreatedApiKey>;

export const ApiKeyList = Type.Object({
  /** The group, and the services a new key may choose from (the group's). */
  group: Type.Object({
    _id: Type.String(),
    name: Type.String(),
    code: Type.String(),
    services: Type.Array(Type.String()),
  }),
  keys: Type.Array(ApiKey),
  /** The group's limit per key per minute, and whether it is the portal's default. */
  rateLimitPerMinute: Type.Integer(),
  rateLimitIsDefault: Type.Boolean(),
});
export type ApiKeyList = Static<typeof ApiKeyList>;

export const ApiKeyParams = Type.Object({ keyId: Type.String({ format: 'uuid' }) });
export type ApiKeyParams = Static<typeof ApiKeyParams>;

export const GroupRateLimitBody = Type.Object({
  /** Calls per minute per key; null returns the group to the portal's default. */
  rateLimitPerMinute: nullable(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
});
export type GroupRateLimitBody = Static<typeof GroupRateLimitBody>;

/** The texts of the key routes' refusals. */
export const API_KEY_TEXTS = {
  notForKeys: 'API keys may not call this route.',
  wrongService: (service: string) => `This API key may not use the ${service} service.`,
  readOnly: 'This API key is read-only.',
  invalid: 'The API key is not valid (unknown, revoked or expired).',
  rateLimited: (seconds: number) => `Too many calls with this API key: try again in ${seconds} s.`,
} as const;
