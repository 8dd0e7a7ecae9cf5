import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE } from '@portal/contracts';
import { ACCOUNT_TEXT } from '@portal/domain';
import { API_KEY_ACCOUNT_PASSWORD, DEMO_PASSWORD, insertApiKeyRows, type TestDatabase } from '@portal/db';
import { newApiKey } from '@portal/server-kit';
import { startIdentityApp, type IdentityTestApp } from './testing/identityApp';

/**
 * Issue 22 in identity: an API key's own account row (kind 'apiKey') never logs in nor gets a reset link;
 * a group's admin carries the role 'groupAdmin' in their session and in users/me.
 */

jest.setTimeout(60_000);

let app: FastifyInstance;
let db: TestDatabase;
let varDir: string;
let identity: IdentityTestApp | undefined;
let ip = 0;

beforeAll(async () => {
  identity = await startIdentityApp('identity-keys-test');
  ({ app, db, varDir } = identity);
});

afterAll(() => identity?.close());

const login = (email: string, password: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1.0/login',
    payload: { email, password },
    remoteAddress: `10.22.0.${++ip}`,
  });

const groupId = async (code: string): Promise<string> =>
  (await db.dataSource.query(`SELECT id FROM identity.groups WHERE code = $1`, [code]))[0].id;

describe("an API key's account", () => {
  let email: string;

  beforeAll(async () => {
    const made = newApiKey();
    const kmi = await groupId('KMI');
    await db.dataSource.transaction((manager) =>
      insertApiKeyRows(manager, {
        groupId: kmi,
        name: 'Policy system',
        prefix: made.prefix,
        secretHash: made.secretHash,
        services: ['savi'],
        scope: 'read',
      }),
    );
    email = `${made.prefix.toLowerCase()}@api-keys.invalid`;
  });

  it('cannot log in: answered as a wrong password, whatever is sent', async () => {
    for (const password of [API_KEY_ACCOUNT_PASSWORD, DEMO_PASSWORD]) {
      const res = await login(email, password);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(ACCOUNT_TEXT.loginFailed);
    }
  });

  it('is sent no reset link (the answer is the same as for anyone)', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/v1.0/forgot-password', payload: { email } });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(ACCOUNT_TEXT.resetMailSent);
    // A known address asked after it: once its mail is there, the key's look-up (queued first) is done.
    await app.inject({
      method: 'POST',
      url: '/api/v1.0/forgot-password',
      payload: { email: 'rates@portal.test' },
    });
    const mails = () => {
      try {
        return readdirSync(join(varDir, 'mail'));
      } catch {
        return [];
      }
    };
    while (!mails().some((file) => file.includes('rates@portal.test')))
      await new Promise((resolve) => setTimeout(resolve, 50));
    const mailed = mails().filter((file) => file.includes('api-keys.invalid'));
    expect(mailed).toEqual([]);
    const [{ tokens }] = await db.dataSource.query(
      `SELECT count(*)::int AS tokens FROM identity.password_reset_tokens t
       JOIN identity.users u ON u.id = t.user_id WHERE u.kind = 'apiKey'`,
    );
    expect(tokens).toBe(0);
  });
});

describe("a group's admin", () => {
  it("carries 'groupAdmin' in the session and in users/me, and loses it with the group", async () => {
    const kmi = await groupId('KMI');
    const [user] = await db.dataSource.query(
      `SELECT id FROM identity.users WHERE email = 'user@portal.test'`,
    );
    await db.dataSource.query(`UPDATE identity.groups SET admin_user_id = $2 WHERE id = $1`, [kmi, user.id]);

    const res = await login('user@portal.test', DEMO_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.json().roles).toEqual(['authenticated', 'groupAdmin']);
    const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
    const claims = app.jwt.decode(cookie) as { roles: string[] };
    expect(claims.roles).toContain('groupAdmin');

    // users/me answers as the database has it now (and signs the session again).
    await db.dataSource.query(`UPDATE identity.groups SET admin_user_id = NULL WHERE id = $1`, [kmi]);
    const me = await app.inject({ url: '/api/v1.0/users/me', cookies: { [SESSION_COOKIE]: cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json().roles).toEqual(['authenticated']);
    const renewed = me.cookies.find((c) => c.name === SESSION_COOKIE);
    expect((app.jwt.decode(renewed!.value) as { roles: string[] }).roles).toEqual(['authenticated']);
  });
});
