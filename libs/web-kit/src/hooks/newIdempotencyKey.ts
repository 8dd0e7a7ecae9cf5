/**
 * A fresh Idempotency-Key for one request creation (PUT /api/v1.0/request/ creates once per key, so a
 * retried or double-clicked submit logs one request). A random UUID where the browser offers one (secure
 * contexts); elsewhere (plain http on another host than localhost, old test environments) a key of the
 * same shape from Math.random, which is unique enough for a key that only has to differ per submit.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const hex = (length: number) =>
    Array.from({ length }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[Math.floor(Math.random() * 4)]}${hex(3)}-${hex(12)}`;
}
