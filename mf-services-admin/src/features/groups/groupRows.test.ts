import type { AdminGroup } from '@portal/contracts';
import { canSaveGroup, groupChanges } from './groupRows';

const group: AdminGroup = {
  _id: 'g1',
  name: 'Karoo Mutual Insurance',
  code: 'KMI',
  admin: 'u1',
  adminLabel: 'Thandiwe Nkosi (admin@portal.test)',
  active: true,
  includeVAT: true,
  includeProfessionalFee: true,
  professionalFeePercentage: 12.5,
  extraField: 'Betterments',
  reportNameFormat: '',
  references: [['Policy Number', 'POLICY_NUMBER', 0, true]],
  claimsReferences: [],
  services: ['savi'],
  userCount: 3,
};

describe('groups grid rows', () => {
  it('saves an edit only with both an admin and a code (spec 03 §5)', () => {
    expect(canSaveGroup(group)).toBe(true);
    expect(canSaveGroup({ ...group, admin: null })).toBe(false);
    expect(canSaveGroup({ ...group, code: '  ' })).toBe(false);
  });

  it('sends only what changed, trimmed', () => {
    expect(groupChanges(group, { ...group, code: ' KMI2 ', adminLabel: 'changes with admin' })).toEqual({
      code: 'KMI2',
    });
    expect(groupChanges(group, { ...group, references: [] })).toEqual({ references: [] });
    expect(groupChanges(group, { ...group })).toEqual({});
  });
});
