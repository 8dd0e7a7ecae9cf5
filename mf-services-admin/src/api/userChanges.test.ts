import type { AdminUser } from '@portal/contracts';
import { serviceChanges, userChanges } from './userChanges';

const user: AdminUser = {
  _id: 'u6',
  name: 'Johan Botha',
  email: 'user@portal.test',
  group: 'g1',
  groupName: 'Karoo Mutual Insurance',
  active: true,
  admin: false,
  ratesEditor: false,
  saviOperator: false,
  saviQC: false,
  claimsUser: false,
  services: [],
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('users grid rows', () => {
  it('sends only the field a cell edit changed', () => {
    expect(userChanges(user, { ...user, saviOperator: true })).toEqual({ saviOperator: true });
    expect(userChanges(user, { ...user, group: null, groupName: '' })).toEqual({ group: null });
    expect(userChanges(user, { ...user, name: ' Johan B. ' })).toEqual({ name: 'Johan B.' });
  });

  it('works out the services to add and remove', () => {
    expect(serviceChanges(['avs', 'iris'], ['iris', 'savi'])).toEqual({ added: ['savi'], removed: ['avs'] });
  });
});
