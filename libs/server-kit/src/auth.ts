import fp from 'fastify-plugin';
import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import { SESSION_COOKIE, type SessionClaims } from '@portal/contracts';
import { forbidden, unauthorized, unavailableStore } from './errors';
import { bearerApiKey, countKeyCall, lookupApiKey, type ApiKeyAuth, type ApiKeyReader } from './api-keys';

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
  interface FastifyRequest {
    /** The API key the call was made with (issue 22), once sessionOf has read it; null for a session. */
    apiKey: ApiKeyAuth | null;
  }
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
    /**
     * Counts a call made with an API key against its limit per minute (RateLimit headers; a 429 past it).
     * The route gate calls it for every call a key makes.
     */
    limitApiKeyCall: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
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
  /**
   * Where API keys are read (the service's database): with it, `Authorization: Bearer ppk_…` is a session
   * too, of the key's own account; without it a key is never valid here.
   */
  apiKeys?: ApiKeyReader;
  /** The portal's Redis prefix (BaseConfig.redisPrefix): the keys' cache. */
  redisPrefix?: string;
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

    app.decorateRequest('apiKey', null);
    const apiKeyReader = opts.apiKeys;
    /** A call's key, read once however often its session is asked for (the gate, then a handler). */
    const keyLookups = new WeakMap<FastifyRequest, Promise<SignedClaims | null>>();
    const keySessionOf = (request: FastifyRequest, token: string): Promise<SignedClaims | null> => {
      let lookup = keyLookups.get(request);
      if (!lookup) {
        lookup = (async () => {
          if (!apiKeyReader) return null;
          const key = await lookupApiKey(token, {
            redis: opts.redis,
            reader: apiKeyReader,
            redisPrefix: opts.redisPrefix ?? 'portal',
          });
          if (!key) return null;
          request.apiKey = key;
          // The key's calls are logged under it, as a user's are under their session.
          request.log = request.log.child({ apiKey: key.prefix });
          return {
            sub: key.userId,
            email: key.email,
            name: `API key: ${key.name}`,
            roles: ['authenticated', ...key.roles],
            groupId: key.groupId,
            claimsUser: false,
            ims: Date.now(),
          };
        })();
        keyLookups.set(request, lookup);
      }
      return lookup;
    };

    const sessionOf = async (request: FastifyRequest): Promise<SignedClaims | null> => {
      const key = bearerApiKey(request.headers.authorization);
      if (key !== undefined) return keySessionOf(request, key);
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
    app.decorate('limitApiKeyCall', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.apiKey) await countKeyCall(opts.redis, opts.redisPrefix ?? 'portal', request.apiKey, reply);
    });
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
