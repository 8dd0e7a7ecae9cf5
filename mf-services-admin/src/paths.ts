/** The remote's pages (spec 03 §2). */
export const PATHS = {
  admin: '/services/admin',
  users: '/services/admin/users',
  groups: '/services/admin/groups',
  rates: '/services/admin/rates',
  /** What groups used (issue 22): administrators, and a group's admin for their own group. */
  usage: '/services/admin/usage',
} as const;

/** The rates editor of a group, as the spec writes it: /services/admin/rates/?groupID=… */
export const ratesHref = (groupID: string) => `${PATHS.rates}/?groupID=${encodeURIComponent(groupID)}`;
