import type { DataSource } from 'typeorm';
import type { Redis } from 'ioredis';
import type { AttemptLimiter } from '@portal/server-kit';
import type { IdentityConfig } from './config';
import type { Mailer } from './mailer';

/** What the identity routes need, built once in app.ts. */
export interface IdentityContext {
  config: IdentityConfig;
  ds: DataSource;
  redis: Redis;
  mailer: Mailer;
  /** Login and reset attempts per e-mail address. */
  emailAttempts: AttemptLimiter;
}
