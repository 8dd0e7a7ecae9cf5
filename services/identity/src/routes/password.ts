import {
  IDENTITY_ROUTES,
  ErrorAnswer,
  ForgotPasswordBody,
  MessageAnswer,
  NewPasswordBody,
  PasswordResetCallbackBody,
  PasswordResetRequestBody,
  ResetByTokenParams,
} from '@portal/contracts';
import {
  ACCOUNT_TEXT,
  TEXT,
  emailOnlySchema,
  newPasswordSchema,
  normaliseEmail,
  validationMessages,
} from '@portal/domain';
import { hashPassword } from '@portal/db';
import { badRequest, revokeSessionsBefore } from '@portal/server-kit';
import type { TypedFastify } from '@portal/server-kit';
import type { FastifyBaseLogger } from 'fastify';
import { resetMail } from '../mailer';
import { createResetToken, setPassword, spendResetToken, userByEmail, type ResetPurpose } from '../store';
import type { IdentityContext } from '../context';

export async function passwordRoutes(app: TypedFastify, ctx: IdentityContext) {
  const { ds, redis, config, mailer, emailAttempts } = ctx;
  const perIpLimit = {
    rateLimit: { max: config.attemptsPerIp, timeWindow: config.attemptWindowSeconds * 1000 },
  };
  const errors = { 400: ErrorAnswer, 429: ErrorAnswer };

  const linkFor = (purpose: ResetPurpose, token: string) =>
    purpose === 'reset-link'
      ? `${config.publicUrl}/reset/${token}`
      : `${config.publicUrl}/password-reset?key=${token}`;

  /** Mails a reset link when the address belongs to an active user. Runs after the answer is sent. */
  async function mailResetLink(emailInput: string, purpose: ResetPurpose, log: FastifyBaseLogger) {
    const user = await userByEmail(ds, normaliseEmail(emailInput));
    if (!user || !user.active) {
      log.info({ purpose }, 'password reset asked for an unknown or inactive address');
      return;
    }
    const token = await createResetToken(ds, user.id, purpose, config.resetTokenTtlMinutes);
    await mailer.send(resetMail(user.email, user.name, linkFor(purpose, token), config.resetTokenTtlMinutes));
  }

  /**
   * The answer is the same, and is sent before any lookup, whether or not the address has an account,
   * so neither the text nor the timing tells who is registered (OWASP ASVS 2.5.x / 3.x enumeration).
   */
  async function requestReset(email: string, purpose: ResetPurpose, log: FastifyBaseLogger) {
    const messages = validationMessages(emailOnlySchema, { email });
    if (messages.length) throw badRequest(messages[0], messages);
    await emailAttempts.hit(`reset:${normaliseEmail(email)}`);
    setImmediate(() =>
      mailResetLink(email, purpose, log).catch((err) => log.error({ err }, 'could not send the reset mail')),
    );
    return { message: ACCOUNT_TEXT.resetMailSent };
  }

  async function setNewPassword(
    token: string,
    purpose: ResetPurpose,
    body: { password: string; confirmPassword: string },
  ) {
    const messages = validationMessages(newPasswordSchema, body);
    if (messages.length) throw badRequest(messages[0], messages);
    const passwordHash = await hashPassword(body.password);
    const changedAt = new Date();
    const user = await ds.transaction(async (manager) => {
      const owner = await spendResetToken(manager, token, purpose);
      if (owner) await setPassword(manager, owner.id, passwordHash, changedAt);
      return owner;
    });
    if (!user) throw badRequest(TEXT.tokenInvalidOrExpired);
    // A new password ends every open session (someone else may have had the old one).
    await revokeSessionsBefore(redis, user.id, changedAt, config.sessionTtlSeconds);
    return { message: ACCOUNT_TEXT.passwordUpdated };
  }

  app.post(
    IDENTITY_ROUTES.forgotPassword,
    {
      config: perIpLimit,
      schema: {
        summary: 'Ask for a password reset link',
        description:
          'Mails a reset link (to /reset/{token}) when the address belongs to an active account. The answer is the same whether or not it does, so it tells no one who is registered.',
        tags: ['Account'],
        body: ForgotPasswordBody,
        response: { 200: MessageAnswer, ...errors },
      },
    },
    async (request) => requestReset(request.body.email ?? request.body.text ?? '', 'reset-link', request.log),
  );

  app.post(
    IDENTITY_ROUTES.passwordReset,
    {
      config: perIpLimit,
      schema: {
        summary: 'Ask for a password reset key',
        description:
          "Mails a link carrying a reset key (the spec's callback flow, /password-reset?key=…) when the address belongs to an active account; the answer never says whether it does.",
        tags: ['Account'],
        body: PasswordResetRequestBody,
        response: { 200: MessageAnswer, ...errors },
      },
    },
    async (request) => requestReset(request.body.email, 'callback', request.log),
  );

  app.post(
    IDENTITY_ROUTES.resetByToken,
    {
      config: perIpLimit,
      schema: {
        summary: 'Set a new password with a reset link',
        description:
          "Sets the account's new password with the token of a reset link, spending the token; every open session of the account ends.",
        tags: ['Account'],
        params: ResetByTokenParams,
        body: NewPasswordBody,
        response: { 200: MessageAnswer, ...errors },
      },
    },
    async (request) => setNewPassword(request.params.tokenId, 'reset-link', request.body),
  );

  app.post(
    IDENTITY_ROUTES.passwordResetCallback,
    {
      config: perIpLimit,
      schema: {
        summary: 'Set a new password with a reset key',
        description:
          "Sets the account's new password with the key of the callback flow, spending it; every open session of the account ends.",
        tags: ['Account'],
        body: PasswordResetCallbackBody,
        response: { 200: MessageAnswer, ...errors },
      },
    },
    async (request) => setNewPassword(request.body.key, 'callback', request.body),
  );
}
