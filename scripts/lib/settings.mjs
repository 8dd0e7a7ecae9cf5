// The shared settings as the services read them (libs/server-kit/src/config.ts), so the scripts prepare
// exactly what the services will use. Each can be overridden with the same environment variable.
import { isAbsolute, join } from 'node:path';
import { ROOT } from './system.mjs';

const fromRoot = (path) => (isAbsolute(path) ? path : join(ROOT, path));

export const databaseUrl = () => process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/portal';

export const redisUrl = () => process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** Runtime files: keys, mail drop, storage. */
export const varDir = () => fromRoot(process.env.VAR_DIR || 'var');

/** The session-token key pair: identity signs with the private key, every service verifies with the public one. */
export function jwtKeyFiles() {
  return {
    privateKeyFile: fromRoot(process.env.JWT_PRIVATE_KEY_FILE || join(varDir(), 'keys', 'jwt-private.pem')),
    publicKeyFile: fromRoot(process.env.JWT_PUBLIC_KEY_FILE || join(varDir(), 'keys', 'jwt-public.pem')),
  };
}
