import { Type } from '@sinclair/typebox';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { createServiceApp, forbidden, loadBaseConfig, unauthorized } from '@portal/server-kit';
import { JSON_MAX_DEPTH, jsonDepth } from '../../libs/server-kit/src/json-body';
import {
  DEEP_JSON,
  HUGE_STRING,
  OVERSIZE_MIB,
  answerProblems,
  arbitraryOf,
  encodeComponent,
  forgedSessionCookies,
  paramValues,
  routeCases,
  send,
  validSamples,
  type InjectCase,
} from './hostile';
import fc from 'fast-check';

/**
 * The generator on a toy service built like the portal's (createServiceApp, TypeBox schemas, a guard in
 * onRequest reading a role from the cookie): valid cases pass the schemas, every hostile kind is there, the
 * guard's 401/403 answer every case, and answerProblems sees what it must (and nothing on a sound app).
 */

jest.setTimeout(60_000);

const config = { ...loadBaseConfig('hostile-toy', 0), logLevel: 'silent' };
const Thing = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 40 }),
  count: Type.Integer({ minimum: 1, maximum: 99 }),
  price: Type.Optional(Type.Number({ minimum: 0 })),
  kind: Type.Union([Type.Literal('house'), Type.Literal('flat')]),
  code: Type.String({ pattern: '^[A-Z]{2}[0-9]{3}$' }),
  when: Type.Optional(Type.String({ format: 'date-time' })),
  tags: Type.Array(Type.String({ maxLength: 10 }), { maxItems: 5 }),
  address: Type.Object({ street: Type.String(), erf: Type.Union([Type.Integer(), Type.Null()]) }),
  extra: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: 20 }), { maxProperties: 4 })),
});
const Page = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  q: Type.Optional(Type.String({ maxLength: 100 })),
});
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

/** The role in the toy's cookie ('role=admin'), null without one. */
const roleOf = (cookie: string | undefined) => /(?:^|;\s*)role=(\w+)/.exec(cookie ?? '')?.[1] ?? null;
const adminOnly: onRequestAsyncHookHandler = async (request) => {
  const role = roleOf(request.headers.cookie);
  if (!role) throw unauthorized();
  if (role !== 'admin') throw forbidden();
};

let app: FastifyInstance;
const written: unknown[] = [];

beforeAll(async () => {
  app = createServiceApp(config);
  app.get('/api/things', { schema: { querystring: Page } }, async (request) => ({
    items: [],
    query: request.query,
  }));
  app.get('/api/things/:id', { schema: { params: IdParams } }, async (request, reply) =>
    reply.status(404).send({
      statusCode: 404,
      error: 'Not Found',
      message: `No thing ${(request.params as { id: string }).id}`,
    }),
  );
  app.post('/api/things', { onRequest: adminOnly, schema: { body: Thing } }, async (request) => {
    written.push(request.body);
    return { ok: true };
  });
  app.put('/api/files/*', { onRequest: adminOnly }, async () => ({ ok: true }));
  // What the generator must catch: a handler that fails on what the database would refuse, and leaks.
  app.post('/api/fragile', { schema: { body: Type.Object({ text: Type.String() }) } }, async (request) => {
    if ((request.body as { text: string }).text.includes('\u0000'))
      throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
    return { ok: true };
  });
  // What PostgreSQL answers a NUL byte in text (a QueryFailedError carries the driver's code).
  app.get('/api/stored', { schema: { querystring: Type.Object({ q: Type.String() }) } }, async (request) => {
    if ((request.query as { q: string }).q.includes('\u0000'))
      throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
        name: 'QueryFailedError',
        driverError: { code: '22021' },
      });
    return { items: [] };
  });
  // A free-form field stored as JSON (as identity's audit details, the request queue's saved views).
  app.post(
    '/api/views',
    { schema: { body: Type.Object({ state: Type.Record(Type.String(), Type.Unknown()) }) } },
    async (request) => ({ stored: JSON.stringify(request.body).length }),
  );
  await app.ready();
});

afterAll(async () => {
  await app?.close();
});

const routeOf = (method: string, url: string) => {
  const route = app.registeredRoutes.find((r) => r.method === method && r.url === url);
  if (!route) throw new Error(`no route ${method} ${url}`);
  return route;
};

describe('valid values from schemas', () => {
  test('respect types, required, enums, formats, ranges and patterns', () => {
    const values = validSamples(Thing, 50, 7, false) as Record<string, unknown>[];
    for (const value of values) {
      expect(typeof value.name).toBe('string');
      expect((value.name as string).length).toBeGreaterThanOrEqual(1);
      expect((value.name as string).length).toBeLessThanOrEqual(40);
      expect(Number.isInteger(value.count)).toBe(true);
      expect(value.count).toBeGreaterThanOrEqual(1);
      expect(value.count).toBeLessThanOrEqual(99);
      expect(['house', 'flat']).toContain(value.kind);
      expect(value.code).toMatch(/^[A-Z]{2}[0-9]{3}$/);
      if (value.when !== undefined) expect(Number.isNaN(Date.parse(value.when as string))).toBe(false);
      expect((value.tags as unknown[]).length).toBeLessThanOrEqual(5);
    }
    // Optional properties come and go; with `full` they are all there.
    expect(values.some((v) => v.price === undefined)).toBe(true);
    const [full] = validSamples(Thing, 1, 7, true) as Record<string, unknown>[];
    expect(Object.keys(full).sort()).toEqual(Object.keys(Thing.properties).sort());
  });

  test('uuid params and the same seed give the same values', () => {
    const a = fc.sample(arbitraryOf(IdParams), { seed: 3, numRuns: 5 });
    expect(fc.sample(arbitraryOf(IdParams), { seed: 3, numRuns: 5 })).toEqual(a);
    for (const { id } of a as { id: string }[])
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  test('lone surrogates are encoded as the invalid UTF-8 a hostile client sends', () => {
    expect(encodeComponent('a\ud800')).toBe('a%ED%A0%80');
    expect(encodeComponent('é/')).toBe('%C3%A9%2F');
  });
});

describe('cases', () => {
  test('are reproducible from the seed, bounded, and hold every hostile kind', () => {
    const route = routeOf('POST', '/api/things');
    const cases = routeCases(route, { seed: 1, oversize: true });
    expect(routeCases(route, { seed: 1, oversize: true })).toEqual(cases);
    expect(routeCases(route, { seed: 2, oversize: true })).not.toEqual(cases);
    expect(cases.length).toBeLessThanOrEqual(26);
    expect(cases.some((c) => c.label === 'headers: hostile values')).toBe(true);
    const labels = cases.map((c) => c.label);
    for (const expected of [
      'valid 1',
      'body: null',
      'body: 10 000 levels deep',
      'body: malformed JSON',
      'body: wrong content type',
      `body: ${OVERSIZE_MIB} MiB, over every body limit`,
    ])
      expect(labels).toContain(expected);
    for (const mutation of [
      'wrong type',
      'null',
      'huge string',
      'unicode',
      'nul',
      'sql',
      'traversal',
      'out of range',
      'deep nesting',
      'prototype key',
    ])
      expect(labels.some((l) => l.endsWith(`: ${mutation}`))).toBe(true);
    const payloads = cases.map((c) => c.payload ?? '');
    expect(payloads.some((p) => p.includes(HUGE_STRING))).toBe(true);
    expect(HUGE_STRING.length).toBeGreaterThanOrEqual(100 * 1024);
    expect(payloads.some((p) => p.includes(DEEP_JSON))).toBe(true);
    expect(payloads.some((p) => p.includes('\\u0000'))).toBe(true);
    expect(payloads.some((p) => p.length > 1024 * 1024)).toBe(true);
  });

  test('query and path are mutated too, keys repeated, params URL-encoded', () => {
    const query = routeCases(routeOf('GET', '/api/things'), { seed: 1 });
    expect(
      query.some((c) => /[?&](page|sort|q)=[^&]*&.*\b\1=/.test(c.url) || c.label.endsWith('repeated')),
    ).toBe(true);
    expect(query.some((c) => c.url.includes(encodeComponent("' OR 1=1 --")))).toBe(true);
    const path = routeCases(routeOf('GET', '/api/things/:id'), { seed: 1 });
    const mutatedPaths = path.filter((c) => c.label.startsWith('path id'));
    expect(mutatedPaths.length).toBeGreaterThanOrEqual(5);
    for (const c of mutatedPaths) expect(c.url.split('?')[0]).toMatch(/^\/api\/things\/[^/?#]+$/);
  });

  test('valid calls take the ids that exist, hostile ones still mutate them', () => {
    const known = { 'things/:id': 'thing-1', ':id': 'other', ':name': 'named' };
    expect(paramValues('/api/things/:id', known)).toEqual({ id: 'thing-1' });
    expect(paramValues('/api/stuff/:id/:name/:free', known)).toEqual({ id: 'other', name: 'named' });
    const cases = routeCases(routeOf('GET', '/api/things/:id'), {
      seed: 1,
      params: paramValues('/api/things/:id', known),
    });
    for (const c of cases.filter((one) => one.kind === 'valid'))
      expect(c.url).toMatch(/^\/api\/things\/thing-1(\?|$)/);
    expect(
      cases.filter((c) => c.label.startsWith('path id') && !c.url.includes('thing-1')).length,
    ).toBeGreaterThan(4);
    // A top-level string property the body's schema names takes the known value.
    const posted = routeCases(routeOf('POST', '/api/things'), {
      seed: 1,
      fields: { name: 'known-name', nope: 'x' },
    });
    const bodies = posted.filter((c) => c.kind === 'valid').map((c) => JSON.parse(String(c.payload)));
    for (const body of bodies) expect(body.name).toBe('known-name');
    for (const body of bodies) expect(body).not.toHaveProperty('nope');
  });

  test('a multipart route gets each file as a valid call, and hostile files', () => {
    const png = { name: 'a.png', type: 'image/png', data: Buffer.from('PNGDATA') };
    const sheet = { name: 'a.xlsx', type: 'application/vnd.ms-excel', data: Buffer.from('XLSXDATA') };
    const cases = routeCases(routeOf('POST', '/api/things'), {
      seed: 1,
      multipart: { fields: { requestID: 'r-1' }, files: [png, sheet] },
    });
    const valid = cases.filter((c) => c.kind === 'valid');
    expect(valid.map((c) => c.label)).toEqual(['valid 1: multipart a.png', 'valid 2: multipart a.xlsx']);
    for (const c of valid) {
      expect(c.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      expect(String(c.payload)).toContain('name="requestID"\r\n\r\nr-1');
    }
    expect(String(valid[0].payload)).toContain('PNGDATA');
    const labels = cases.map((c) => c.label);
    for (const label of ['multipart: wrong type', 'multipart: empty file', 'multipart: no file'])
      expect(labels).toContain(label);
    const over = cases.find((c) => c.label.startsWith('multipart: a '));
    expect(over?.payload?.length).toBeGreaterThan(OVERSIZE_MIB * 1024 * 1024);
    expect(over?.overLimit).toBeUndefined();
  });
});

/** Every case of every route of the toy, as `cookie`: the answers and their problems. */
async function runAll(cookie: string | undefined, routes = app.registeredRoutes) {
  const results: { route: string; one: InjectCase; status: number; problems: string[] }[] = [];
  for (const route of routes) {
    if (route.method === 'HEAD' || !route.url.startsWith('/api')) continue;
    for (const one of routeCases(route, { seed: 11, oversize: true })) {
      const answer = await send(app, one, cookie);
      results.push({
        route: `${route.method} ${route.url}`,
        one,
        status: answer.statusCode,
        problems: answerProblems(answer, one),
      });
    }
  }
  return results;
}

describe('on the toy service', () => {
  const sound = (r: { route: string }) => r.route !== 'POST /api/fragile';

  test('valid cases pass the schemas, hostile ones are refused, nothing breaks', async () => {
    const results = (await runAll('role=admin')).filter(sound);
    const problems = results.flatMap((r) => r.problems.map((p) => `${r.route} ${r.one.label}: ${p}`));
    expect(problems).toEqual([]);
    const valid = results.filter((r) => r.one.kind === 'valid');
    expect(valid.length).toBeGreaterThanOrEqual(7);
    for (const r of valid) expect([200, 404]).toContain(r.status);
    const byLabel = (route: string, label: string) =>
      results.find((r) => r.route === route && r.one.label === label)?.status;
    expect(byLabel('POST /api/things', `body: ${OVERSIZE_MIB} MiB, over every body limit`)).toBe(413);
    expect(byLabel('POST /api/things', 'body: malformed JSON')).toBe(400);
    expect(byLabel('POST /api/things', 'body: wrong content type')).toBe(415);
    expect(byLabel('POST /api/things', 'body: 10 000 levels deep')).toBe(400);
    expect(written.length).toBeGreaterThanOrEqual(3);
  });

  test.each([
    ['anonymous', undefined, 401],
    ['a plain user', 'role=user', 403],
  ])('the guard answers %s before anything is read or written', async (_, cookie, expected) => {
    const before = written.length;
    const results = (await runAll(cookie)).filter(
      (r) => r.route === 'POST /api/things' || r.route === 'PUT /api/files/*',
    );
    const wrong = results.filter((r) => r.status !== expected && !(r.one.early ?? []).includes(r.status));
    expect(wrong.map((r) => `${r.route} ${r.one.label}: ${r.status}`)).toEqual([]);
    expect(results.flatMap((r) => r.problems)).toEqual([]);
    expect(written.length).toBe(before);
  });

  test('a handler failing on a NUL byte is caught', async () => {
    const results = await runAll(undefined, [routeOf('POST', '/api/fragile')]);
    const failing = results.filter((r) => r.problems.includes('status 500'));
    expect(failing.map((r) => r.one.label)).toContain('body.text: nul');
    // The portal's error handler hides the message: only the status shows.
    expect(failing.flatMap((r) => r.problems)).toEqual(failing.map(() => 'status 500'));
  });
});

test('a value the database refuses (SQLSTATE class 22) is a 400, not a 500', async () => {
  const answer = await send(app, {
    label: 'nul',
    kind: 'hostile',
    method: 'GET',
    url: `/api/stored?q=${encodeComponent('a\u0000b')}`,
    headers: {},
  });
  expect(answer.statusCode).toBe(400);
  expect(answer.json().message).not.toMatch(/UTF8|0x00/);
  expect(answerProblems(answer, { url: '/api/stored' })).toEqual([]);
});

test('a JSON body nested too deep is a 400 before it is parsed, not a stack overflow', async () => {
  const deep = `{"state": {"a": ${DEEP_JSON}}}`;
  const answer = await send(app, {
    label: 'deep',
    kind: 'hostile',
    method: 'POST',
    url: '/api/views',
    headers: { 'content-type': 'application/json' },
    payload: deep,
  });
  expect(answer.statusCode).toBe(400);
  expect(answer.json().message).toBe(`The JSON body is nested deeper than ${JSON_MAX_DEPTH} levels.`);
  expect(jsonDepth(deep)).toBe(10_002);
  expect(jsonDepth('{"a": "[[[[{{{{", "b": [1, {"c": "\\"]]"}]}')).toBe(3);
  const fine = '{"state": {"a": ' + '['.repeat(50) + ']'.repeat(50) + '}}';
  const ok = await send(app, {
    label: 'ok',
    kind: 'valid',
    method: 'POST',
    url: '/api/views',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    payload: fine,
  });
  expect(ok.statusCode).toBe(200);
  const poisoned = await send(app, {
    label: 'proto',
    kind: 'hostile',
    method: 'POST',
    url: '/api/views',
    headers: { 'content-type': 'application/json' },
    payload: '{"state": {}, "__proto__": {"x": 1}}',
  });
  expect(poisoned.statusCode).toBe(400);
});

test('forged sessions: garbage, unsigned, unsigned-off, HS256, twice', () => {
  const forged = forgedSessionCookies('portal_session');
  expect(forged.map((f) => f.label)).toHaveLength(5);
  for (const { cookie } of forged) expect(cookie.startsWith('portal_session=')).toBe(true);
  const none = forged.find((f) => f.label.includes('alg none'))!.cookie.split('=')[1];
  expect(JSON.parse(Buffer.from(none.split('.')[0], 'base64url').toString())).toEqual({
    alg: 'none',
    typ: 'JWT',
  });
  expect(JSON.parse(Buffer.from(none.split('.')[1], 'base64url').toString()).roles).toContain('admin');
});

describe('answerProblems', () => {
  const json = { 'content-type': 'application/json; charset=utf-8' };
  const at = (body: unknown, statusCode = 400, headers: Record<string, string> = json) => ({
    statusCode,
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const request = { url: '/api/v1.0/things' };

  test('sees 5xx, stack traces, SQL, database codes, hashes, /etc/passwd and non-JSON errors', () => {
    const problems = (answer: ReturnType<typeof at>) => answerProblems(answer, request);
    expect(problems(at({ statusCode: 502, message: 'Bad Gateway' }, 502))).toEqual(['status 502']);
    const err = new Error('boom');
    expect(problems(at({ statusCode: 400, message: err.stack }))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^stack trace/)]),
    );
    expect(problems(at({ statusCode: 400, message: 'at services/x/src/app.ts:12:3' }))).toHaveLength(1);
    expect(problems(at({ statusCode: 400, message: 'syntax error at or near "OR"' }))).toHaveLength(1);
    expect(
      problems(at({ statusCode: 409, message: 'duplicate key value violates unique constraint "u"' }, 409)),
    ).toHaveLength(2);
    expect(
      problems(at({ statusCode: 400, message: 'relation "identity.users" does not exist' })),
    ).toHaveLength(1);
    expect(problems(at({ statusCode: 400, message: 'x', code: '22P02' }))).toHaveLength(1);
    expect(problems(at({ sql: 'SELECT id FROM identity.users WHERE 1' }, 200))).toHaveLength(1);
    expect(problems(at({ password: '$argon2id$v=19$m=65536,t=3,p=4$abc' }, 200))).toHaveLength(1);
    expect(problems(at({ password: '$2b$10$abcdefghijklmnopqrstuv' }, 200))).toHaveLength(1);
    expect(problems(at({ token: 'a'.repeat(64) }, 200))).toHaveLength(1);
    expect(
      problems(at('root:x:0:0:root:/root:/bin/bash\n', 200, { 'content-type': 'text/plain' })),
    ).toHaveLength(1);
    expect(problems(at('<html>Bad</html>', 400, { 'content-type': 'text/html' }))).toEqual([
      'not a JSON error body (text/html)',
    ]);
    expect(problems(at({ statusCode: 400, message: 'x' }, 404))).toEqual(['error body says 400, status 404']);
  });

  test('passes sound answers, a token the request itself sent, binary bodies and non-/api errors', () => {
    expect(
      answerProblems(
        at({ statusCode: 400, error: 'Bad Request', message: 'body/name must be string' }),
        request,
      ),
    ).toEqual([]);
    expect(answerProblems(at({ message: 'Select a property from the list.' }, 200), request)).toEqual([]);
    const token = 'b'.repeat(64);
    expect(
      answerProblems(at({ statusCode: 404, message: `No reset ${token}` }, 404), {
        url: `/api/reset/${token}`,
      }),
    ).toEqual([]);
    expect(
      answerProblems(at('\u0089PNG SELECT x FROM y', 200, { 'content-type': 'image/png' }), request),
    ).toEqual([]);
    expect(
      answerProblems(at('<html>Not found</html>', 404, { 'content-type': 'text/html' }), { url: '/shell/x' }),
    ).toEqual([]);
  });
});
