import { Type, type Static } from '@sinclair/typebox';

/** Role names as they appear in `roles` arrays and in JWT claims. */
export const ROLE = {
  anonymous: 'anonymous',
  authenticated: 'authenticated',
  admin: 'admin',
  ratesEditor: 'ratesEditor',
  saviOperator: 'saviOperator',
  saviQC: 'saviQC',
  /** The admin of their own group (the group's `admin`): its API keys, webhooks and usage (issue 22). */
  groupAdmin: 'groupAdmin',
} as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];

/** Identifiers of the portal's services (spec 03 §3 Service). */
export const SERVICE_IDENTIFIERS = ['avs', 'iris', 'savi', 'spatialkey'] as const;
export type ServiceIdentifier = (typeof SERVICE_IDENTIFIERS)[number];

export const SessionGroup = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  code: Type.String(),
  doubleVolumePercent: Type.Number(),
  professionalFeePercentage: Type.Number(),
  includeVAT: Type.Boolean(),
  includeProfessionalFee: Type.Boolean(),
});
export type SessionGroup = Static<typeof SessionGroup>;

/**
 * The user as the shell and every remote see it (spec 01 §3 User, spec 03 §3 User), including the
 * session-level group values.
 */
export const SessionUser = Type.Object(
  {
    _id: Type.String(),
    name: Type.String(),
    email: Type.String(),
    authenticated: Type.Boolean(),
    isAdmin: Type.Boolean(),
    group: Type.Union([SessionGroup, Type.Null()]),
    groupID: Type.Union([Type.String(), Type.Null()]),
    groupName: Type.String(),
    active: Type.Boolean(),
    avsServiceUrl: Type.String(),
    includeIds: Type.Boolean(),
    includeAll: Type.Boolean(),
    ratesEditor: Type.Boolean(),
    saviOperator: Type.Boolean(),
    saviQC: Type.Boolean(),
    claimsUser: Type.Boolean(),
    roles: Type.Array(Type.String()),
    services: Type.Array(Type.String()),
    groupDoubleVolumePercent: Type.Number(),
    groupIncludeProfessionalFee: Type.Boolean(),
    groupProfessionalFeePercentage: Type.Number(),
    groupIncludeVAT: Type.Boolean(),
  },
  { $id: 'SessionUser' },
);
export type SessionUser = Static<typeof SessionUser>;

/** Claims carried in the session JWT (signed by identity, verified by every service). */
export interface SessionClaims {
  sub: string;
  email: string;
  name: string;
  roles: string[];
  groupId: string | null;
  claimsUser: boolean;
  iat?: number;
  exp?: number;
}

export const LoginBody = Type.Object({
  email: Type.String({ maxLength: 254 }),
  password: Type.String({ maxLength: 200 }),
});
export type LoginBody = Static<typeof LoginBody>;

export const RegisterBody = Type.Object({
  name: Type.String({ maxLength: 200 }),
  email: Type.String({ maxLength: 254 }),
  password: Type.String({ maxLength: 200 }),
  confirmPassword: Type.String({ maxLength: 200 }),
});
export type RegisterBody = Static<typeof RegisterBody>;

/** The spec gives the payload of forgot-password only as "text": accept the e-mail as `email` or `text`. */
export const ForgotPasswordBody = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 254 })),
  text: Type.Optional(Type.String({ maxLength: 254 })),
});
export type ForgotPasswordBody = Static<typeof ForgotPasswordBody>;

export const PasswordResetRequestBody = Type.Object({ email: Type.String({ maxLength: 254 }) });
export type PasswordResetRequestBody = Static<typeof PasswordResetRequestBody>;

export const ResetByTokenParams = Type.Object({ tokenId: Type.String({ minLength: 1, maxLength: 200 }) });
export type ResetByTokenParams = Static<typeof ResetByTokenParams>;

export const NewPasswordBody = Type.Object({
  password: Type.String({ maxLength: 200 }),
  confirmPassword: Type.String({ maxLength: 200 }),
});
export type NewPasswordBody = Static<typeof NewPasswordBody>;

export const PasswordResetCallbackBody = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 200 }),
  password: Type.String({ maxLength: 200 }),
  confirmPassword: Type.String({ maxLength: 200 }),
});
export type PasswordResetCallbackBody = Static<typeof PasswordResetCallbackBody>;

export const MenuItem = Type.Object({
  label: Type.String(),
  path: Type.String(),
  /** Who sees the entry: 'anonymous' (everyone), 'authenticated', or any of the listed roles. */
  roles: Type.Array(Type.String()),
});
export type MenuItem = Static<typeof MenuItem>;

export const MenuAnswer = Type.Object({ name: Type.String(), defaultMenu: Type.Array(MenuItem) });
export type MenuAnswer = Static<typeof MenuAnswer>;

export const MenuParams = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
});
export type MenuParams = Static<typeof MenuParams>;

export const AuditBody = Type.Object({
  message: Type.String({ minLength: 1, maxLength: 500 }),
  details: Type.Optional(Type.Unknown()),
  user_name: Type.Optional(Type.String({ maxLength: 200 })),
  user_email: Type.Optional(Type.String({ maxLength: 254 })),
  user_id: Type.Optional(Type.String({ maxLength: 64 })),
});
export type AuditBody = Static<typeof AuditBody>;
