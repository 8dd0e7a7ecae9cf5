import { join, isAbsolute } from 'node:path';
import { findWorkspaceRoot } from './workspace';
import { DEFAULT_METERING, type MeteringSettings } from './metering';

/** Settings every service shares; each service extends it with its own. */
export interface BaseConfig {
  serviceName: string;
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  logLevel: string;
  databaseUrl: string;
  redisUrl: string;
  /**
   * What the portal's Redis keys, queues and channels start with (`PORTAL_REDIS_PREFIX`, default 'portal'):
   * two portals sharing one Redis never hear each other's events or take each other's jobs.
   */
  redisPrefix: string;
  /** The portal's public URL (links in mails, CORS-free same-origin deployment). */
  publicUrl: string;
  /** Folder for runtime files (keys, mail drops, storage) — `var/` in the workspace by default. */
  varDir: string;
  jwtPublicKeyFile: string;
  jwtPrivateKeyFile: string;
  /** Cookie `Secure` flag; on by default in production. */
  cookieSecure: boolean;
  /** Lifetime of a session token. */
  sessionTtlSeconds: number;
  /**
   * A port of its own for /metrics (`METRICS_PORT`); unset, /metrics is answered on `port`, which is
   * internal for a service behind the gateway (the gateway routes no /metrics).
   */
  metricsPort?: number;
  /** Usage metering (metering.ts): USAGE_METERING (on/off), USAGE_FLUSH_MS, USAGE_HEARTBEAT_SECONDS. */
  metering?: MeteringSettings;
}

type Env = Record<string, string | undefined>;

const bool = (v: string | undefined, fallback: boolean) =>
  v === undefined || v === '' ? fallback : ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());

/** Reads an integer setting, failing loudly on a malformed one rather than starting half-configured. */
export function intFromEnv(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`Setting ${name} must be a non-negative integer, got '${raw}'`);
  return n;
}

/** PORTAL_REDIS_PREFIX: letters, digits, '-', '_' and '.' (it becomes part of every Redis key). */
export function redisPrefixFromEnv(env: Env): string {
  const raw = env.PORTAL_REDIS_PREFIX?.trim();
  if (!raw) return 'portal';
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(raw))
    throw new Error(
      `Setting PORTAL_REDIS_PREFIX may hold letters, digits, '.', '_' and '-' only, got '${raw}'`,
    );
  return raw;
}

/** Typed base configuration from the environment, with local defaults that work on a developer machine. */
export function loadBaseConfig(serviceName: string, defaultPort: number, env: Env = process.env): BaseConfig {
  const root = findWorkspaceRoot();
  const varDir = env.VAR_DIR
    ? isAbsolute(env.VAR_DIR)
      ? env.VAR_DIR
      : join(root, env.VAR_DIR)
    : join(root, 'var');
  const nodeEnv = env.NODE_ENV === 'production' || env.NODE_ENV === 'test' ? env.NODE_ENV : 'development';
  return {
    serviceName,
    env: nodeEnv,
    host: env.HOST ?? '127.0.0.1',
    port: intFromEnv(env, 'PORT', defaultPort),
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'warn' : 'info'),
    databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal',
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    redisPrefix: redisPrefixFromEnv(env),
    publicUrl: (env.PUBLIC_URL ?? 'http://localhost:8080').replace(/\/$/, ''),
    varDir,
    jwtPublicKeyFile: env.JWT_PUBLIC_KEY_FILE ?? join(varDir, 'keys', 'jwt-public.pem'),
    jwtPrivateKeyFile: env.JWT_PRIVATE_KEY_FILE ?? join(varDir, 'keys', 'jwt-private.pem'),
    cookieSecure: bool(env.COOKIE_SECURE, nodeEnv === 'production'),
    sessionTtlSeconds: intFromEnv(env, 'SESSION_TTL_SECONDS', 8 * 3600),
    ...(env.METRICS_PORT ? { metricsPort: intFromEnv(env, 'METRICS_PORT', 0) } : {}),
    metering: {
      enabled: bool(env.USAGE_METERING, DEFAULT_METERING.enabled),
      flushMs: intFromEnv(env, 'USAGE_FLUSH_MS', DEFAULT_METERING.flushMs),
      heartbeatSeconds: intFromEnv(env, 'USAGE_HEARTBEAT_SECONDS', DEFAULT_METERING.heartbeatSeconds),
      journalTimeoutMs: intFromEnv(env, 'USAGE_JOURNAL_TIMEOUT_MS', DEFAULT_METERING.journalTimeoutMs),
    },
  };
}
