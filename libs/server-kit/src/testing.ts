import { rolesOf } from '@portal/domain';
import { createSign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SESSION_COOKIE, type SessionClaims } from '@portal/contracts';
import type { SignedClaims } from './auth';

/**
 * Sessions for tests and benchmarks of the services that verify them (@portal/server-kit/testing): a JWT
 * signed with a throwaway private key (ensureKeyPair), holding the claims identity would put in it, so the
 * service under test runs its real authPlugin. Not for production code: only identity signs sessions.
 */

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A signed session token (RS256) with the given claims; valid for `ttlSeconds` (default an hour). */
export function signTestSession(
  privateKeyFile: string,
  claims: Pick<SessionClaims, 'sub' | 'email'> & Partial<SessionClaims>,
  ttlSeconds = 3600,
): string {
  const now = Math.floor(Date.now() / 1000);
  const full: SignedClaims = {
    name: 'Test User',
    roles: ['authenticated'],
    groupId: null,
    claimsUser: false,
    iat: now,
    exp: now + ttlSeconds,
    ims: Date.now(),
    ...claims,
  };
  const unsigned = `${base64url({ alg: 'RS256', typ: 'JWT' })}.${base64url(full)}`;
  const signature = createSign('RSA-SHA256').update(unsigned).sign(readFileSync(privateKeyFile));
  return `${unsigned}.${signature.toString('base64url')}`;
}

/** A user as the tests read it (libs/db's UserEntity): what identity puts in the session's claims. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  isAdmin: boolean;
  ratesEditor: boolean;
  saviOperator: boolean;
  saviQC: boolean;
  groupId: string | null;
  claimsUser: boolean;
}

/** The session token identity would sign for `user` (its roles from its flags), for tests. */
export const signTestSessionFor = (privateKeyFile: string, user: SessionUser, ttlSeconds?: number) =>
  signTestSession(
    privateKeyFile,
    {
      sub: user.id,
      email: user.email,
      name: user.name,
      roles: rolesOf(user),
      groupId: user.groupId,
      claimsUser: user.claimsUser,
    },
    ttlSeconds,
  );

/** The Cookie header carrying a session token. */
export const sessionCookieHeader = (token: string) => `${SESSION_COOKIE}=${token}`;
