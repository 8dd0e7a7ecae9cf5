import type { AttemptLimiter, ServiceDeps } from '@portal/server-kit';
import type { IdentityConfig } from './config';
import type { Mailer } from './mailer';

/** What the identity routes need, built once in app.ts. */
export interface IdentityContext extends ServiceDeps {
  config: IdentityConfig;
  mailer: Mailer;
  /** Login and reset attempts per e-mail address. */
  emailAttempts: AttemptLimiter;
}
