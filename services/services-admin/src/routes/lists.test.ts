import { randomUUID } from 'node:crypto';
import { ADMIN_API, type AdminGroup, type AdminUser } from '@portal/contracts';
import { asAdmin, useServicesAdminApp } from '../testing/harness';

/** The plain user and group lists (windows with a search). */

useServicesAdminApp();

describe('user and group lists', () => {
  it('lists users by name in a window, with a search', async () => {
    const res = await asAdmin('GET', `${ADMIN_API.users}?search=PORTAL.TEST&limit=3&offset=1`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.total).toBe(7);
    expect(body.users).toHaveLength(3);
    const everyone = (await asAdmin('GET', `${ADMIN_API.users}?search=portal.test`)).json().users;
    expect(body.users).toEqual(everyone.slice(1, 4));
    expect(everyone.map((u: AdminUser) => u.name)).toEqual(
      [...everyone.map((u: AdminUser) => u.name)].sort(),
    );
  });

  it('never lists more than 500 users at once', async () => {
    const res = await asAdmin('GET', `${ADMIN_API.users}?limit=501`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('limit must be <= 500');
    expect((await asAdmin('GET', ADMIN_API.users)).json().users.length).toBeLessThanOrEqual(100);
  });

  it('lists groups, and the users of one group', async () => {
    const res = (await asAdmin('GET', `${ADMIN_API.groups}?search=kmi`)).json();
    expect(res).toMatchObject({ success: true, total: 1, groups: [{ code: 'KMI', userCount: 4 }] });
    const kmi = res.groups[0] as AdminGroup;
    const members = (await asAdmin('GET', `${ADMIN_API.groupUsers(kmi._id)}?limit=2`)).json();
    expect(members.total).toBe(4);
    expect(members.users.map((u: AdminUser) => u.name)).toEqual(['Johan Botha', 'Lerato Mokoena']);
    expect((await asAdmin('GET', ADMIN_API.groupUsers(randomUUID()))).statusCode).toBe(404);
    expect((await asAdmin('GET', ADMIN_API.groupUsers('not-a-uuid'))).statusCode).toBe(404);
  });
});
