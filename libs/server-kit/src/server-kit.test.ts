import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Type } from '@sinclair/typebox';
import { SESSION_COOKIE } from '@portal/contracts';
import { createServiceApp } from './app';
import { authPlugin, revokeSessionsBefore } from './auth';
import { loadBaseConfig } from './config';
import { AttemptLimiter, rateLimitPlugin } from './rate-limit';
import { registerHealth } from './health';
import { createRedis } from './redis';
import { UNAVAILABLE_RETRY_AFTER_SECONDS, UNAVAILABLE_TEXT } from './errors';
import { trailingSlashProblems } from './testing';

const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'server-kit-test');
const config = { ...loadBaseConfig('test-service', 0), logLevel: 'silent' };
const claims = (roles: string[]) => ({
  sub: randomUUID(),
  email: 'a@b.co.za',
  name: 'A',
  roles,
  groupId: null,
  claimsUser: false,
});

async function build(withPrivateKey = true) {
  const app = createServiceApp(config);
  await app.register(authPlugin, {
    publicKey,
    privateKey: withPrivateKey ? privateKey : undefined,
    redis,
    cookieSecure: false,
    sessionTtlSeconds: 60,
  });
  await app.register(rateLimitPlugin, { redis });
  app.post('/login', async (request, reply) => {
    await app.issueSession(reply, (request.body as { claims: ReturnType<typeof claims> }).claims);
    return { ok: true };
  });
  app.get('/me', { preHandler: app.authenticate }, async (request) => ({ sub: request.user.sub }));
  app.get('/admin', { preHandler: app.requireRoles('admin') }, async () => ({ ok: true }));
  app.post(
    '/typed',
    { schema: { body: Type.Object({ n: Type.Integer({ minimum: 1 }), s: Type.String() }) } },
    async () => ({ ok: true }),
  );
  app.get('/boom', async () => {
    throw new Error('secret internals');
  });
  app.get(
    '/limited',
    { config: { rateLimit: { max: 2, timeWindow: 60_000, keyGenerator: () => `t-${randomKey}` } } },
    async () => ({ ok: true }),
  );
  registerHealth(app, 'test-service', {
    redis: () => redis.ping(),
    broken: async () => Promise.reject(new Error('down')),
  });
  await app.ready();
  return app;
}
const randomKey = randomUUID();

afterAll(async () => {
  await redis.quit();
});

describe('session auth', () => {
  it('issues an RS256 HttpOnly cookie that authenticates later requests', async () => {
    const app = await build();
    const c = claims(['authenticated']);
    const login = await app.inject({ method: 'POST', url: '/login', payload: { claims: c } });
    const cookie = login.cookies.find((k) => k.name === SESSION_COOKIE);
    expect(cookie?.httpOnly).toBe(true);
    expect(JSON.parse(Buffer.from(cookie!.value.split('.')[0], 'base64url').toString()).alg).toBe('RS256');
    const me = await app.inject({ url: '/me', cookies: { [SESSION_COOKIE]: cookie!.value } });
    expect(me.json()).toEqual({ sub: c.sub });
    await app.close();
  });

  it('refuses missing, forged and revoked sessions with 401, wrong roles with 403', async () => {
    const app = await build();
    const c = claims(['authenticated']);
    const cookie = (await app.inject({ method: 'POST', url: '/login', payload: { claims: c } })).cookies[0]
      .value;
    expect((await app.inject({ url: '/me' })).statusCode).toBe(401);
    const [h, p] = cookie.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), roles: ['admin'] }),
    ).toString('base64url');
    expect(
      (
        await app.inject({
          url: '/admin',
          cookies: { [SESSION_COOKIE]: `${h}.${forgedPayload}.${cookie.split('.')[2]}` },
        })
      ).statusCode,
    ).toBe(401);
    const forbidden = await app.inject({ url: '/admin', cookies: { [SESSION_COOKIE]: cookie } });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    await revokeSessionsBefore(redis, c.sub, new Date(), 60);
    expect((await app.inject({ url: '/me', cookies: { [SESSION_COOKIE]: cookie } })).statusCode).toBe(401);
    // A session issued after the revocation works again.
    const fresh = (await app.inject({ method: 'POST', url: '/login', payload: { claims: c } })).cookies[0]
      .value;
    expect((await app.inject({ url: '/me', cookies: { [SESSION_COOKIE]: fresh } })).statusCode).toBe(200);
    await app.close();
  });

  it('a verify-only service accepts sessions but cannot issue them', async () => {
    const identity = await build(true);
    const other = await build(false);
    const cookie = (
      await identity.inject({
        method: 'POST',
        url: '/login',
        payload: { claims: claims(['authenticated', 'admin']) },
      })
    ).cookies[0].value;
    expect((await other.inject({ url: '/admin', cookies: { [SESSION_COOKIE]: cookie } })).statusCode).toBe(
      200,
    );
    expect(
      (await other.inject({ method: 'POST', url: '/login', payload: { claims: claims([]) } })).statusCode,
    ).toBe(500);
    await Promise.all([identity.close(), other.close()]);
  });
});

describe('errors and validation', () => {
  it('answers bad input with a 400 naming every problem', async () => {
    const app = await build();
    const res = await app.inject({ method: 'POST', url: '/typed', payload: { n: 0 } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('Bad Request');
    expect(body.messages).toHaveLength(2);
    expect(body.message).toMatch(/must be >= 1/);
    expect(body.requestId).toBe(res.headers['x-request-id']);
    const bad = await app.inject({
      method: 'POST',
      url: '/typed',
      headers: { 'content-type': 'application/json' },
      payload: '{nope',
    });
    expect(bad.statusCode).toBe(400);
    await app.close();
  });

  it('never echoes a 5xx message and gives JSON 404s', async () => {
    const app = await build();
    const res = await app.inject({ url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toMatch(/secret internals/);
    expect((await app.inject({ url: '/nowhere' })).json()).toMatchObject({ statusCode: 404 });
    await app.close();
  });
});

describe('a store that is down', () => {
  const pgError = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

  it('answers 503 naming the database or Redis for their connection failures, 500 for anything else', async () => {
    const app = createServiceApp(config);
    const failures: Record<string, () => unknown> = {
      // pg_terminate_backend, as node-postgres and TypeORM (QueryFailedError with driverError) report it.
      terminated: () => pgError('terminating connection due to administrator command', '57P01'),
      wrapped: () =>
        Object.assign(new Error('terminating connection due to administrator command'), {
          name: 'QueryFailedError',
          driverError: pgError('terminating connection due to administrator command', '57P01'),
        }),
      lost: () => pgError('Connection terminated unexpectedly'),
      // A transaction's next statement after its connection was terminated (TypeORM released it).
      released: () =>
        Object.assign(new Error('Database connection provided by a query runner was already released'), {
          name: 'QueryRunnerProviderAlreadyReleasedError',
        }),
      releasedRunner: () =>
        Object.assign(new Error('Query runner already released. Cannot run queries anymore.'), {
          name: 'QueryRunnerAlreadyReleasedError',
        }),
      refused: () => pgError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      redis: () =>
        Object.assign(new Error('Reached the max retries per request limit (which is 2).'), {
          name: 'MaxRetriesPerRequestError',
        }),
      // Another service that could not be reached is not a store of this one: a plain 500.
      fetch: () => new TypeError('fetch failed', { cause: pgError('refused', 'ECONNREFUSED') }),
      sql: () => pgError('syntax error at or near "x"', '42601'),
    };
    for (const [name, error] of Object.entries(failures))
      app.get(`/${name}`, async () => {
        throw error();
      });
    const answers: Record<string, [number, string]> = {};
    for (const name of Object.keys(failures)) {
      const res = await app.inject({ url: `/${name}` });
      answers[name] = [res.statusCode, res.json().message];
      if (res.statusCode === 503)
        expect(res.headers['retry-after']).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    }
    expect(answers).toEqual({
      terminated: [503, UNAVAILABLE_TEXT.database],
      wrapped: [503, UNAVAILABLE_TEXT.database],
      lost: [503, UNAVAILABLE_TEXT.database],
      released: [503, UNAVAILABLE_TEXT.database],
      releasedRunner: [503, UNAVAILABLE_TEXT.database],
      refused: [503, UNAVAILABLE_TEXT.database],
      redis: [503, UNAVAILABLE_TEXT.redis],
      fetch: [500, 'Internal Server Error'],
      sql: [500, 'Internal Server Error'],
    });
    await app.close();
  });

  it('answers a session check 503 within seconds, not 401, while Redis is down', async () => {
    // Nothing listens on port 1: ioredis gives the command up after its retries.
    const down = createRedis('redis://127.0.0.1:1', 'server-kit-test-down');
    down.on('error', () => undefined);
    const app = createServiceApp(config);
    await app.register(authPlugin, {
      publicKey,
      privateKey,
      redis: down,
      cookieSecure: false,
      sessionTtlSeconds: 60,
    });
    app.get('/me', { preHandler: app.authenticate }, async (request) => ({ sub: request.user.sub }));
    await app.ready();
    const token = app.jwt.sign({ ...claims(['authenticated']), ims: Date.now() });
    const started = Date.now();
    const res = await app.inject({ url: '/me', cookies: { [SESSION_COOKIE]: token } });
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toBe(UNAVAILABLE_TEXT.redis);
    expect(Date.now() - started).toBeLessThan(5_000);
    // Without a cookie it is still a plain 401: nothing had to be read.
    expect((await app.inject({ url: '/me' })).statusCode).toBe(401);
    await app.close();
    down.disconnect();
  });
});

describe('rate limits and readiness', () => {
  it('limits per IP through Redis with a clear 429', async () => {
    const app = await build();
    expect((await app.inject({ url: '/limited' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/limited' })).statusCode).toBe(200);
    const third = await app.inject({ url: '/limited' });
    expect(third.statusCode).toBe(429);
    expect(third.json().message).toMatch(/Too many attempts/);
    await app.close();
  });

  it('limits attempts per subject', async () => {
    const limiter = new AttemptLimiter(redis, `test-${randomUUID()}`, 2, 60);
    await limiter.hit('x@y.co.za');
    await limiter.hit('x@y.co.za');
    await expect(limiter.hit('x@y.co.za')).rejects.toMatchObject({ statusCode: 429 });
    await limiter.hit('other@y.co.za');
    await limiter.reset('x@y.co.za');
    await limiter.hit('x@y.co.za');
  });

  it('reports readiness per dependency', async () => {
    const app = await build();
    const res = await app.inject({ url: '/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json().checks).toEqual({ redis: 'ok', broken: 'failed: down' });
    expect((await app.inject({ url: '/health' })).json().status).toBe('ok');
    await app.close();
  });
});

describe('paths with and without their trailing slash', () => {
  it('answers a route registered either way in both forms, and lists every route', async () => {
    const app = createServiceApp(config);
    app.get('/plain', async () => ({ route: 'plain' }));
    app.post('/slashed/', async () => ({ route: 'slashed' }));
    await app.register(
      async (scope) => {
        scope.get('/:id', async () => ({ route: 'in a plugin' }));
      },
      { prefix: '/things' },
    );
    await app.ready();
    for (const [method, url, route] of [
      ['GET', '/plain', 'plain'],
      ['GET', '/plain/', 'plain'],
      ['POST', '/slashed', 'slashed'],
      ['POST', '/slashed/', 'slashed'],
      ['GET', '/things/7/', 'in a plugin'],
    ] as const) {
      expect([method, url, (await app.inject({ method, url })).json()]).toEqual([method, url, { route }]);
    }
    expect(app.registeredRoutes.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'GET /metrics',
      'HEAD /metrics',
      'GET /plain',
      'HEAD /plain',
      'POST /slashed/',
      'GET /things/:id',
      'HEAD /things/:id',
    ]);
    expect(await trailingSlashProblems(app)).toEqual([]);
    await app.close();
  });

  it('refuses to start with a route registered in both spellings, naming it', async () => {
    const app = createServiceApp(config);
    // In a plugin, as the services register their routes: the app does not get ready.
    app.register(async (scope) => {
      for (const url of ['/twice', '/twice/']) scope.put(url, async () => ({ url }));
    });
    await expect(app.ready()).rejects.toMatchObject({
      code: 'FST_ERR_DUPLICATED_ROUTE',
      message: expect.stringMatching(/'PUT'.*'\/twice\/'/),
    });
    await app.close();
  });

  it("names a form the gateway's table sends elsewhere", async () => {
    const app = createServiceApp(config);
    app.get('/api/v1.0/users/me', async () => ({}));
    app.get('/api/v1.0/avs-elsewhere', async () => ({}));
    await app.ready();
    expect(await trailingSlashProblems(app, { service: 'identity' })).toEqual([
      'GET /api/v1.0/avs-elsewhere: the gateway sends it to nobody, not identity',
      'GET /api/v1.0/avs-elsewhere/: the gateway sends it to nobody, not identity',
    ]);
    await app.close();
  });
});

describe('request ids and metrics', () => {
  it("takes the gateway's x-request-id as the request's id, and makes one for anything else", async () => {
    const lines: { reqId?: string; msg?: string }[] = [];
    const app = createServiceApp(config, {
      logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
    });
    app.get('/id', async (request) => ({ id: request.id }));
    await app.ready();
    const given = await app.inject({ url: '/id', headers: { 'x-request-id': 'gw-0b5c1f5e.7' } });
    expect([given.json().id, given.headers['x-request-id']]).toEqual(['gw-0b5c1f5e.7', 'gw-0b5c1f5e.7']);
    expect(lines.filter((line) => line.reqId === 'gw-0b5c1f5e.7').map((line) => line.msg)).toEqual([
      'incoming request',
      'request completed',
    ]);
    for (const odd of ['x'.repeat(200), 'two words', 'a"b', 'line\u2028break']) {
      const answer = await app.inject({ url: '/id', headers: { 'x-request-id': odd } });
      expect(answer.json().id).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect((await app.inject({ url: '/id' })).json().id).toMatch(/^[0-9a-f-]{36}$/);
    await app.close();
  });

  it('answers Prometheus metrics: request durations by route pattern and status, and the process', async () => {
    const app = createServiceApp(config);
    app.get('/things/:id', async () => ({ ok: true }));
    app.post('/things', { schema: { body: Type.Object({ n: Type.Integer() }) } }, async () => ({ ok: true }));
    await app.ready();
    await app.inject({ url: '/things/1' });
    await app.inject({ url: '/things/2/' });
    await app.inject({ method: 'POST', url: '/things', payload: { n: 'x' } });
    await app.inject({ url: '/nowhere/7' });
    const answer = await app.inject({ url: '/metrics' });
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const count = (labels: string) =>
      Number(
        new RegExp(
          `^http_request_duration_seconds_count\\{service="test-service",${labels}\\} (\\d+)$`,
          'm',
        ).exec(answer.body)?.[1],
      );
    expect(count('method="GET",route="/things/:id",status_code="200"')).toBe(2);
    expect(count('method="POST",route="/things",status_code="400"')).toBe(1);
    expect(count('method="GET",route="no route",status_code="404"')).toBe(1);
    expect(answer.body).toMatch(/^process_resident_memory_bytes\{service="test-service"\} \d+/m);
    expect(answer.body).toMatch(/^nodejs_eventloop_lag_p99_seconds\{service="test-service"\}/m);
    await app.close();
  });

  it('answers them on a port of their own when METRICS_PORT says so, and not on the app', async () => {
    const metricsPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const app = createServiceApp({
      ...loadBaseConfig('edge', 0, { METRICS_PORT: String(metricsPort) }),
      logLevel: 'silent',
    });
    app.get('/page', async () => ({ ok: true }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    await fetch(`${base}/page`);
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toContain(
      'http_request_duration_seconds_count{service="edge",method="GET",route="/page",status_code="200"} 1',
    );
    await app.close();
    await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
  });
});
