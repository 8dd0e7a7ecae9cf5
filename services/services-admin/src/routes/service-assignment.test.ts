import { randomUUID } from 'node:crypto';
import { ADMIN_API } from '@portal/contracts';
import {
  ADMIN,
  PLAIN,
  asAdmin,
  groupByCode,
  latestAudit,
  userByEmail,
  useServicesAdminApp,
} from '../testing/harness';

/** Granting and withdrawing services, to groups and users. */

useServicesAdminApp();

describe('service assignment', () => {
  it('lists every service, and the admin’s own group’s', async () => {
    const all = (await asAdmin('GET', ADMIN_API.allServices)).json();
    expect(all.success).toBe(true);
    expect(all.services.map((s: { identifier: string }) => s.identifier).sort()).toEqual([
      'avs',
      'iris',
      'savi',
      'spatialkey',
    ]);
    expect(all.services[0]).toEqual({
      _id: expect.any(String),
      identifier: expect.any(String),
      name: expect.any(String),
      description: expect.any(String),
      url: expect.any(String),
      image: expect.any(String),
      active: true,
      config: { country: 'ZA', centre: expect.any(Object), zoom: 6 },
    });
    expect((await asAdmin('GET', '/api/v1.0/group/services')).json()).toEqual({
      success: true,
      services: ['avs', 'iris', 'savi', 'spatialkey'],
    });
  });

  it('adds and removes a group’s service idempotently, by identifier or id, auditing each change once', async () => {
    const hvv = await groupByCode('HVV');
    const url = ADMIN_API.groupServices(hvv.id);
    expect((await asAdmin('GET', url)).json().services).toEqual(['iris', 'savi']);

    const added = await asAdmin('POST', url, { service: 'SpatialKey' });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({ success: true, services: ['iris', 'savi', 'spatialkey'] });
    const audit = await latestAudit('group', hvv.id);
    expect(audit).toMatchObject({
      message: 'Service spatialkey granted to group HVV',
      before: { services: ['iris', 'savi'] },
      after: { services: ['iris', 'savi', 'spatialkey'] },
      actorUserId: (await userByEmail(ADMIN)).id,
    });
    expect((await asAdmin('POST', url, { service: 'spatialkey' })).json().services).toHaveLength(3);
    expect((await latestAudit('group', hvv.id))!.id).toBe(audit!.id);

    const spatialKey = (await asAdmin('GET', ADMIN_API.allServices))
      .json()
      .services.find((s: { identifier: string }) => s.identifier === 'spatialkey');
    const removed = await asAdmin('DELETE', ADMIN_API.groupService(hvv.id, spatialKey._id));
    expect(removed.json()).toEqual({ success: true, services: ['iris', 'savi'] });
    expect((await asAdmin('DELETE', ADMIN_API.groupService(hvv.id, 'spatialkey'))).statusCode).toBe(200);
  });

  it('adds and removes a user’s own service', async () => {
    const user = await userByEmail(PLAIN);
    expect((await asAdmin('POST', ADMIN_API.userServices(user.id), { service: 'avs' })).json()).toEqual({
      success: true,
      services: ['avs'],
    });
    expect((await asAdmin('GET', ADMIN_API.userServices(user.id))).json().services).toEqual(['avs']);
    expect(await latestAudit('user', user.id)).toMatchObject({
      message: `Service avs granted to user ${PLAIN}`,
      after: { services: ['avs'] },
    });
    expect((await asAdmin('DELETE', ADMIN_API.userService(user.id, 'avs'))).json().services).toEqual([]);
  });

  it('answers 404 for an unknown service, group or user, and 400 for a bad body', async () => {
    const kmi = await groupByCode('KMI');
    const unknownService = await asAdmin('POST', ADMIN_API.groupServices(kmi.id), { service: 'teleport' });
    expect(unknownService.statusCode).toBe(404);
    expect(unknownService.json().message).toBe("There is no service 'teleport'.");
    expect(
      (await asAdmin('POST', ADMIN_API.groupServices(randomUUID()), { service: 'avs' })).statusCode,
    ).toBe(404);
    expect((await asAdmin('DELETE', ADMIN_API.userService(randomUUID(), 'avs'))).statusCode).toBe(404);
    expect((await asAdmin('GET', ADMIN_API.userServices('x'))).statusCode).toBe(404);
    const bad = await asAdmin('POST', ADMIN_API.groupServices(kmi.id), {});
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("must have required property 'service'");
  });
});
