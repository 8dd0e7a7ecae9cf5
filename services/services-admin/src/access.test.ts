import type { InjectOptions } from 'fastify';
import { ADMIN_API, SESSION_COOKIE, type RateRow } from '@portal/contracts';
import { trailingSlashProblems } from '@portal/server-kit/testing';
import {
  ADMIN,
  PLAIN,
  RATES_EDITOR,
  call,
  env,
  groupByCode,
  sessionOf,
  signSession,
  userByEmail,
  users,
  useServicesAdminApp,
} from './testing/harness';

/** Who may call services-admin (the route table's gate and the guards), and its paths both ways. */

useServicesAdminApp();

describe('access', () => {
  const kmiId = async () => (await groupByCode('KMI')).id;
  const someUserId = async () => (await userByEmail(PLAIN)).id;

  /** Every admin call, as [method, url, body]. */
  const adminCalls = async (): Promise<[InjectOptions['method'], string, object?][]> => {
    const groupId = await kmiId();
    const userId = await someUserId();
    return [
      ['GET', `${ADMIN_API.pageForModel}?modelName=users&pageNumber=1&pageSize=10`],
      ['GET', ADMIN_API.allServices],
      ['GET', ADMIN_API.users],
      ['GET', ADMIN_API.groups],
      ['GET', ADMIN_API.groupUsers(groupId)],
      ['GET', '/api/v1.0/group/services'],
      ['GET', ADMIN_API.userServices(userId)],
      ['GET', ADMIN_API.groupServices(groupId)],
      ['POST', ADMIN_API.groupServices(groupId), { service: 'avs' }],
      ['DELETE', ADMIN_API.groupService(groupId, 'avs')],
      ['POST', ADMIN_API.userServices(userId), { service: 'avs' }],
      ['DELETE', ADMIN_API.userService(userId, 'avs')],
      ['PUT', ADMIN_API.groups, { name: 'Nope', code: 'NOPE', admin: null }],
      ['POST', ADMIN_API.group(groupId), { name: 'Nope' }],
      ['DELETE', ADMIN_API.group(groupId)],
      ['POST', ADMIN_API.user(userId), { name: 'Nope' }],
      ['DELETE', ADMIN_API.user(userId)],
    ];
  };

  it('answers 401 without a session and 403 to anyone but an admin, on every admin call', async () => {
    for (const [method, url, body] of await adminCalls()) {
      const anonymous = await call(null, method, url, body);
      expect([method, url, anonymous.statusCode]).toEqual([method, url, 401]);
      expect(anonymous.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
      for (const who of [PLAIN, RATES_EDITOR]) {
        const refused = await call(who, method, url, body);
        expect([method, url, who, refused.statusCode]).toEqual([method, url, who, 403]);
      }
    }
  });

  it('lets rates editors at their own group’s rates only, and admins at every group’s', async () => {
    const kmi = await kmiId();
    const ops = (await groupByCode('OPS')).id;
    // Saves put back what is there, so the tables stay as seeded.
    const tables: Record<string, RateRow[]> = {
      [kmi]: (await call(ADMIN, 'GET', ADMIN_API.rates(kmi))).json().rates,
      [ops]: [],
    };
    const calls: [
      InjectOptions['method'],
      (group: string) => string,
      (group: string) => object | undefined,
    ][] = [
      ['GET', ADMIN_API.rates, () => undefined],
      ['POST', () => ADMIN_API.saveRates, (group) => ({ groupID: group, rates: tables[group] })],
      ['GET', ADMIN_API.ratesExport, () => undefined],
    ];
    for (const [method, url, body] of calls) {
      expect((await call(null, method, url(kmi), body(kmi))).statusCode).toBe(401);
      expect((await call(PLAIN, method, url(kmi), body(kmi))).statusCode).toBe(403);
      const other = await call(RATES_EDITOR, method, url(ops), body(ops));
      expect([url(ops), other.statusCode]).toEqual([url(ops), 403]);
      expect(other.json().message).toBe('You may only edit the rates of your own group.');
      expect((await call(ADMIN, method, url(ops), body(ops))).statusCode).toBe(200);
      expect((await call(RATES_EDITOR, method, url(kmi), body(kmi))).statusCode).toBe(200);
    }
  });

  it('reads the role from the database, so a demoted admin loses the API at once', async () => {
    const admin = await users().save(
      users().create({
        name: 'Temporary Admin',
        email: 'temp.admin@portal.test',
        passwordHash: 'x',
        isAdmin: true,
      }),
    );
    const session = signSession(admin);
    const get = () => env.app.inject({ url: ADMIN_API.allServices, cookies: { [SESSION_COOKIE]: session } });
    expect((await get()).statusCode).toBe(200);
    await users().update(admin.id, { isAdmin: false });
    expect((await get()).statusCode).toBe(403);
    await users().update(admin.id, { isAdmin: true, active: false });
    expect((await get()).statusCode).toBe(401);
    await users().delete(admin.id);
    expect((await get()).statusCode).toBe(401);
  });

  it('asks who is calling before reading the body', async () => {
    const res = await call(null, 'PUT', ADMIN_API.groups, { name: 42 });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a token signed with another key', async () => {
    const res = await env.app.inject({
      url: ADMIN_API.allServices,
      cookies: { [SESSION_COOKIE]: (await sessionOf(ADMIN)).replace(/\.[^.]+$/, '.AAAA') },
    });
    expect(res.statusCode).toBe(401);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('paths with and without their trailing slash', () => {
  it('answers every registered route both ways, and the gateway sends both forms to services-admin', async () => {
    expect(await trailingSlashProblems(env.app, { service: 'services-admin' })).toEqual([]);
  });
});
