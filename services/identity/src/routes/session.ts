import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import {
  IDENTITY_ROUTES,
  ErrorAnswer,
  errorAnswers,
  LoginBody,
  MessageAnswer,
  RegisterBody,
  SessionUser,
  type SessionClaims,
} from '@portal/contracts';
import {
  ACCOUNT_TEXT,
  loginSchema,
  normaliseEmail,
  registerSchema,
  validationMessages,
} from '@portal/domain';
import { hashPassword, verifyPassword, type UserEntity } from '@portal/db';
import { HttpError, badRequest, revokeSessionsBefore, unauthorized } from '@portal/server-kit';
import type { TypedFastify } from '@portal/server-kit';
import {
  claimsOf,
  emailTaken,
  insertUser,
  recordLogin,
  revokeTokensBefore,
  sessionUserFor,
  userByEmail,
} from '../store';
import type { IdentityContext } from '../context';

/** A hash to verify against when the e-mail is unknown, so both cases take the same time. */
let decoyHash: Promise<string> | undefined;

export async function sessionRoutes(app: TypedFastify, ctx: IdentityContext) {
  const { ds, redis, config, emailAttempts } = ctx;
  const perIpLimit = {
    rateLimit: { max: config.attemptsPerIp, timeWindow: config.attemptWindowSeconds * 1000 },
  };
  const errors = errorAnswers(400, 401, 403, 409, 429);

  /**
   * The services' route gate reads the roles the session carries (libs/domain routeAccess.ts), while
   * users/me answers the user as the database has them now: when an administrator has changed the user's
   * roles, group or name since the session was signed, the session is signed again with what holds now, so
   * the menus the shell shows from this answer and the services' gates agree from this call on.
   */
  const renewIfChanged = async (
    reply: FastifyReply,
    claims: SessionClaims,
    user: Parameters<typeof claimsOf>[0],
  ) => {
    const now = claimsOf(user);
    const same =
      now.name === claims.name &&
      now.email === claims.email &&
      now.groupId === claims.groupId &&
      now.claimsUser === claims.claimsUser &&
      [...now.roles].sort().join() === [...claims.roles].sort().join();
    if (!same) await app.issueSession(reply, now);
  };

  app.get(
    IDENTITY_ROUTES.me,
    {
      schema: {
        summary: 'Read the signed-in user',
        description:
          'The signed-in account as it is now (roles, group, services and group settings); 401 without a valid session.',
        tags: ['Account'],
        response: { 200: SessionUser, 401: ErrorAnswer },
      },
    },
    async (request, reply) => {
      const claims = await app.sessionOf(request);
      const current = claims && (await sessionUserFor(ds, claims));
      if (!current) throw unauthorized();
      await renewIfChanged(reply, claims, current.user);
      return current.answer;
    },
  );

  // Spec 01 §7: the user, or the string '0' when not logged in (sent as the JSON string "0").
  // Fastify would send a bare string as text (which JSON clients read as the number 0), so it is encoded here.
  app.get(
    IDENTITY_ROUTES.loggedIn,
    {
      schema: {
        summary: 'Ask whether a session is open',
        description: "The signed-in account, or the string '0' without a valid session (the spec's answer).",
        tags: ['Account'],
        response: { 200: Type.Union([SessionUser, Type.Literal('0')]) },
      },
    },
    async (request, reply) => {
      const claims = await app.sessionOf(request);
      const current = claims && (await sessionUserFor(ds, claims));
      if (current) {
        await renewIfChanged(reply, claims, current.user);
        return current.answer;
      }
      return reply
        .type('application/json; charset=utf-8')
        .serializer((v: unknown) => JSON.stringify(v))
        .send('0');
    },
  );

  app.post(
    IDENTITY_ROUTES.login,
    {
      config: perIpLimit,
      schema: {
        summary: 'Log in',
        description:
          'Checks the e-mail address and password and sets the session cookie (portal_session); too many attempts per address or client are refused with a 429.',
        tags: ['Account'],
        body: LoginBody,
        response: { 200: SessionUser, ...errors },
      },
    },
    async (request, reply) => {
      const messages = validationMessages(loginSchema, request.body);
      if (messages.length) throw badRequest(messages[0], messages);
      const email = normaliseEmail(request.body.email);
      await emailAttempts.hit(`login:${email}`);
      const user = await userByEmail(ds, email);
      decoyHash ??= hashPassword('decoy-password-for-timing');
      const passwordOk = await verifyPassword(user?.passwordHash ?? (await decoyHash), request.body.password);
      if (!user || !passwordOk) throw new HttpError(401, ACCOUNT_TEXT.loginFailed);
      if (!user.active) throw new HttpError(403, ACCOUNT_TEXT.accountInactive);
      await emailAttempts.reset(`login:${email}`);
      await recordLogin(ds, user.id);
      const token = await app.issueSession(reply, claimsOf(user));
      const current = await sessionUserFor(ds, app.jwt.decode(token) as { sub: string; ims: number });
      if (!current) throw unauthorized();
      request.log.info({ userId: user.id }, 'logged in');
      return current.answer;
    },
  );

  app.post(
    IDENTITY_ROUTES.register,
    {
      config: perIpLimit,
      schema: {
        summary: 'Register an account',
        description:
          'Creates an account for the name, e-mail address and password and signs it in (the session cookie); 409 when the address has an account already.',
        tags: ['Account'],
        body: RegisterBody,
        response: { 201: MessageAnswer, ...errors, 409: ErrorAnswer },
      },
    },
    async (request, reply) => {
      const messages = validationMessages(registerSchema, request.body);
      if (messages.length)
        throw badRequest(
          messages.length === 1 ? messages[0] : 'Please correct the highlighted fields.',
          messages,
        );
      const email = normaliseEmail(request.body.email);
      if (await emailTaken(ds, email))
        throw new HttpError(409, ACCOUNT_TEXT.emailTaken, [ACCOUNT_TEXT.emailTaken]);
      const passwordHash = await hashPassword(request.body.password);
      let user: UserEntity;
      try {
        user = await insertUser(ds, { name: request.body.name.trim(), email, passwordHash });
      } catch (err) {
        // Two registrations racing for one address: the unique index decides, the loser gets the same answer.
        if ((err as { code?: string }).code === '23505')
          throw new HttpError(409, ACCOUNT_TEXT.emailTaken, [ACCOUNT_TEXT.emailTaken]);
        throw err;
      }
      await app.issueSession(reply, claimsOf(user));
      request.log.info({ userId: user.id }, 'registered');
      return reply.status(201).send({ message: ACCOUNT_TEXT.registered });
    },
  );

  app.get(
    IDENTITY_ROUTES.logout,
    {
      schema: {
        summary: 'Log out',
        description:
          'Ends the session: the cookie is cleared and the token revoked, so a copy of it no longer works either.',
        tags: ['Account'],
        response: { 200: MessageAnswer },
      },
    },
    async (request, reply) => {
      const claims = await app.sessionOf(request);
      if (claims) {
        const now = new Date();
        await revokeTokensBefore(ds, claims.sub, now);
        await revokeSessionsBefore(redis, claims.sub, now, config.sessionTtlSeconds);
        request.log.info({ userId: claims.sub }, 'logged out');
      }
      app.clearSession(reply);
      return { message: ACCOUNT_TEXT.loggedOut };
    },
  );
}
