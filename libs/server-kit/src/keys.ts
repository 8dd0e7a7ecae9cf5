import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Makes the RS256 key pair for session tokens if it is missing. Only the start/test scripts call this:
 * identity holds the private key, every other service reads just the public one.
 */
export function ensureKeyPair(privateKeyFile: string, publicKeyFile: string): { created: boolean } {
  if (existsSync(privateKeyFile) && existsSync(publicKeyFile)) return { created: false };
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  mkdirSync(dirname(privateKeyFile), { recursive: true });
  mkdirSync(dirname(publicKeyFile), { recursive: true });
  writeFileSync(privateKeyFile, privateKey, { mode: 0o600 });
  writeFileSync(publicKeyFile, publicKey);
  return { created: true };
}

export function readKey(file: string, what: string): string {
  if (!existsSync(file)) {
    throw new Error(
      `${what} not found at ${file}. Run 'npm start' (or 'npm run prepare-env') once to create it.`,
    );
  }
  return readFileSync(file, 'utf8');
}
