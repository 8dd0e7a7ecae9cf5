import { ROUTE_ACCESS_APPS, expectedRefusal, routeAccess } from '@portal/domain';
import { AUDIT_ROLES, openAuditPortal, type AuditPortal, type AuditedService } from './harness';
import { SESSION_COOKIE } from '@portal/contracts';
import { answerProblems, forgedSessionCookies, routeCases, runSeed, send, type InjectCase } from './hostile';

/**
 * Hostile input over every route of every service (issue 15): the cases hostile.ts draws from each route's
 * schemas — valid calls and hostile mutations — as anonymous, plain user, operator and admin. No answer may
 * be a 5xx or show a stack trace, SQL, a hash or a non-JSON error; where the route table says the role is
 * refused (401/403), every case is answered exactly that (the gate answers before anything is read); and a
 * refused call writes nothing (the service's table row counts are the same after it). Problems are collected
 * per service, so a failure lists them all, with the seed to repeat the run (HOSTILE_SEED).
 */

jest.setTimeout(180_000);

const seed = runSeed();
const FORGED = forgedSessionCookies(SESSION_COOKIE);
let portal: AuditPortal;
const figures = { calls: 0, counts: 0, routes: 0, started: Date.now() };
/** Answers by kind of case and status class ('valid 2xx', 'hostile 4xx'): how much reached the handlers. */
const answered = new Map<string, number>();
/** The slowest routes (all roles), printed at the end: what to look at when the suite gets slow. */
const durations: [string, number][] = [];
/** HOSTILE_SERVICES=identity,locator: only those (while working on one). */
const only = process.env.HOSTILE_SERVICES?.split(',').filter(Boolean);

beforeAll(async () => {
  portal = await openAuditPortal();
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

/**
 * Every case of every route of a service as every role: the problems found, each naming the route, role and
 * case. The row counts: around each refused role's calls to a route (they must all be refusals), and after
 * every call of a role the gate lets in, compared for each answer that is not a 2xx.
 */
async function audit(service: AuditedService): Promise<string[]> {
  const problems: string[] = [];
  let oversized = false;
  for (const route of service.routes) {
    if (!INJECTABLE.has(route.method)) continue;
    const entry = routeAccess(service.name, route.method, route.url);
    if (!entry) {
      problems.push(`${route.method} ${route.url}: not in the route table`);
      continue;
    }
    figures.routes++;
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
    const cases = routeCases(route, { seed, oversize });
    const started = Date.now();
    for (const role of AUDIT_ROLES) {
      const refusal = expectedRefusal(entry, portal.rolesOf(role));
      const where = (one: InjectCase) => `${route.method} ${route.url} as ${role}, ${one.label}`;
      let rows = await portal.rowCount(service.tables);
      figures.counts++;
      for (const one of cases) {
        // A fresh session per call: the logout route ends the sessions issued before it.
        const answer = await send(service.app, one, portal.cookie(role));
        figures.calls++;
        const tally = `${one.kind} ${Math.floor(answer.statusCode / 100)}xx`;
        answered.set(tally, (answered.get(tally) ?? 0) + 1);
        const status = answer.statusCode;
        for (const problem of answerProblems(answer, one))
          problems.push(`${where(one)}: ${problem} → ${status} ${answer.body.slice(0, 160)}`);
        if (refusal !== null && status !== refusal && !(one.early ?? []).includes(status))
          problems.push(`${where(one)}: answered ${status}, the route table says ${refusal}`);
        if (refusal === null && role !== 'anonymous' && status === 401 && !entry.allow.includes('anonymous'))
          problems.push(`${where(one)}: a valid session answered 401`);
        if (refusal === null && one.early?.includes(413) && status !== 413)
          problems.push(`${where(one)}: a body over the limit answered ${status}, not 413`);
        if (refusal === null) {
          const after = await portal.rowCount(service.tables);
          figures.counts++;
          if (status >= 300 && after !== rows)
            problems.push(`${where(one)}: answered ${status} but the row count went ${rows} → ${after}`);
          rows = after;
        }
      }
      // As anonymous, the first valid call again with each forged session: answered as anonymous is.
      if (role === 'anonymous')
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
            `${route.method} ${route.url} as ${role}: refused, but the row count went ${rows} → ${after}`,
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

describe.each([...ROUTE_ACCESS_APPS])('%s', (name) => {
  const run = !only || only.includes(name) ? test : test.skip;
  run('holds under generated and hostile input, as every role', async () => {
    const service = portal.services.find((one) => one.name === name);
    expect(service).toBeDefined();
    const problems = await audit(service!);
    if (problems.length > 0)
      console.warn(`${name}: ${problems.length} problems with HOSTILE_SEED=${seed}\n${problems.join('\n')}`);
    expect(problems).toEqual([]);
  });
});
