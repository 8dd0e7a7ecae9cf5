import {
  ROUTE_ACCESS,
  ROUTE_ACCESS_APPS,
  expectedKeyRefusal,
  expectedRefusal,
  isRouteAccessApp,
  routeAccess,
} from './routeAccess';

describe('routeAccess', () => {
  it('finds an entry by service, method and the pattern as registered; HEAD asks as GET', () => {
    expect(routeAccess('requests', 'GET', '/api/v1.0/requests')).toMatchObject({
      allow: ['admin', 'saviOperator'],
    });
    expect(routeAccess('requests', 'get', '/api/v1.0/request/:id/any')).toMatchObject({ rowLevel: true });
    expect(routeAccess('identity', 'HEAD', '/api/v1.0/loggedin')).toMatchObject({ allow: ['anonymous'] });
    expect(routeAccess('identity', 'POST', '/api/v1.0/loggedin')).toBeUndefined();
    expect(routeAccess('identity', 'GET', '/api/v1.0/requests')).toBeUndefined();
    expect(routeAccess('nobody', 'GET', '/health')).toBeUndefined();
  });

  it('answers the internal paths to anyone, in every service', () => {
    for (const app of ROUTE_ACCESS_APPS)
      for (const url of ['/health', '/ready', '/metrics'])
        expect(routeAccess(app, 'GET', url)?.allow).toEqual(['anonymous']);
  });

  it('covers a plugin’s own routes below a prefix entry, for its methods only', () => {
    expect(routeAccess('iris', 'PUT', '/admin/queues/api/queues/:queueName/pause')).toMatchObject({
      url: '/admin/queues',
      allow: ['admin'],
    });
    expect(routeAccess('iris', 'GET', '/admin/queues')).toMatchObject({ allow: ['admin'] });
    expect(routeAccess('iris', 'GET', '/admin/queuesX')).toBeUndefined();
    expect(routeAccess('locator', 'QUERY', '/api/pictometry/proxy/*')).toMatchObject({
      allow: ['authenticated'],
    });
  });

  it('holds each route once and names only known services and roles', () => {
    const keys = ROUTE_ACCESS.map((entry) => `${entry.app} ${entry.method} ${entry.url}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const entry of ROUTE_ACCESS) {
      expect(isRouteAccessApp(entry.app)).toBe(true);
      expect(entry.allow.length).toBeGreaterThan(0);
      if (entry.allow.includes('anonymous') || entry.allow.includes('authenticated'))
        expect(entry.allow).toHaveLength(1);
    }
  });

  it('expects 401 without a session, 403 without an allowed role, nothing otherwise', () => {
    const open = { allow: ['anonymous'] as const };
    const signedIn = { allow: ['authenticated'] as const };
    const consoleRoles = { allow: ['admin', 'saviOperator'] as const };
    expect(expectedRefusal(open, null)).toBeNull();
    expect(expectedRefusal(open, ['authenticated'])).toBeNull();
    expect(expectedRefusal(signedIn, null)).toBe(401);
    expect(expectedRefusal(signedIn, ['authenticated'])).toBeNull();
    expect(expectedRefusal(consoleRoles, null)).toBe(401);
    expect(expectedRefusal(consoleRoles, ['authenticated'])).toBe(403);
    expect(expectedRefusal(consoleRoles, ['authenticated', 'saviQC'])).toBe(403);
    expect(expectedRefusal(consoleRoles, ['authenticated', 'saviOperator'])).toBeNull();
  });

  it('expects what the gate answers an API key: the table’s key, service and scope, then the key’s roles', () => {
    const every = { services: ['avs', 'iris', 'savi', 'spatialkey'], scope: 'write' as const, roles: [] };
    const readOnly = { ...every, scope: 'read' as const };
    const avsOnly = { ...every, services: ['avs'] };
    const staff = { ...every, roles: ['saviOperator'] };
    const open = { allow: ['anonymous'] as const };
    const closed = { allow: ['authenticated'] as const };
    const lookup = {
      allow: ['authenticated'] as const,
      key: { service: 'avs' as const, scope: 'read' as const },
    };
    const create = {
      allow: ['authenticated'] as const,
      key: { service: 'request' as const, scope: 'write' as const },
    };
    const submit = {
      allow: ['admin', 'saviOperator', 'saviQC'] as const,
      key: { service: 'savi' as const, scope: 'write' as const },
    };
    // Open routes: the gate does not look at the key.
    expect(expectedKeyRefusal(open, readOnly)).toBeNull();
    // No `key`: closed to keys, whatever the key.
    expect(expectedKeyRefusal(closed, every)).toBe(403);
    expect(expectedKeyRefusal(closed, staff)).toBe(403);
    // The service named by the entry; 'request' is the service's to decide.
    expect(expectedKeyRefusal(lookup, avsOnly)).toBeNull();
    expect(expectedKeyRefusal(lookup, { ...every, services: ['iris'] })).toBe(403);
    expect(expectedKeyRefusal(create, { ...every, services: ['iris'] })).toBeNull();
    // Scope: a read-only key reads only.
    expect(expectedKeyRefusal(lookup, readOnly)).toBeNull();
    expect(expectedKeyRefusal(create, readOnly)).toBe(403);
    // Roles: only the staff roles given to the key.
    expect(expectedKeyRefusal(submit, every)).toBe(403);
    expect(expectedKeyRefusal(submit, staff)).toBeNull();
    expect(expectedKeyRefusal(submit, { ...staff, scope: 'read' })).toBe(403);
    expect(expectedKeyRefusal(submit, { ...staff, services: ['avs'] })).toBe(403);
  });

  it('opens to keys no route of accounts, administration or the address editor', () => {
    const staffKey = {
      services: ['avs', 'iris', 'savi', 'spatialkey'],
      scope: 'write' as const,
      roles: ['admin'],
    };
    for (const entry of ROUTE_ACCESS.filter(
      (one) =>
        ['identity', 'services-admin', 'avs-editor'].includes(one.app) && !one.allow.includes('anonymous'),
    ))
      expect({ route: `${entry.method} ${entry.url}`, answer: expectedKeyRefusal(entry, staffKey) }).toEqual({
        route: `${entry.method} ${entry.url}`,
        answer: 403,
      });
  });
});
