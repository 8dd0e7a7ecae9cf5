import { randomUUID } from 'node:crypto';
import { ADMIN_API, type AdminGroup } from '@portal/contracts';
import { RateEntity } from '@portal/db';
import {
  ADMIN,
  asAdmin,
  env,
  groupByCode,
  groups,
  latestAudit,
  userByEmail,
  useServicesAdminApp,
} from '../testing/harness';

/** Creating, updating and deleting groups. */

useServicesAdminApp();

describe('groups', () => {
  const newGroup = {
    name: 'Cape Coastal Brokers',
    code: 'CCB',
    admin: null as string | null,
    references: [
      ['Policy Number', ''],
      ['Broker e-mail', ''],
      ['Branch', 'BRANCH_CODE', 7, false, '^[0-9]{3}$', 'Three digits'],
    ],
    extraField: 'Betterments',
    includeVAT: true,
    professionalFeePercentage: 7.5,
  };

  it('creates a group, completing its references, and audits it', async () => {
    const admin = await userByEmail(ADMIN);
    const res = await asAdmin('PUT', ADMIN_API.groups, {
      ...newGroup,
      admin: admin.id,
      references: [
        ['Policy Number', ''],
        ['Broker e-mail', null],
        ['Branch', 'BRANCH_CODE', 7, false, '^[0-9]{3}$', 'Three digits'],
      ],
    });
    expect(res.statusCode).toBe(201);
    const { success, group } = res.json() as { success: boolean; group: AdminGroup };
    expect(success).toBe(true);
    expect(group).toMatchObject({
      name: 'Cape Coastal Brokers',
      code: 'CCB',
      admin: admin.id,
      adminLabel: 'Thandiwe Nkosi (admin@portal.test)',
      active: true,
      includeVAT: true,
      includeProfessionalFee: false,
      professionalFeePercentage: 7.5,
      extraField: 'Betterments',
      reportNameFormat: '',
      claimsReferences: [],
      services: [],
      userCount: 0,
    });
    expect(group.references).toEqual([
      ['Policy Number', 'POLICY_NUMBER', 0, true],
      ['Broker e-mail', 'BROKER_E_MAIL', 1, true],
      ['Branch', 'BRANCH_CODE', 7, false, '^[0-9]{3}$', 'Three digits'],
    ]);
    expect(await latestAudit('group', group._id)).toMatchObject({
      message: 'Group CCB created',
      before: null,
      after: { name: 'Cape Coastal Brokers', code: 'CCB', adminUserId: admin.id },
    });
  });

  it.each([
    [{ code: 'ccb' }, 409, "A group with the code 'ccb' already exists."],
    [{ code: 'NEW', admin: randomUUID() }, 400, 'The group admin must be an existing user.'],
    [{ code: 'NEW', admin: 'someone' }, 400, 'The group admin must be an existing user.'],
    [{ code: 'NEW', name: '   ' }, 400, 'Name may not be empty.'],
    [{ code: '  ' }, 400, 'Code may not be empty.'],
    [{ code: 'NEW', references: [['  ', 'KEY', 0, true]] }, 400, 'A reference needs a label.'],
    [
      {
        code: 'NEW',
        references: [
          ['A b', ''],
          ['A-B', null],
        ],
      },
      400,
      'Two references have the key A_B.',
    ],
    [
      { code: 'NEW', references: [['Ref', 'REF', 0, true, '(']] },
      400,
      "The pattern of reference 'Ref' is not a valid regular expression.",
    ],
    [
      { code: 'NEW', references: [['Ref', 'REF', 0, 'yes']] },
      400,
      "The required flag of reference 'Ref' must be true or false.",
    ],
    [{ code: 'NEW', professionalFeePercentage: 150 }, 400, 'body/professionalFeePercentage must be <= 100'],
    [{ code: undefined }, 400, "body must have required property 'code'"],
  ])('refuses a new group with %j', async (change, status, message) => {
    const res = await asAdmin('PUT', ADMIN_API.groups, { ...newGroup, ...change });
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toContain(message);
    expect(await groups().existsBy({ code: 'NEW' })).toBe(false);
  });

  it('updates only the fields sent, audits before and after, and keeps codes unique', async () => {
    const ccb = await groupByCode('CCB');
    const res = await asAdmin('POST', ADMIN_API.group(ccb.id), {
      active: false,
      reportNameFormat: '{ref}-{address}',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().group).toMatchObject({
      name: 'Cape Coastal Brokers',
      active: false,
      reportNameFormat: '{ref}-{address}',
    });
    expect(await latestAudit('group', ccb.id)).toMatchObject({
      message: 'Group CCB updated',
      before: { active: true, reportNameFormat: '' },
      after: { active: false, reportNameFormat: '{ref}-{address}' },
    });

    expect((await asAdmin('POST', ADMIN_API.group(ccb.id), { code: 'CCB' })).statusCode).toBe(200);
    const taken = await asAdmin('POST', ADMIN_API.group(ccb.id), { code: 'kmi' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe("A group with the code 'kmi' already exists.");
    const cleared = await asAdmin('POST', ADMIN_API.group(ccb.id), {
      admin: null,
      claimsReferences: [['Claim', '']],
    });
    expect(cleared.json().group).toMatchObject({
      admin: null,
      adminLabel: '',
      claimsReferences: [['Claim', 'CLAIM', 0, true]],
    });
    expect((await asAdmin('POST', ADMIN_API.group(randomUUID()), { name: 'X' })).statusCode).toBe(404);
  });

  it('refuses to delete a group with users, and deletes an empty one with its links and rates', async () => {
    const kmi = await groupByCode('KMI');
    const refused = await asAdmin('DELETE', ADMIN_API.group(kmi.id));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This group still has 4 user(s). Move them to another group first.');

    const ccb = await groupByCode('CCB');
    await asAdmin('POST', ADMIN_API.groupServices(ccb.id), { service: 'avs' });
    await asAdmin('POST', ADMIN_API.saveRates, {
      groupID: ccb.id,
      rates: [{ type: 'Dwelling', standard: 1 }],
    });
    const deleted = await asAdmin('DELETE', ADMIN_API.group(ccb.id));
    expect(deleted.json()).toEqual({ success: true, message: 'Group deleted.' });
    expect(await groups().existsBy({ id: ccb.id })).toBe(false);
    expect(await env.db.dataSource.getRepository(RateEntity).countBy({ groupId: ccb.id })).toBe(0);
    expect(await latestAudit('group', ccb.id)).toMatchObject({
      message: 'Group CCB deleted',
      before: { code: 'CCB', services: ['avs'] },
      after: null,
    });
    expect((await asAdmin('DELETE', ADMIN_API.group(ccb.id))).statusCode).toBe(404);
  });
});
