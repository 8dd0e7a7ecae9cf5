import { randomUUID } from 'node:crypto';
import { ADMIN_API } from '@portal/contracts';
import { type UserEntity, UserServiceEntity } from '@portal/db';
import {
  ADMIN,
  asAdmin,
  env,
  groupByCode,
  latestAudit,
  redis,
  userByEmail,
  users,
  useServicesAdminApp,
} from '../testing/harness';

/** Updating and deleting users. */

useServicesAdminApp();

describe('users', () => {
  let target: UserEntity;

  beforeAll(async () => {
    target = await users().save(
      users().create({
        name: 'Bongani Zulu',
        email: 'bongani.zulu@example.co.za',
        passwordHash: 'x',
        groupId: (await groupByCode('KMI')).id,
      }),
    );
  });

  it('updates a cell at a time, auditing before and after, without ending the user’s session', async () => {
    const hvv = await groupByCode('HVV');
    const res = await asAdmin('POST', ADMIN_API.user(target.id), { group: hvv.id, groupName: 'ignored' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      user: { group: hvv.id, groupName: 'Highveld Valuers' },
    });
    const roles = await asAdmin('POST', ADMIN_API.user(target.id), {
      admin: true,
      saviQC: true,
      claimsUser: true,
    });
    expect(roles.json().user).toMatchObject({
      admin: true,
      saviQC: true,
      claimsUser: true,
      ratesEditor: false,
    });
    expect(await latestAudit('user', target.id)).toMatchObject({
      message: 'User bongani.zulu@example.co.za updated: isAdmin, saviQC, claimsUser',
      before: { isAdmin: false, saviQC: false, claimsUser: false, groupId: hvv.id },
      after: { isAdmin: true, saviQC: true, claimsUser: true, groupId: hvv.id },
    });
    expect((await users().findOneByOrFail({ id: target.id })).tokensValidAfter).toBeNull();
    expect(await redis.get(`session:revoked-before:${target.id}`)).toBeNull();
  });

  it('finds the group by name when only groupName is sent, and clears it with null', async () => {
    const byName = await asAdmin('POST', ADMIN_API.user(target.id), { groupName: 'portal operations' });
    expect(byName.json().user.groupName).toBe('Portal Operations');
    const unknown = await asAdmin('POST', ADMIN_API.user(target.id), { groupName: 'Nowhere' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe("There is no group named 'Nowhere'.");
    const none = await asAdmin('POST', ADMIN_API.user(target.id), { group: null });
    expect(none.json().user).toMatchObject({ group: null, groupName: '' });
  });

  it('normalises the e-mail address and keeps it unique', async () => {
    const res = await asAdmin('POST', ADMIN_API.user(target.id), {
      email: '  Bongani.Z@Example.CO.ZA ',
      name: ' Bongani Z ',
    });
    expect(res.json().user).toMatchObject({ email: 'bongani.z@example.co.za', name: 'Bongani Z' });
    const taken = await asAdmin('POST', ADMIN_API.user(target.id), { email: 'USER@portal.test' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('An account with this e-mail address already exists.');
  });

  it.each([
    [{ email: 'not-an-address' }, 400, 'Email must be a valid email address.'],
    [{ name: '  ' }, 400, 'Name may not be empty.'],
    [{ group: randomUUID() }, 400, 'There is no group with that id.'],
    [{ admin: 'yes please' }, 400, 'body/admin must be boolean'],
  ])('refuses %j', async (body, status, message) => {
    const res = await asAdmin('POST', ADMIN_API.user(target.id), body);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toBe(message);
  });

  it('ends every session of a user it deactivates', async () => {
    const before = Date.now();
    const res = await asAdmin('POST', ADMIN_API.user(target.id), { active: false });
    expect(res.json().user.active).toBe(false);
    const stored = await users().findOneByOrFail({ id: target.id });
    expect(stored.tokensValidAfter!.getTime()).toBeGreaterThanOrEqual(before);
    expect(Number(await redis.get(`session:revoked-before:${target.id}`))).toBe(
      stored.tokensValidAfter!.getTime(),
    );
  });

  it('keeps an admin from locking themselves out', async () => {
    const admin = await userByEmail(ADMIN);
    for (const [body, message] of [
      [{ admin: false }, 'You cannot remove your own admin role.'],
      [{ active: false }, 'You cannot deactivate your own account.'],
    ] as const) {
      const res = await asAdmin('POST', ADMIN_API.user(admin.id), body);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(message);
    }
    const selfDelete = await asAdmin('DELETE', ADMIN_API.user(admin.id));
    expect(selfDelete.json().message).toBe('You cannot delete your own account.');
    expect((await asAdmin('POST', ADMIN_API.user(admin.id), { name: 'Thandiwe Nkosi' })).statusCode).toBe(
      200,
    );
  });

  it('deletes a user with their service links, keeping the audit trail', async () => {
    await asAdmin('POST', ADMIN_API.userServices(target.id), { service: 'iris' });
    const res = await asAdmin('DELETE', ADMIN_API.user(target.id));
    expect(res.json()).toEqual({ success: true, message: 'User deleted.' });
    expect(await users().existsBy({ id: target.id })).toBe(false);
    expect(await env.db.dataSource.getRepository(UserServiceEntity).countBy({ userId: target.id })).toBe(0);
    expect(await latestAudit('user', target.id)).toMatchObject({
      message: 'User bongani.z@example.co.za deleted',
      before: { email: 'bongani.z@example.co.za', services: ['iris'] },
      after: null,
    });
    expect((await asAdmin('DELETE', ADMIN_API.user(target.id))).statusCode).toBe(404);
    expect((await asAdmin('POST', ADMIN_API.user(target.id), { name: 'X' })).statusCode).toBe(404);
  });
});
