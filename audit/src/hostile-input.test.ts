import {
  ROUTE_ACCESS_APPS,
  expectedKeyRefusal,
  expectedRefusal,
  routeAccess,
  type RouteAccessEntry,
} from '@portal/domain';
import { SESSION_COOKIE } from '@portal/contracts';
import type { RegisteredRoute } from '@portal/server-kit';
import type { FastifyInstance } from 'fastify';
import {
  AUDIT_ROLES,
  openAuditPortal,
  type AuditPortal,
  type AuditRole,
  type AuditedService,
} from './harness';
import type { AuditFixtures, AuditKey } from './fixtures';
import { SECRET_TEXT, SHELL_INDEX, openAuditGateway, type AuditGateway } from './gateway';
import {
  answerProblems,
  forgedSessionCookies,
  multipartBody,
  paramValues,
  routeCases,
  runSeed,
  seedFor,
  send,
  type InjectCase,
} from './hostile';

/**
 * Hostile input over every route of every service (issues 15 and 22): the cases hostile.ts draws from each
 * route's schemas — valid calls with ids that exist in the seeded database (fixtures.ts), multipart files
 * where a route reads them, and hostile mutations — as anonymous, plain user, operator and admin, and with
 * API keys: valid ones (read-write and read-only of the plain user's group, one with a single service, a
 * staff key, another group's) and bad ones (forged, truncated, revoked, expired). No answer may be a 5xx or
 * show a stack trace, SQL, a hash or a non-JSON error; where the route table says a caller is refused
 * (401/403; expectedKeyRefusal for a key; exactly 401 for a bad key), every case is answered exactly that;
 * a refused call writes nothing (the service's table row counts are the same after it); another group's
 * key never has the plain user's rows answered 2xx. The gateway's own routes get the same cases. Problems
 * are collected per service, so a failure lists them all, with the seed to repeat the run (HOSTILE_SEED).
 */

jest.setTimeout(300_000);

const seed = runSeed();
const FORGED = forgedSessionCookies(SESSION_COOKIE);
let portal: AuditPortal;
let fixtures: AuditFixtures;
const figures = { calls: 0, counts: 0, routes: 0, started: Date.now() };
/** Answers by kind of case and status class ('valid 2xx', 'hostile 4xx'): how much reached the handlers. */
const answered = new Map<string, number>();
/** Per service, the valid calls of callers the gate lets in, and how many of them answered 2xx. */
const reached = new Map<string, { valid: number; ok: number }>();
/** The slowest routes (all callers), printed at the end: what to look at when the suite gets slow. */
const durations: [string, number][] = [];
/** HOSTILE_SERVICES=identity,locator: only those (while working on one; 'gateway' for the gateway's). */
const only = process.env.HOSTILE_SERVICES?.split(',').filter(Boolean);

/**
 * The least share of valid calls (by callers the gate lets in) answering 2xx, per service: measured with the
 * fixtures (seed 20261126) and set a little below, so a change that sends the valid calls back to 404s and
 * 400s (ids that stop existing, a schema the generator no longer fills) fails here. What keeps the rest
 * from a 2xx is mostly right: finer rules (rowLevel, the request's state), drawn values the handler
 * refuses (an address nobody has, a status change not allowed from the current one).
 */
const VALID_2XX_FLOOR: Record<string, number> = {
  // Measured (seed 20261126, 2026-11-28): identity 26 %, services-admin 60 %, locator 36 %, requests 26 %,
  // reportbuilder 35 %, iris 54 %, avs-editor 58 % (before the fixtures: 12 % over all services).
  identity: 0.22,
  'services-admin': 0.5,
  locator: 0.3,
  requests: 0.22,
  reportbuilder: 0.3,
  iris: 0.45,
  'avs-editor': 0.5,
};

beforeAll(async () => {
  portal = await openAuditPortal({ fixtures: true });
  fixtures = portal.fixtures!;
});

afterAll(async () => {
  await portal?.close();
  console.warn(
    `hostile input: ${figures.routes} routes, ${figures.calls} calls, ${figures.counts} row counts in ` +
      `${((Date.now() - figures.started) / 1000).toFixed(1)} s (HOSTILE_SEED=${seed}); ` +
      [...answered.entries()]
        .sort()
        .map(([tally, n]) => `${tally}: ${n}`)
        .join(', ') +
      '; valid 2xx by allowed callers: ' +
      [...reached.entries()]
        .map(([service, { valid, ok }]) => `${service} ${ok}/${valid} (${Math.round((100 * ok) / valid)} %)`)
        .join(', ') +
      '; slowest: ' +
      durations
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([route, ms]) => `${route} ${ms} ms`)
        .join(', '),
  );
});

/** Methods inject sends as they are (Fastify answers the others itself). */
const INJECTABLE = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
/** Hostile cases each valid key the gate lets in sends per route (its valid calls all go): a sample. */
const KEY_HOSTILE_SAMPLE = 2;

/** Who calls: a session of an audited role, or an API key. */
type Caller = { name: AuditRole; session: true } | { name: string; session: false; key: AuditKey };

const callers = (): Caller[] => [
  ...AUDIT_ROLES.map((name): Caller => ({ name, session: true })),
  ...fixtures.keys.map((key): Caller => ({ name: key.role, session: false, key })),
];

/** What the gate answers a caller on a route, whatever the input: 401, 403 or null (it lets them in). */
function refusalOf(caller: Caller, entry: RouteAccessEntry): 401 | 403 | null {
  if (caller.session) return expectedRefusal(entry, portal.rolesOf(caller.name));
  if (entry.allow.includes('anonymous')) return null;
  return caller.key.caller ? expectedKeyRefusal(entry, caller.key.caller) : 401;
}

const credentialsOf = (caller: Caller) =>
  caller.session ? portal.cookie(caller.name) : { authorization: caller.key.authorization };

/**
 * The cases a caller sends: a session every case; a key the gate refuses one (the gate answers before it
 * reads anything, so the input changes nothing; the sessions' refused calls show that for every case), a
 * key it lets in its valid calls and a sample of the hostile ones, drawn per key and route from the seed.
 * Bodies over the limit are the sessions' (once per service is enough).
 */
function casesOf(caller: Caller, cases: InjectCase[], refusal: number | null, route: string): InjectCase[] {
  if (caller.session) return cases;
  const small = cases.filter((one) => !one.early?.includes(413));
  if (refusal !== null) return [small[0]];
  const hostile = small.filter((one) => one.kind === 'hostile');
  const start = Math.abs(seedFor(seed, `${caller.name} ${route}`)) % Math.max(hostile.length, 1);
  const sample = Array.from(
    { length: Math.min(KEY_HOSTILE_SAMPLE, hostile.length) },
    (_, i) => hostile[(start + i * 5) % hostile.length],
  );
  return [...small.filter((one) => one.kind === 'valid'), ...sample];
}

/** True when the case names one of the plain user's (KMI's) rows, in its path, query or body. */
const namesKmiRow = (one: InjectCase) => {
  const text = `${one.url} ${typeof one.payload === 'string' ? one.payload : (one.payload?.toString('latin1') ?? '')}`;
  return fixtures.kmiIds.some((id) => text.includes(id));
};

/**
 * Whether a route reads multipart/form-data: one call as an administrator (whom every table entry but the
 * group admin's lets in) with a small multipart body. A route whose scope has no multipart parser answers
 * 415 before its handler; one that has it goes on (and, with no file, refuses the call itself).
 */
async function readsMultipart(app: FastifyInstance, route: RegisteredRoute): Promise<boolean> {
  const schema = route.schema as { body?: unknown } | undefined;
  if (!WITH_BODY.has(route.method) || schema?.body) return false;
  const { payload, contentType } = multipartBody({ probe: '1' });
  const url = route.url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
    encodeURIComponent(paramValues(route.url, fixtures.params)[name] ?? '1'),
  );
  const cookie = portal.cookie('admin');
  const answer = await app.inject({
    method: route.method as 'POST',
    url: url.replace(/\*/g, '1'),
    payload,
    headers: { 'content-type': contentType, ...(cookie ? { cookie } : {}) },
    remoteAddress: '10.249.0.1',
  });
  figures.calls++;
  return answer.statusCode !== 415 && answer.statusCode !== 403 && answer.statusCode !== 401;
}

/** The text fields a multipart call carries: the known ids named like the report builder's (…ID, …Id). */
const multipartFields = () =>
  Object.fromEntries(Object.entries(fixtures.fields).filter(([name]) => /[a-z](ID|Id)$/.test(name)));

/**
 * Every case of every route of a service as every caller: the problems found, each naming the route,
 * caller and case. The row counts: around each refused caller's calls to a route (they must all be
 * refusals), and after every call of a caller the gate lets in, compared for each answer that is not a 2xx.
 */
async function audit(service: AuditedService): Promise<string[]> {
  const problems: string[] = [];
  const tally = reached.get(service.name) ?? { valid: 0, ok: 0 };
  reached.set(service.name, tally);
  let oversized = false;
  for (const route of service.routes) {
    if (!INJECTABLE.has(route.method)) continue;
    const entry = routeAccess(service.name, route.method, route.url);
    if (!entry) {
      problems.push(`${route.method} ${route.url}: not in the route table`);
      continue;
    }
    figures.routes++;
    // The valid calls' rows back where the fixtures left them (an earlier valid call may have moved them).
    await fixtures.refresh();
    // The body over 1 MiB once per service, on a route with a body the gate lets anyone into if there is one.
    const oversize =
      !oversized &&
      WITH_BODY.has(route.method) &&
      (entry.allow.includes('anonymous') ||
        !service.routes.some(
          (other) =>
            WITH_BODY.has(other.method) &&
            routeAccess(service.name, other.method, other.url)?.allow.includes('anonymous'),
        ));
    if (oversize) oversized = true;
    const multipart = (await readsMultipart(service.app, route))
      ? { fields: multipartFields(), files: fixtures.files }
      : undefined;
    const cases = routeCases(route, {
      seed,
      oversize,
      params: paramValues(route.url, fixtures.params),
      fields: fixtures.fields,
      multipart,
    });
    const started = Date.now();
    for (const caller of callers()) {
      const refusal = refusalOf(caller, entry);
      const where = (one: InjectCase) => `${route.method} ${route.url} as ${caller.name}, ${one.label}`;
      let rows = await portal.rowCount(service.tables);
      figures.counts++;
      for (const one of casesOf(caller, cases, refusal, `${service.name} ${route.method} ${route.url}`)) {
        // A fresh session per call: the logout route ends the sessions issued before it.
        const answer = await send(service.app, one, credentialsOf(caller));
        figures.calls++;
        const status = answer.statusCode;
        answered.set(
          `${one.kind} ${Math.floor(status / 100)}xx`,
          (answered.get(`${one.kind} ${Math.floor(status / 100)}xx`) ?? 0) + 1,
        );
        if (refusal === null && one.kind === 'valid' && caller.name !== 'anonymous') {
          tally.valid++;
          if (status < 300) tally.ok++;
        }
        for (const problem of answerProblems(answer, one))
          problems.push(`${where(one)}: ${problem} → ${status} ${answer.body.slice(0, 160)}`);
        if (refusal !== null && status !== refusal && !(one.early ?? []).includes(status))
          problems.push(`${where(one)}: answered ${status}, the route table says ${refusal}`);
        if (
          refusal === null &&
          caller.name !== 'anonymous' &&
          status === 401 &&
          !entry.allow.includes('anonymous')
        )
          problems.push(`${where(one)}: a valid ${caller.session ? 'session' : 'key'} answered 401`);
        if (refusal === null && one.overLimit && status !== 413)
          problems.push(`${where(one)}: a body over the limit answered ${status}, not 413`);
        if (caller.name === 'otherGroupKey' && entry.rowLevel && status < 300 && namesKmiRow(one))
          problems.push(`${where(one)}: another group's key was answered ${status} for KMI's row`);
        if (refusal === null) {
          const after = await portal.rowCount(service.tables);
          figures.counts++;
          if (status >= 300 && after !== rows)
            problems.push(`${where(one)}: answered ${status} but the row count went ${rows} → ${after}`);
          rows = after;
        }
      }
      // As anonymous, the first valid call again with each forged session: answered as anonymous is.
      if (caller.name === 'anonymous')
        for (const forged of FORGED) {
          const one = { ...cases[0], label: forged.label };
          const answer = await send(service.app, one, forged.cookie);
          figures.calls++;
          const status = answer.statusCode;
          for (const problem of answerProblems(answer, one))
            problems.push(`${where(one)}: ${problem} → ${status} ${answer.body.slice(0, 160)}`);
          if (refusal !== null && status !== refusal)
            problems.push(`${where(one)}: answered ${status}, the route table says ${refusal}`);
        }
      if (refusal !== null) {
        const after = await portal.rowCount(service.tables);
        figures.counts++;
        if (after !== rows)
          problems.push(
            `${route.method} ${route.url} as ${caller.name}: refused, but the row count went ${rows} → ${after}`,
          );
      }
    }
    durations.push([`${service.name} ${route.method} ${route.url}`, Date.now() - started]);
  }
  if (!oversized && service.routes.some((route) => WITH_BODY.has(route.method)))
    problems.push('no route took the body over 1 MiB');
  return problems;
}

test('every service of the portal is audited', () => {
  expect(portal.services.map((service) => service.name).sort()).toEqual([...ROUTE_ACCESS_APPS].sort());
});

test('the fixtures give keys of every kind and ids that exist', () => {
  expect(fixtures.keys.map((key) => key.role).sort()).toEqual(
    [
      'key',
      'readKey',
      'avsKey',
      'staffKey',
      'otherGroupKey',
      'forgedKey',
      'truncatedKey',
      'revokedKey',
      'expiredKey',
    ].sort(),
  );
  expect(fixtures.params).toMatchObject({
    ':requestID': expect.any(String),
    ':reportId': expect.any(String),
    'group/:id': expect.any(String),
    'user/:id': expect.any(String),
  });
  expect(
    paramValues('/api/v1.0/request/:id/measurements/:measurementId', { 'request/:id': 'r', ':id': 'x' }),
  ).toEqual({
    id: 'r',
  });
});

describe.each([...ROUTE_ACCESS_APPS])('%s', (name) => {
  const run = !only || only.includes(name) ? test : test.skip;
  run('holds under generated and hostile input, as every role and key', async () => {
    const service = portal.services.find((one) => one.name === name);
    expect(service).toBeDefined();
    const problems = await audit(service!);
    if (problems.length > 0)
      console.warn(`${name}: ${problems.length} problems with HOSTILE_SEED=${seed}\n${problems.join('\n')}`);
    expect(problems).toEqual([]);
    // A share under the floor: valid calls stopped reaching the handlers' work (see VALID_2XX_FLOOR).
    const { valid, ok } = reached.get(name)!;
    expect(`${name}: ${ok} of ${valid} valid calls answered 2xx`).toEqual(
      ok >= Math.ceil(valid * (VALID_2XX_FLOOR[name] ?? 0))
        ? `${name}: ${ok} of ${valid} valid calls answered 2xx`
        : `${name}: at least ${Math.ceil(valid * VALID_2XX_FLOOR[name])} of ${valid} valid calls answering 2xx`,
    );
  });
});

/** Static answers (the shell, the reference's page and bundle) are not checked for words; errors are. */
const STATIC = /javascript|css|html/;

/** Paths that try to leave the gateway's folders: none may serve the file beside them. */
const TRAVERSALS = [
  '/..%2fsecret.txt',
  '/..%2f..%2fsecret.txt',
  '/%2e%2e/%2e%2e/secret.txt',
  '/assets/..%2f..%2f..%2fsecret.txt',
  '/remotes/remoteA/..%2fsecret.txt',
  '/remotes/remoteA/..%2f..%2fsecret.txt',
  '/remotes/remoteA/%2e%2e%2f%2e%2e%2fsecret.txt',
  '/remotes/..%2f..%2fsecret.txt/x',
  '/api/docs/..%2f..%2f..%2fsecret.txt',
  '/..%5c..%5csecret.txt',
];

describe('gateway', () => {
  const run = !only || only.includes('gateway') ? test : test.skip;
  let gateway: AuditGateway | undefined;
  afterAll(async () => {
    await gateway?.close();
  });

  run('its own routes hold under generated and hostile input; no path leaves its folders', async () => {
    gateway = await openAuditGateway(portal);
    const { app, routes } = gateway;
    expect(routes.map((route) => route.url)).toEqual(
      expect.arrayContaining(['/remotes.json', '/api/openapi.json', '/health', '/ready', '/*']),
    );
    const problems: string[] = [];
    for (const route of routes) {
      if (!INJECTABLE.has(route.method)) continue;
      figures.routes++;
      const cases = routeCases(route, { seed, oversize: WITH_BODY.has(route.method) });
      for (const role of ['anonymous', 'user'] as const)
        for (const one of cases) {
          const answer = await send(app, one, portal.cookie(role));
          figures.calls++;
          const status = answer.statusCode;
          const where = `gateway ${route.method} ${route.url} as ${role}, ${one.label}`;
          const type = String(answer.headers['content-type'] ?? '');
          if (status >= 300 || !STATIC.test(type))
            for (const problem of answerProblems(answer, one))
              problems.push(`${where}: ${problem} → ${status} ${answer.body.slice(0, 160)}`);
          else if (status >= 500) problems.push(`${where}: status ${status}`);
          if (answer.body.includes(SECRET_TEXT))
            problems.push(`${where}: served the file outside its folders`);
          if (
            /traversal/.test(one.label) &&
            status < 300 &&
            answer.body !== SHELL_INDEX &&
            route.url.includes('*')
          )
            problems.push(`${where}: a traversal answered ${status} with a file`);
        }
    }
    for (const path of TRAVERSALS)
      for (const accept of ['*/*', 'text/html']) {
        const answer = await app.inject({ method: 'GET', url: path, headers: { accept } });
        figures.calls++;
        if (
          answer.statusCode >= 500 ||
          answer.body.includes(SECRET_TEXT) ||
          (answer.statusCode < 300 && answer.body !== SHELL_INDEX)
        )
          problems.push(`gateway GET ${path} (${accept}): ${answer.statusCode} ${answer.body.slice(0, 120)}`);
      }
    // The merged document is served (every service's, read from the listening apps).
    const document = await app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(document.statusCode).toBe(200);
    if (problems.length > 0) console.warn(`gateway: ${problems.length} problems\n${problems.join('\n')}`);
    expect(problems).toEqual([]);
  });
});
