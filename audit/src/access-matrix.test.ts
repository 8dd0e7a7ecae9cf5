import {
  ROUTE_ACCESS,
  ROUTE_ACCESS_APPS,
  expectedRefusal,
  routeAccess,
  type RouteAccessEntry,
} from '@portal/domain';
import { samplePath } from '@portal/server-kit/testing';
import { AUDIT_ROLES, openAuditPortal, type AuditPortal, type AuditRole } from './harness';

/**
 * The authorization matrix (issue 15): every route of every service × every audited role, asked with a
 * concrete path and no body. The answer must be exactly what the route table (libs/domain/src/routeAccess.ts)
 * says: 401 for anonymous on a guarded route, 403 for a role the table does not allow, and neither for an
 * allowed role — unless the entry names a finer rule (`service`, `rowLevel`, `finer`), when a 403 is
 * accepted only with a message other than the gate's own. A refused role's 403 says the entry's `refusal`
 * words (or the default).
 */

jest.setTimeout(120_000);

let portal: AuditPortal;

beforeAll(async () => {
  portal = await openAuditPortal();
});

afterAll(async () => {
  await portal?.close();
});

/** The gate's own 403 text (server-kit's forbidden() default): an allowed role must never get it. */
const GATE_FORBIDDEN = 'You do not have permission to do that.';

interface Cell {
  service: string;
  method: string;
  url: string;
  role: AuditRole;
  status: number;
  message?: string;
}

let address = 0;
/** A distinct client address per call, so no rate limit counts one call against another. */
const nextAddress = () => {
  address++;
  return `10.251.${(address >> 8) & 255}.${address & 255}`;
};

/** Methods a call cannot be injected with as such (Fastify answers them itself), asked as GET instead. */
const INJECTABLE = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

async function ask(role: AuditRole): Promise<Cell[]> {
  const cells: Cell[] = [];
  for (const service of portal.services)
    for (const { method, url } of service.routes) {
      if (!INJECTABLE.has(method)) continue;
      // A fresh session per call: the logout route ends the sessions issued before it.
      const cookie = portal.cookie(role);
      const answer = await service.app.inject({
        method: method as 'GET',
        url: samplePath(url),
        headers: cookie ? { cookie } : {},
        remoteAddress: nextAddress(),
      });
      let message: string | undefined;
      if (answer.statusCode === 401 || answer.statusCode === 403) {
        try {
          message = answer.json<{ message?: string }>().message;
        } catch {
          message = answer.body.slice(0, 200);
        }
      }
      cells.push({ service: service.name, method, url, role, status: answer.statusCode, message });
    }
  return cells;
}

const finerRule = (entry: RouteAccessEntry) => Boolean(entry.service || entry.rowLevel || entry.finer);

describe('the authorization matrix: every route × every role, as the route table says', () => {
  it.each(AUDIT_ROLES)('%s', async (role) => {
    const problems: string[] = [];
    const cells = await ask(role);
    expect(cells.length).toBeGreaterThan(150);
    for (const cell of cells) {
      const entry = routeAccess(cell.service, cell.method, cell.url);
      const where = `${cell.service} ${cell.method} ${cell.url} as ${role}`;
      if (!entry) {
        problems.push(`${where}: not in the route table`);
        continue;
      }
      const expected = expectedRefusal(entry, portal.rolesOf(role));
      const gateWords = entry.refusal ?? GATE_FORBIDDEN;
      if (expected !== null) {
        if (cell.status !== expected) problems.push(`${where}: ${cell.status}, expected ${expected}`);
        else if (expected === 403 && cell.message !== gateWords)
          problems.push(`${where}: 403 saying '${cell.message}', the table says '${gateWords}'`);
        continue;
      }
      if (cell.status === 401) problems.push(`${where}: 401 for an allowed role (${cell.message})`);
      if (cell.status === 403) {
        if (!finerRule(entry))
          problems.push(`${where}: 403 for an allowed role, no finer rule in the table (${cell.message})`);
        else if (cell.message === gateWords)
          problems.push(`${where}: the role gate's 403 for an allowed role`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('answers HEAD as GET', async () => {
    const identity = portal.services.find((service) => service.name === 'identity')!;
    const answer = await identity.app.inject({
      method: 'HEAD',
      url: '/api/v1.0/services',
      remoteAddress: nextAddress(),
    });
    expect(answer.statusCode).toBe(401);
  });
});

describe('the route table and the services agree', () => {
  it('audits every service the table gates', () => {
    expect(portal.services.map((service) => service.name).sort()).toEqual([...ROUTE_ACCESS_APPS].sort());
  });

  it('has an entry for every registered route', () => {
    const missing = portal.services.flatMap((service) =>
      service.routes
        .filter((route) => !routeAccess(service.name, route.method, route.url))
        .map((route) => `${service.name} ${route.method} ${route.url}`),
    );
    expect(missing).toEqual([]);
  });

  it('has a registered route for every entry', () => {
    const stale = ROUTE_ACCESS.filter((entry) => {
      const service = portal.services.find((one) => one.name === entry.app);
      return !service?.routes.some(
        (route) =>
          (entry.method === '*' || route.method === entry.method) &&
          (entry.prefix
            ? route.url === entry.url || route.url.startsWith(`${entry.url}/`)
            : route.url === entry.url),
      );
    }).map((entry) => `${entry.app} ${entry.method} ${entry.url}`);
    expect(stale).toEqual([]);
  });
});
