import { intFromEnv, loadBaseConfig, type BaseConfig } from '@portal/server-kit';

export interface IdentityConfig extends BaseConfig {
  /** smtp(s)://user:pass@host:port — when unset, mails are written to `${varDir}/mail/` instead. */
  smtpUrl: string | undefined;
  mailFrom: string;
  resetTokenTtlMinutes: number;
  /** Login and reset attempts allowed per IP and per e-mail address within `attemptWindowSeconds`. */
  attemptsPerIp: number;
  attemptsPerEmail: number;
  attemptWindowSeconds: number;
}

export function loadIdentityConfig(env: Record<string, string | undefined> = process.env): IdentityConfig {
  return {
    ...loadBaseConfig('identity', 3001, env),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Property Portal <no-reply@portal.local>',
    resetTokenTtlMinutes: intFromEnv(env, 'RESET_TOKEN_TTL_MINUTES', 60),
    attemptsPerIp: intFromEnv(env, 'AUTH_ATTEMPTS_PER_IP', 50),
    attemptsPerEmail: intFromEnv(env, 'AUTH_ATTEMPTS_PER_EMAIL', 10),
    attemptWindowSeconds: intFromEnv(env, 'AUTH_ATTEMPT_WINDOW_SECONDS', 15 * 60),
  };
}
