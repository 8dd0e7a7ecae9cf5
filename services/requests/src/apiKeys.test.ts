import type { InjectOptions } from 'fastify';
import { API_KEY_TEXTS, REQUEST_API } from '@portal/contracts';
import { insertApiKeyRows } from '@portal/db';
import { forgetApiKey, hashApiKey, newApiKey } from '@portal/server-kit';
import { env, redis, useRequestsApp } from './testing/harness';
import { idFrom, rveForm } from './testing/requestForms';

/**
 * API keys through a real service (issue 22): the key's account logs requests, the route table's `key`
 * decides what a key may call (service, scope), a revoked or expired key is a 401 on its next call, and the
 * per-key limit answers the IETF RateLimit headers and a 429 with Retry-After.
 */
useRequestsApp();

const groupId = async (code: string) =>
  (await env.db.dataSource.query('SELECT id FROM identity.groups WHERE code = $1', [code]))[0].id as string;

async function makeKey(
  options: {
    code?: string;
    services?: string[];
    scope?: 'read' | 'write';
    roles?: string[];
    expiresAt?: Date | null;
  } = {},
) {
  const made = newApiKey();
  const { id, userId } = await insertApiKeyRows(env.db.dataSource, {
    groupId: await groupId(options.code ?? 'KMI'),
    name: 'policy system',
    prefix: made.prefix,
    secretHash: made.secretHash,
    services: options.services ?? ['savi', 'avs', 'iris', 'spatialkey'],
    scope: options.scope ?? 'write',
    roles: options.roles ?? [],
    expiresAt: options.expiresAt ?? null,
  });
  return { ...made, id, userId };
}

const withKey = (key: string, method: InjectOptions['method'], url: string, payload?: object) =>
  env.app.inject({ method, url, payload, headers: { authorization: `Bearer ${key}` } });

it('logs a request as the key’s own account, in the key’s group, and reads it back', async () => {
  const key = await makeKey();
  const created = await withKey(key.key, 'PUT', REQUEST_API.create, rveForm());
  expect(created.statusCode).toBe(201);
  const id = idFrom(created.headers.location);
  const [row] = await env.db.dataSource.query(
    'SELECT user_id, group_id FROM requests.requests WHERE id = $1',
    [id],
  );
  expect(row.user_id).toBe(key.userId);
  expect(row.group_id).toBe(await groupId('KMI'));
  const read = await withKey(key.key, 'GET', `/api/v1.0/request/${id}/any`);
  expect(read.statusCode).toBe(200);
  expect(read.headers['ratelimit-policy']).toBe('"per-key";q=600;w=60');
  expect(read.headers.ratelimit).toMatch(/^"per-key";r=\d+;t=\d+$/);
});

it('refuses what the key’s scope, services or the route table do not allow', async () => {
  const readOnly = await makeKey({ scope: 'read' });
  const refused = await withKey(readOnly.key, 'PUT', REQUEST_API.create, rveForm());
  expect(refused.statusCode).toBe(403);
  expect(refused.json().message).toBe(API_KEY_TEXTS.readOnly);

  // A key without savi: the request type's service is checked against the key's services.
  const avsOnly = await makeKey({ services: ['avs'] });
  expect((await withKey(avsOnly.key, 'PUT', REQUEST_API.create, rveForm())).statusCode).toBe(403);

  // A staff route needs the key's own staff role and the savi service.
  const plain = await makeKey();
  const submit = await withKey(plain.key, 'POST', '/api/v1.0/request/submit', { _id: 'x' });
  expect(submit.statusCode).toBe(403);

  // The user's own saved views are a screen's, not a machine's.
  const views = await withKey(plain.key, 'GET', '/api/v1.0/request/views');
  expect(views.statusCode).toBe(403);
  expect(views.json().message).toBe(API_KEY_TEXTS.notForKeys);
});

it('a key with staff roles acts as staff', async () => {
  const staff = await makeKey({ code: 'OPS', roles: ['saviOperator'] });
  const console = await withKey(staff.key, 'GET', '/api/v1.0/requests?page=1&pageSize=5');
  expect(console.statusCode).toBe(200);
  const plain = await makeKey({ code: 'OPS' });
  expect((await withKey(plain.key, 'GET', '/api/v1.0/requests?page=1&pageSize=5')).statusCode).toBe(403);
});

it('a forged, truncated, revoked or expired key is a 401 naming the key', async () => {
  const key = await makeKey();
  expect((await withKey(key.key, 'GET', '/api/v1.0/request/status_counts')).statusCode).toBe(200);
  const forged = `ppk_${'A'.repeat(43)}`;
  for (const token of [forged, key.key.slice(0, -1), `${key.key}x`]) {
    const answer = await withKey(token, 'GET', '/api/v1.0/request/status_counts');
    expect(answer.statusCode).toBe(401);
    expect(answer.json().message).toBe(API_KEY_TEXTS.invalid);
  }
  // Revoked: what services-admin's revoke does (the row, then the cached record).
  await env.db.dataSource.query('UPDATE identity.api_keys SET revoked_at = now() WHERE id = $1', [key.id]);
  await forgetApiKey(redis, 'portal', hashApiKey(key.key));
  expect((await withKey(key.key, 'GET', '/api/v1.0/request/status_counts')).statusCode).toBe(401);

  const expired = await makeKey({ expiresAt: new Date(Date.now() + 1500) });
  expect((await withKey(expired.key, 'GET', '/api/v1.0/request/status_counts')).statusCode).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 1600));
  expect((await withKey(expired.key, 'GET', '/api/v1.0/request/status_counts')).statusCode).toBe(401);
});

it('past the group’s limit per minute a key gets 429 with Retry-After, other keys do not', async () => {
  await env.db.dataSource.query(
    "UPDATE identity.groups SET api_rate_limit_per_minute = 3 WHERE code = 'HVV'",
  );
  const limited = await makeKey({ code: 'HVV', services: ['savi', 'iris'] });
  const other = await makeKey({ code: 'KMI' });
  const answers = [];
  for (let i = 0; i < 4; i++)
    answers.push(await withKey(limited.key, 'GET', '/api/v1.0/request/status_counts'));
  // The fixed window may turn over between calls; then one more call shows the limit.
  const last = answers.at(-1)!;
  if (last.statusCode !== 429) {
    for (let i = 0; i < 3; i++) await withKey(limited.key, 'GET', '/api/v1.0/request/status_counts');
  }
  const over = await withKey(limited.key, 'GET', '/api/v1.0/request/status_counts');
  expect(over.statusCode).toBe(429);
  expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  expect(over.headers['ratelimit-policy']).toBe('"per-key";q=3;w=60');
  expect(over.headers.ratelimit).toMatch(/^"per-key";r=0;t=\d+$/);
  expect((await withKey(other.key, 'GET', '/api/v1.0/request/status_counts')).statusCode).toBe(200);
});
