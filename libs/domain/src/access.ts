import type { MenuItem, SessionClaims } from '@portal/contracts';

/** A user's access-relevant facts, as carried by SessionUser or the JWT claims. */
export interface AccessSubject {
  roles: readonly string[];
}

/**
 * True when the subject may enter something guarded by `allowed`:
 * 'anonymous' lets anyone in, 'authenticated' any logged-in user, any other entry is a role.
 */
export function canAccess(subject: AccessSubject | null | undefined, allowed: readonly string[]): boolean {
  if (allowed.length === 0 || allowed.includes('anonymous')) return true;
  if (!subject) return false;
  if (allowed.includes('authenticated') && subject.roles.includes('authenticated')) return true;
  return allowed.some((role) => role !== 'authenticated' && subject.roles.includes(role));
}

/** Spec 03 "Header menu". */
export const HEADER_MENU: MenuItem[] = [
  { label: 'Home', path: '/', roles: ['anonymous'] },
  { label: 'Requests', path: '/requests', roles: ['authenticated'] },
  { label: 'Requests Admin', path: '/requests/admin', roles: ['admin', 'saviOperator'] },
  { label: 'User Admin', path: '/services/admin', roles: ['admin'] },
  // Ours (issue 22): a group's admin reaches their group's integration — its API keys, webhooks and usage,
  // tabs of one page (mf-services-admin PATHS.myGroup).
  { label: 'Integration', path: '/services/admin/my-group', roles: ['groupAdmin'] },
  // Ours (issue 24): the operations dashboard (mf-requests-admin PATHS.insight); a group's admin sees their group.
  { label: 'Insight', path: '/requests/insight', roles: ['admin', 'saviOperator', 'groupAdmin'] },
];

/** Menus served by GET /admin/menu/{name}. */
export const MENUS: Record<string, MenuItem[]> = { header: HEADER_MENU };

/**
 * Roles derived from a user's flags; every active user carries 'authenticated'. `groupAdmin` is not a flag
 * of the user's row but a fact of their group's (identity.groups.admin_user_id is the user, the group
 * active): whoever reads the row says whether it holds (identity's session and users/me, server-kit's
 * callerHooks, services-admin's guards), and leaving it out means "no".
 */
export function rolesOf(flags: {
  isAdmin: boolean;
  ratesEditor: boolean;
  saviOperator: boolean;
  saviQC: boolean;
  groupAdmin?: boolean;
}): string[] {
  const roles = ['authenticated'];
  if (flags.isAdmin) roles.push('admin');
  if (flags.ratesEditor) roles.push('ratesEditor');
  if (flags.saviOperator) roles.push('saviOperator');
  if (flags.saviQC) roles.push('saviQC');
  if (flags.groupAdmin) roles.push('groupAdmin');
  return roles;
}

/** A user as the accounts table holds it: what a session's claims are made of. */
export interface ClaimsSubject {
  id: string;
  email: string;
  name: string;
  isAdmin: boolean;
  ratesEditor: boolean;
  saviOperator: boolean;
  saviQC: boolean;
  groupId: string | null;
  claimsUser: boolean;
  /** The admin of their own active group (role 'groupAdmin'); absent: not. */
  groupAdmin?: boolean;
}

/** The claims identity signs into a user's session (and the tests sign for a user): roles from the flags. */
export function sessionClaimsOf(user: ClaimsSubject): SessionClaims {
  return {
    sub: user.id,
    email: user.email,
    name: user.name,
    roles: rolesOf(user),
    groupId: user.groupId,
    claimsUser: user.claimsUser,
  };
}
