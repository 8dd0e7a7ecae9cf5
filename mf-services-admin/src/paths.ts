/** The remote's pages (spec 03 §2). */
export const PATHS = {
  admin: '/services/admin',
  users: '/services/admin/users',
  groups: '/services/admin/groups',
  rates: '/services/admin/rates',
  /** What groups used (issue 22): administrators, and a group's admin for their own group. */
  usage: '/services/admin/usage',
  /** A group's API keys (issue 22): administrators, and the group's own admin. */
  groupApiKeys: '/services/admin/groups/:groupId/api-keys',
  /**
   * The header menu's way in for a group's admin (its Integration entry): their own group's API keys,
   * webhooks and usage, as tabs of one page; the bare path opens the first.
   */
  myGroup: '/services/admin/my-group',
  myGroupApiKeys: '/services/admin/my-group/api-keys',
  myGroupWebhooks: '/services/admin/my-group/webhooks',
  myGroupUsage: '/services/admin/my-group/usage',
  /** A group's webhooks (issue 22): administrators, and the group's own admin. */
  groupWebhooks: '/services/admin/groups/:groupId/webhooks',
} as const;

/** The rates editor of a group, as the spec writes it: /services/admin/rates/?groupID=… */
export const ratesHref = (groupID: string) => `${PATHS.rates}/?groupID=${encodeURIComponent(groupID)}`;

/** A group's webhooks page. */
export const webhooksHref = (groupId: string) =>
  PATHS.groupWebhooks.replace(':groupId', encodeURIComponent(groupId));

/** A group's API keys page. */
export const apiKeysHref = (groupId: string) =>
  PATHS.groupApiKeys.replace(':groupId', encodeURIComponent(groupId));
