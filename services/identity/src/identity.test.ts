import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE } from '@portal/contracts';
import {
  DEMO_PASSWORD,
  AuditRecordEntity,
  PasswordResetTokenEntity,
  UserEntity,
  type TestDatabase,
} from '@portal/db';
import { rolesOf } from '@portal/domain';
import { signTestSession, trailingSlashProblems } from '@portal/server-kit/testing';
import { startIdentityApp, type IdentityTestApp } from './testing/identityApp';

jest.setTimeout(60_000);

let app: FastifyInstance;
let db: TestDatabase;
let varDir: string;
let identity: IdentityTestApp | undefined;
// Each run gets its own e-mail domain so Redis counters from earlier runs never interfere.
const run = randomUUID().slice(0, 8);
const email = (who: string) => `${who}.${run}@example.co.za`;

beforeAll(async () => {
  identity = await startIdentityApp('identity-test', { AUTH_ATTEMPTS_PER_EMAIL: '5' });
  ({ app, db, varDir } = identity);
});

afterAll(() => identity?.close());

const cookieOf = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.find((c) => c.name === SESSION_COOKIE)?.value;
const uniqueIp = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

async function login(who: string, password = DEMO_PASSWORD) {
  return app.inject({
    method: 'POST',
    url: '/api/v1.0/login',
    payload: { email: who, password },
    remoteAddress: uniqueIp(),
  });
}

function latestMailTo(to: string): { subject: string; links: string[] } {
  const dir = join(varDir, 'mail');
  const files = readdirSync(dir)
    .filter((f) => f.includes(to.replace(/[^a-z0-9@._-]/gi, '_')))
    .sort();
  return JSON.parse(readFileSync(join(dir, files[files.length - 1]), 'utf8'));
}

async function waitForMail(to: string) {
  for (let i = 0; i < 50; i++) {
    try {
      return latestMailTo(to);
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`no mail to ${to}`);
}

describe('registration', () => {
  it('gives the spec messages for bad input, all at once', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1.0/register',
      payload: { name: '', email: 'bad', password: 'short', confirmPassword: 'other' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().messages).toEqual([
      'Name may not be empty.',
      'Email must be a valid email address.',
      'Password must be between 8-30 characters long.',
      'Confirm Password must be equal to Password.',
    ]);
  });

  it('400s a payload of the wrong shape instead of failing', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/v1.0/register', payload: { name: 42 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/must have required property/);
  });

  it('registers with a lower-cased e-mail, logs the user in, and refuses the same address twice', async () => {
    const address = email('Nomsa.Dlamini').toUpperCase();
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1.0/register',
      payload: {
        name: 'Nomsa Dlamini',
        email: address,
        password: 'Jacaranda-2026',
        confirmPassword: 'Jacaranda-2026',
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBeTruthy();
    const me = await app.inject({ url: '/api/v1.0/users/me', cookies: { [SESSION_COOKIE]: cookieOf(res)! } });
    expect(me.json()).toMatchObject({
      email: address.toLowerCase(),
      name: 'Nomsa Dlamini',
      roles: ['authenticated'],
      isAdmin: false,
      group: null,
    });
    const again = await app.inject({
      method: 'POST',
      url: '/api/v1.0/register',
      payload: {
        name: 'N',
        email: address.toLowerCase(),
        password: 'Jacaranda-2026',
        confirmPassword: 'Jacaranda-2026',
      },
    });
    expect(again.statusCode).toBe(409);
  });
});

describe('login, session and logout', () => {
  it('answers users/me with roles and the session group values', async () => {
    const res = await login('admin@portal.test');
    expect(res.statusCode).toBe(200);
    const user = res.json();
    expect(user).toMatchObject({
      email: 'admin@portal.test',
      isAdmin: true,
      authenticated: true,
      roles: expect.arrayContaining(['authenticated', 'admin']),
    });
    expect(user.groupName).toBeTruthy();
    expect(typeof user.groupProfessionalFeePercentage).toBe('number');
    expect(user.groupID).toBe(user.group._id);
    const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(cookie.httpOnly).toBe(true);
    const me = await app.inject({ url: '/api/v1.0/users/me', cookies: { [SESSION_COOKIE]: cookie.value } });
    expect(me.json()._id).toBe(user._id);
  });

  it("gives '0' from loggedin and 401 from users/me without a session", async () => {
    expect((await app.inject({ url: '/api/v1.0/loggedin' })).json()).toBe('0');
    expect((await app.inject({ url: '/api/v1.0/users/me' })).statusCode).toBe(401);
  });

  it("signs the session again when the roles changed since login, so the services' gates agree with users/me", async () => {
    const res = await login('claims@portal.test');
    const first = cookieOf(res)!;
    const me = (cookie: string) =>
      app.inject({ url: '/api/v1.0/users/me', cookies: { [SESSION_COOKIE]: cookie } });
    // Nothing changed: no new cookie.
    expect(cookieOf(await me(first))).toBeUndefined();
    const users = db.dataSource.getRepository(UserEntity);
    await users.update({ email: 'claims@portal.test' }, { saviOperator: true });
    try {
      const renewed = await me(first);
      expect(renewed.json().roles).toContain('saviOperator');
      const second = cookieOf(renewed)!;
      const claims = JSON.parse(Buffer.from(second.split('.')[1], 'base64url').toString());
      expect(claims.roles).toEqual(expect.arrayContaining(['authenticated', 'saviOperator']));
      expect(cookieOf(await me(second))).toBeUndefined();
    } finally {
      await users.update({ email: 'claims@portal.test' }, { saviOperator: false });
    }
  });

  it('refuses a wrong password, an unknown address and an inactive user', async () => {
    expect((await login('user@portal.test', 'wrong-password')).statusCode).toBe(401);
    expect((await login('nobody@portal.test')).statusCode).toBe(401);
    const inactive = await login('inactive@portal.test');
    expect(inactive.statusCode).toBe(403);
    expect(inactive.json().message).toMatch(/inactive/);
    expect(cookieOf(inactive)).toBeUndefined();
  });

  it('logout revokes the session cookie everywhere', async () => {
    const cookie = cookieOf(await login('qc@portal.test'))!;
    expect(
      (await app.inject({ url: '/api/v1.0/loggedin', cookies: { [SESSION_COOKIE]: cookie } })).json().email,
    ).toBe('qc@portal.test');
    const out = await app.inject({ url: '/api/v1.0/logout', cookies: { [SESSION_COOKIE]: cookie } });
    expect(out.statusCode).toBe(200);
    expect(
      (await app.inject({ url: '/api/v1.0/users/me', cookies: { [SESSION_COOKIE]: cookie } })).statusCode,
    ).toBe(401);
    expect(
      (await app.inject({ url: '/api/v1.0/loggedin', cookies: { [SESSION_COOKIE]: cookie } })).json(),
    ).toBe('0');
  });

  it('rate-limits login attempts per e-mail address with a clear 429', async () => {
    const target = email('target');
    for (let i = 0; i < 5; i++) expect((await login(target, 'wrong-password')).statusCode).toBe(401);
    const limited = await login(target, 'wrong-password');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/Too many attempts/);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('rate-limits login attempts per IP', async () => {
    const ip = uniqueIp();
    let last = 0;
    for (let i = 0; i < 51; i++) {
      last = (
        await app.inject({
          method: 'POST',
          url: '/api/v1.0/login',
          payload: { email: email(`ip${i}`), password: 'x' },
          remoteAddress: ip,
        })
      ).statusCode;
    }
    expect(last).toBe(429);
  });
});

describe('password reset', () => {
  it('answers forgot-password the same for known and unknown addresses and mails a single-use link', async () => {
    const known = await app.inject({
      method: 'POST',
      url: '/api/v1.0/forgot-password',
      payload: { email: 'user@portal.test' },
    });
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/v1.0/forgot-password',
      payload: { text: 'ghost@portal.test' },
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    const mail = await waitForMail('user@portal.test');
    const link = mail.links[0];
    expect(link).toMatch(/\/reset\/[A-Za-z0-9_-]{40,}$/);
    const token = link.split('/reset/')[1];
    const oldCookie = cookieOf(await login('user@portal.test'))!;

    const weak = await app.inject({
      method: 'POST',
      url: `/api/v1.0/reset/${token}`,
      payload: { password: 'short', confirmPassword: 'short' },
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toBe('Password must be between 8-30 characters long.');

    const ok = await app.inject({
      method: 'POST',
      url: `/api/v1.0/reset/${token}`,
      payload: { password: 'New-Protea-Pass1', confirmPassword: 'New-Protea-Pass1' },
    });
    expect(ok.statusCode).toBe(200);
    const reused = await app.inject({
      method: 'POST',
      url: `/api/v1.0/reset/${token}`,
      payload: { password: 'Other-Protea-2', confirmPassword: 'Other-Protea-2' },
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().message).toBe('Token invalid or expired');

    expect((await login('user@portal.test')).statusCode).toBe(401);
    expect((await login('user@portal.test', 'New-Protea-Pass1')).statusCode).toBe(200);
    // The session from before the reset is gone.
    expect(
      (await app.inject({ url: '/api/v1.0/users/me', cookies: { [SESSION_COOKIE]: oldCookie } })).statusCode,
    ).toBe(401);
    // Only the hash of the token is stored.
    const rows = await db.dataSource.getRepository(PasswordResetTokenEntity).find();
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
  });

  it('refuses an expired token and an invented one', async () => {
    await app.inject({
      method: 'POST',
      url: '/api/v1.0/forgot-password',
      payload: { email: 'rates@portal.test' },
    });
    const token = (await waitForMail('rates@portal.test')).links[0].split('/reset/')[1];
    await db.dataSource.query(
      `UPDATE identity.password_reset_tokens SET expires_at = now() - interval '1 minute'`,
    );
    const expired = await app.inject({
      method: 'POST',
      url: `/api/v1.0/reset/${token}`,
      payload: { password: 'Later-Pass-99', confirmPassword: 'Later-Pass-99' },
    });
    expect(expired.json().message).toBe('Token invalid or expired');
    const invented = await app.inject({
      method: 'POST',
      url: '/api/v1.0/reset/not-a-token',
      payload: { password: 'Later-Pass-99', confirmPassword: 'Later-Pass-99' },
    });
    expect(invented.statusCode).toBe(400);
  });

  it('resets through passwordreset + passwordresetcb with the mailed key', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1.0/passwordreset',
      payload: { email: 'Claims@Portal.test' },
    });
    expect(res.statusCode).toBe(200);
    const link = (await waitForMail('claims@portal.test')).links[0];
    const key = new URL(link).searchParams.get('key')!;
    expect(new URL(link).pathname).toBe('/password-reset');
    const cb = await app.inject({
      method: 'POST',
      url: '/api/v1.0/passwordresetcb',
      payload: { key, password: 'Fynbos-Reset-7', confirmPassword: 'Fynbos-Reset-7' },
    });
    expect(cb.statusCode).toBe(200);
    expect((await login('claims@portal.test', 'Fynbos-Reset-7')).statusCode).toBe(200);
    const missing = await app.inject({
      method: 'POST',
      url: '/api/v1.0/passwordresetcb',
      payload: { password: 'x' },
    });
    expect(missing.statusCode).toBe(400);
  });

  it('rejects a malformed e-mail with the spec message', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1.0/passwordreset',
      payload: { email: 'not-an-email' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Email must be a valid email address.');
  });
});

describe('menu, services and audit', () => {
  it('serves the header menu', async () => {
    const res = await app.inject({ url: '/admin/menu/header' });
    expect(res.json()).toEqual({
      name: 'header',
      defaultMenu: [
        { label: 'Home', path: '/', roles: ['anonymous'] },
        { label: 'Requests', path: '/requests', roles: ['authenticated'] },
        { label: 'Requests Admin', path: '/requests/admin', roles: ['admin', 'saviOperator'] },
        { label: 'User Admin', path: '/services/admin', roles: ['admin'] },
        { label: 'Integration', path: '/services/admin/my-group', roles: ['groupAdmin'] },
        { label: 'Insight', path: '/requests/insight', roles: ['admin', 'saviOperator', 'groupAdmin'] },
      ],
    });
    expect((await app.inject({ url: '/admin/menu/nope' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/admin/menu/bad%20name' })).statusCode).toBe(400);
  });

  it("lists the user's own active services and needs a session", async () => {
    expect((await app.inject({ url: '/api/v1.0/services' })).statusCode).toBe(401);
    const cookie = cookieOf(await login('operator@portal.test'))!;
    const res = await app.inject({ url: '/api/v1.0/services', cookies: { [SESSION_COOKIE]: cookie } });
    expect(res.json().success).toBe(true);
    expect(
      res
        .json()
        .services.map((s: { identifier: string }) => s.identifier)
        .sort(),
    ).toEqual(['avs', 'iris', 'savi', 'spatialkey']);
    // Switching a service off removes its tile.
    await db.dataSource.query(`UPDATE identity.services SET active = false WHERE identifier = 'avs'`);
    const after = await app.inject({ url: '/api/v1.0/services', cookies: { [SESSION_COOKIE]: cookie } });
    expect(after.json().services.map((s: { identifier: string }) => s.identifier)).not.toContain('avs');
    await db.dataSource.query(`UPDATE identity.services SET active = true WHERE identifier = 'avs'`);
  });

  it('records audit entries with the acting user', async () => {
    const payload = {
      message: 'Address override',
      details: { from: '12 Long St', to: '14 Long St' },
      user_name: 'Op',
      user_email: 'operator@portal.test',
      user_id: 'x1',
    };
    expect((await app.inject({ method: 'POST', url: '/api/v1.0/audit/', payload })).statusCode).toBe(401);
    const cookie = cookieOf(await login('operator@portal.test'))!;
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/api/v1.0/audit/',
          payload: { message: '' },
          cookies: { [SESSION_COOKIE]: cookie },
        })
      ).statusCode,
    ).toBe(400);
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1.0/audit/',
      payload,
      cookies: { [SESSION_COOKIE]: cookie },
    });
    expect(res.statusCode).toBe(201);
    const row = await db.dataSource
      .getRepository(AuditRecordEntity)
      .findOneByOrFail({ message: 'Address override' });
    expect(row).toMatchObject({ userEmail: 'operator@portal.test', details: payload.details });
    expect(row.actorUserId).toBeTruthy();
  });

  it('reports readiness of the database and Redis', async () => {
    expect((await app.inject({ url: '/ready' })).json()).toMatchObject({
      status: 'ok',
      checks: { db: 'ok', redis: 'ok' },
    });
  });
});

describe('the request form references', () => {
  // Sessions signed here (as identity signs them) rather than by logging in: the other tests have used up
  // user@portal.test's login attempts (AUTH_ATTEMPTS_PER_EMAIL is 5 in this file).
  const referencesOf = async (email: string) => {
    const user = await db.dataSource.getRepository(UserEntity).findOneByOrFail({ email });
    const token = signTestSession(join(varDir, 'keys/jwt-private.pem'), {
      sub: user.id,
      email: user.email,
      name: user.name,
      roles: rolesOf(user),
      groupId: user.groupId,
      claimsUser: user.claimsUser,
    });
    return app.inject({ url: '/api/v1.0/users/me/references', cookies: { [SESSION_COOKIE]: token } });
  };

  it("answers the group's references for a user and its claimsReferences for a claims user", async () => {
    const plain = await referencesOf('user@portal.test');
    expect(plain.statusCode).toBe(200);
    expect(plain.json().claimsUser).toBe(false);
    expect(plain.json().references.map((entry: unknown[]) => entry[1])).toEqual([
      'POLICY_NUMBER',
      'BROKER_NAME',
      'UNDERWRITING_BATCH',
    ]);
    const claims = await referencesOf('claims@portal.test');
    expect(claims.json()).toMatchObject({ claimsUser: true });
    expect(claims.json().references.map((entry: unknown[]) => entry[1])).toEqual([
      'CLAIM_NUMBER',
      'ASSESSOR_NAME',
    ]);
  });

  it('401s without a session', async () => {
    expect((await app.inject({ url: '/api/v1.0/users/me/references' })).statusCode).toBe(401);
  });
});

describe('paths with and without their trailing slash', () => {
  it('answers every registered route both ways, and the gateway sends both forms to identity', async () => {
    expect(await trailingSlashProblems(app, { service: 'identity' })).toEqual([]);
  });
});
