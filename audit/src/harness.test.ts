import { AUDIT_ROLES, openAuditPortal, type AuditPortal } from './harness';

jest.setTimeout(120_000);

let portal: AuditPortal;

beforeAll(async () => {
  portal = await openAuditPortal();
});

afterAll(async () => {
  await portal?.close();
});

describe('the audit harness', () => {
  it('builds every HTTP service, ready, with its routes and tables', () => {
    expect(portal.services.map((service) => service.name).sort()).toEqual(
      ['avs-editor', 'identity', 'iris', 'locator', 'reportbuilder', 'requests', 'services-admin'].sort(),
    );
    for (const service of portal.services) {
      expect(service.routes.length).toBeGreaterThan(2);
      expect(service.routes.some((route) => route.method === 'HEAD')).toBe(false);
      expect(service.tables.length).toBeGreaterThan(0);
    }
  });

  it('signs a session for every role but anonymous, with the roles of its account', async () => {
    expect(portal.cookie('anonymous')).toBeUndefined();
    expect(portal.rolesOf('anonymous')).toBeNull();
    expect(portal.rolesOf('user')).toEqual(['authenticated']);
    expect(portal.rolesOf('operator')).toEqual(['authenticated', 'saviOperator']);
    expect(portal.rolesOf('admin')).toEqual(expect.arrayContaining(['authenticated', 'admin']));
    const identity = portal.services.find((service) => service.name === 'identity')!;
    for (const role of AUDIT_ROLES) {
      const cookie = portal.cookie(role);
      const answer = await identity.app.inject({
        method: 'GET',
        url: '/api/v1.0/loggedin',
        headers: cookie ? { cookie } : {},
      });
      expect(answer.statusCode).toBeLessThan(500);
    }
  });

  it('counts rows over several tables in one query', async () => {
    const identity = portal.services.find((service) => service.name === 'identity')!;
    expect(identity.tables).toContain('identity.users');
    expect(await portal.rowCount(['identity.users'])).toBe(7);
    expect(await portal.rowCount(identity.tables)).toBeGreaterThan(7);
    expect(await portal.rowCount([])).toBe(0);
  });
});
