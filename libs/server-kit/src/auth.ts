import fp from 'fastify-plugin';
import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import { SESSION_COOKIE, type SessionClaims } from '@portal/contracts';
import { forbidden, unauthorized, unavailableStore } from './errors';

/** Claims as signed: SessionClaims plus the issue time in ms, so revocation is exact within a second. */
export interface SignedClaims extends SessionClaims {
  ims: number;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: SignedClaims;
    user: SignedClaims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: 401 unless the request carries a valid, unrevoked session. */
    authenticate: preHandlerAsyncHookHandler;
    /** preHandler: 401 without a session, 403 unless the user holds one of `roles`. */
    requireRoles: (...roles: string[]) => preHandlerAsyncHookHandler;
    /**
     * The session's claims, or null when there is none; throws only when Redis (the revocation times)
     * is unavailable, which the error handler answers 503.
     */
    sessionOf: (request: FastifyRequest) => Promise<SignedClaims | null>;
    /**
     * The claims of a session token found outside a request (a websocket handshake's cookie), checked as
     * sessionOf checks them (signature, expiry, revocation); null when not valid.
     */
    verifySessionToken: (token: string) => Promise<SignedClaims | null>;
    /** Signs a session token into the cookie (identity only: needs the private key). */
    issueSession: (reply: FastifyReply, claims: SessionClaims) => Promise<string>;
    clearSession: (reply: FastifyReply) => void;
  }
}

export interface AuthOptions {
  publicKey: string;
  /** Present in identity only. */
  privateKey?: string;
  redis: Redis;
  cookieSecure: boolean;
  sessionTtlSeconds: number;
}

const revokedKey = (userId: string) => `session:revoked-before:${userId}`;

/** Revokes every session of a user issued before `at` (logout, password change, deactivation). */
export async function revokeSessionsBefore(
  redis: Redis,
  userId: string,
  at: Date,
  ttlSeconds: number,
): Promise<void> {
  // Kept as long as a token can live; after that no older token can still be valid anyway.
  await redis.set(revokedKey(userId), String(at.getTime()), 'EX', ttlSeconds);
}

/**
 * Verifies the RS256 session cookie with the public key (algorithm allow-list, expiry) and checks the
 * per-user revocation time in Redis. If Redis is unreachable the token is refused: better a re-login than
 * accepting a session that may have been revoked.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, opts: AuthOptions) => {
    await app.register(fastifyJwt, {
      secret: opts.privateKey
        ? { private: opts.privateKey, public: opts.publicKey }
        : { public: opts.publicKey },
      sign: { algorithm: 'RS256', expiresIn: opts.sessionTtlSeconds },
      verify: { algorithms: ['RS256'] },
      cookie: { cookieName: SESSION_COOKIE, signed: false },
      trusted: async (_request, decoded) => {
        const revokedBefore = await opts.redis.get(revokedKey(String(decoded.sub)));
        return !revokedBefore || Number(decoded.ims ?? 0) >= Number(revokedBefore);
      },
    });

    const sessionOf = async (request: FastifyRequest): Promise<SignedClaims | null> => {
      if (!request.cookies?.[SESSION_COOKIE] && !request.headers.authorization) return null;
      try {
        return await request.jwtVerify<SignedClaims>();
      } catch (err) {
        // Redis down: the revocation time cannot be read. A 503 (try again), not a 401 that would sign
        // the user out of the portal.
        if (unavailableStore(err)) throw err;
        return null;
      }
    };

    const verifySessionToken = async (token: string): Promise<SignedClaims | null> => {
      try {
        const claims = app.jwt.verify<SignedClaims>(token);
        const revokedBefore = await opts.redis.get(revokedKey(String(claims.sub)));
        return !revokedBefore || Number(claims.ims ?? 0) >= Number(revokedBefore) ? claims : null;
      } catch {
        return null;
      }
    };

    const authenticate: preHandlerAsyncHookHandler = async (request) => {
      const claims = await sessionOf(request);
      if (!claims) throw unauthorized();
      request.user = claims;
    };

    app.decorate('sessionOf', sessionOf);
    app.decorate('verifySessionToken', verifySessionToken);
    app.decorate('authenticate', authenticate);
    app.decorate('requireRoles', (...roles: string[]): preHandlerAsyncHookHandler => {
      return async function requireRoles(this: FastifyInstance, request, reply) {
        await authenticate.call(this, request, reply);
        if (!roles.some((role) => request.user.roles.includes(role))) throw forbidden();
      };
    });
    app.decorate('issueSession', async (reply: FastifyReply, claims: SessionClaims) => {
      if (!opts.privateKey) throw new Error('This service cannot issue sessions: no private key configured');
      const token = await reply.jwtSign({ ...claims, ims: Date.now() });
      reply.setCookie(SESSION_COOKIE, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: opts.cookieSecure,
        maxAge: opts.sessionTtlSeconds,
      });
      return token;
    });
    app.decorate('clearSession', (reply: FastifyReply) => {
      reply.clearCookie(SESSION_COOKIE, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: opts.cookieSecure,
      });
    });
  },
  { name: 'portal-auth' },
);
