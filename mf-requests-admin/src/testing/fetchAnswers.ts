import { type RequestRow, type SessionUser } from '@portal/contracts';

// The fetch answers are web-kit's; the users and rows here are this remote's.
export { json, errorAnswer, answerFetch, callsTo, meAnswer } from '@portal/web-kit/testing';

export const operatorUser = {
  _id: 'u2',
  name: 'Pieter van der Merwe',
  email: 'operator@portal.test',
  isAdmin: false,
  saviOperator: true,
  saviQC: false,
  groupID: 'g-ops',
  groupName: 'Portal Operations',
  roles: ['authenticated', 'saviOperator'],
} as SessionUser;
export const qcUser = {
  ...operatorUser,
  _id: 'u3',
  name: 'Ayesha Patel',
  saviQC: true,
  roles: [...operatorUser.roles, 'saviQC'],
} as SessionUser;
export const plainUser = {
  ...operatorUser,
  _id: 'u6',
  name: 'Johan Botha',
  saviOperator: false,
  roles: ['authenticated'],
} as SessionUser;

/** A grid row as the pager answers it. */
export const requestRow = (overrides: Partial<RequestRow> = {}): RequestRow => ({
  requestID: '11111111-1111-4111-8111-111111111111',
  type: 'SAVI',
  subType: 'Replacement Value Estimate',
  priority: 'No',
  gripReference: 'GRP-2611-000001',
  user: 'Johan Botha',
  userId: 'u6',
  email: 'user@portal.test',
  created: '2026-11-20T08:00:00.000Z',
  status: 'New',
  firstQS: null,
  firstUser: null,
  address: '12 Church Street, Stellenbosch',
  coordinates: { lat: -33.9321, lng: 18.8602 },
  comments: '',
  note: '',
  timeInQueue: 3,
  cantlocate: 'No',
  downloaded: 'No',
  invoice: null,
  disputed: 'No',
  client: 'Karoo Mutual Insurance',
  clientReference: '{"POLICY_NUMBER":"KM123456"}',
  reportFee: null,
  rve: null,
  preliminaryRve: null,
  rveType: null,
  numberOfBuildings: null,
  unitPrice: null,
  reportPdfUrl: null,
  reportId: null,
  dateFinalised: null,
  version: 1,
  ...overrides,
});
