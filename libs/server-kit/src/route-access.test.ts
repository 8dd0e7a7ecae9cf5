import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { SESSION_COOKIE } from '@portal/contracts';
import { ROUTE_REFUSALS } from '@portal/domain';
import { createServiceApp } from './app';
import { authPlugin } from './auth';
import { loadBaseConfig } from './config';
import { createRedis } from './redis';

const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'server-kit-route-access-test');

afterAll(async () => {
  await redis.quit();
});

const configOf = (name: string) => ({ ...loadBaseConfig(name, 0), logLevel: 'silent' });

/** A services-admin app on the table's gate, with a route whose own hook and handler count their calls. */
async function servicesAdmin() {
  const app = createServiceApp(configOf('services-admin'), {}, { routeAccess: 'services-admin' });
  await app.register(authPlugin, {
    publicKey,
    privateKey,
    redis,
    cookieSecure: false,
    sessionTtlSeconds: 60,
  });
  const seen = { hook: 0, handler: 0 };
  app.put(
    '/api/v1.0/groups',
    {
      onRequest: async () => {
        seen.hook++;
      },
      schema: { body: Type.Object({ name: Type.String() }) },
    },
    async () => {
      seen.handler++;
      return { ok: true };
    },
  );
  // The app's own GET /metrics is an anonymous route of the table.
  await app.ready();
  const cookie = (roles: string[]) =>
    `${SESSION_COOKIE}=${app.jwt.sign({
      sub: randomUUID(),
      email: 'a@b.co.za',
      name: 'A',
      roles,
      groupId: null,
      claimsUser: false,
      ims: Date.now(),
    })}`;
  return { app, seen, cookie };
}

describe('the route table gate', () => {
  it('refuses before any hook of the route or the body parser: 401 without a session, 403 without the role', async () => {
    const { app, seen, cookie } = await servicesAdmin();
    try {
      const put = (headers: Record<string, string>, payload?: string) =>
        app.inject({
          method: 'PUT',
          url: '/api/v1.0/groups',
          headers: { 'content-type': 'application/json', ...headers },
          payload,
        });
      const anonymous = await put({}, '{not json');
      expect(anonymous.statusCode).toBe(401);
      const plain = await put({ cookie: cookie(['authenticated']) }, '{not json');
      expect(plain.statusCode).toBe(403);
      expect(seen).toEqual({ hook: 0, handler: 0 });
      const admin = await put({ cookie: cookie(['authenticated', 'admin']) }, JSON.stringify({ name: 'x' }));
      expect(admin.statusCode).toBe(200);
      expect(seen).toEqual({ hook: 1, handler: 1 });
      expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("answers a refused role in the entry's own words", async () => {
    const app = createServiceApp(configOf('requests'), {}, { routeAccess: 'requests' });
    await app.register(authPlugin, {
      publicKey,
      privateKey,
      redis,
      cookieSecure: false,
      sessionTtlSeconds: 60,
    });
    app.get('/api/v1.0/requests', async () => []);
    await app.ready();
    try {
      const token = app.jwt.sign({
        sub: randomUUID(),
        email: 'a@b.co.za',
        name: 'A',
        roles: ['authenticated', 'saviQC'],
        groupId: null,
        claimsUser: false,
        ims: Date.now(),
      });
      const answer = await app.inject({
        method: 'GET',
        url: '/api/v1.0/requests',
        cookies: { [SESSION_COOKIE]: token },
      });
      expect(answer.statusCode).toBe(403);
      expect(answer.json().message).toBe(ROUTE_REFUSALS.requestConsole);
    } finally {
      await app.close();
    }
  });

  it('does not start with a route the table does not know, naming it', async () => {
    const app = createServiceApp(configOf('identity'), {}, { routeAccess: 'identity' });
    // On the root the registration itself throws; in a plugin (as the services register them), the start.
    expect(() => app.get('/api/v1.0/also-not-in-the-table', async () => ({ ok: true }))).toThrow(
      /GET \/api\/v1\.0\/also-not-in-the-table is not in the route table/,
    );
    app.register(async (scope) => {
      scope.get('/api/v1.0/not-in-the-table/:id', async () => ({ ok: true }));
    });
    await expect(app.ready()).rejects.toThrow(
      /identity: GET \/api\/v1\.0\/not-in-the-table\/:id is not in the route table/,
    );
    await app.close().catch(() => undefined);
  });

  it('does not start when guarded routes have no session plugin', async () => {
    const app = createServiceApp(configOf('identity'), {}, { routeAccess: 'identity' });
    app.get('/api/v1.0/services', async () => []);
    await expect(app.ready()).rejects.toThrow(/no session plugin/);
    await app.close().catch(() => undefined);
  });

  it('knows only the services of the table', () => {
    expect(() => createServiceApp(configOf('gateway'), {}, { routeAccess: 'gateway' })).toThrow(
      /'gateway' has no routes in the route table/,
    );
  });
});
