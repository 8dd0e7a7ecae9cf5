import type { SessionUser } from '@portal/contracts';

/**
 * Session users for the remotes' screen tests (@portal/web-kit/testing): what GET users/me answers for the
 * seed's demo accounts (libs/db's DEMO_ACCOUNTS), complete as the contract has them. A remote's test that
 * needs another group or other services spreads one and changes what differs.
 */
export function sessionUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    _id: 'u6',
    name: 'Johan Botha',
    email: 'user@portal.test',
    authenticated: true,
    isAdmin: false,
    group: null,
    groupID: 'g-kmi',
    groupName: 'Karoo Mutual Insurance',
    active: true,
    avsServiceUrl: '',
    includeIds: false,
    includeAll: false,
    ratesEditor: false,
    saviOperator: false,
    saviQC: false,
    claimsUser: false,
    roles: ['authenticated'],
    services: ['savi', 'iris'],
    groupDoubleVolumePercent: 0,
    groupIncludeProfessionalFee: false,
    groupProfessionalFeePercentage: 0,
    groupIncludeVAT: false,
    ...overrides,
  };
}

const operations = { groupID: 'g-ops', groupName: 'Portal Operations' };

/** A plain user of an insurer (Karoo Mutual Insurance): sees their own requests only. */
export const plainUser = sessionUser();

/** The administrator: every admin screen. */
export const adminUser = sessionUser({
  ...operations,
  _id: 'u1',
  name: 'Thandiwe Nkosi',
  email: 'admin@portal.test',
  isAdmin: true,
  includeIds: true,
  roles: ['authenticated', 'admin'],
});

/** A SAVi operator: the request queue, the report builder, the address editor. */
export const operatorUser = sessionUser({
  ...operations,
  _id: 'u2',
  name: 'Pieter van der Merwe',
  email: 'operator@portal.test',
  saviOperator: true,
  roles: ['authenticated', 'saviOperator'],
});

/** An operator who also checks quality (QC). */
export const qcUser = sessionUser({
  ...operations,
  _id: 'u3',
  name: 'Ayesha Patel',
  email: 'qc@portal.test',
  saviOperator: true,
  saviQC: true,
  roles: ['authenticated', 'saviOperator', 'saviQC'],
});
