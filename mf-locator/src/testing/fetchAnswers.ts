import { type SessionUser } from '@portal/contracts';

// The fetch answers are web-kit's; the users here are this remote's.
export { json, errorAnswer, answerFetch, callsTo, meAnswer } from '@portal/web-kit/testing';

export const adminUser = {
  _id: 'u1',
  name: 'Thandiwe Nkosi',
  email: 'admin@portal.test',
  groupID: 'g-ops',
  groupName: 'Portal Operations',
  roles: ['authenticated', 'admin'],
} as SessionUser;
