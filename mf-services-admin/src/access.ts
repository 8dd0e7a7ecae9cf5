/** Who may use the remote's screens (spec 03 §2, §6). The services check the same roles. */
export const ADMIN_ROLES = ['admin'];
/** The rates editor is for rates editors, and for admins. */
export const RATES_ROLES = ['admin', 'ratesEditor'];
/** The usage page: administrators (any group), a group's admin (their own). */
export const USAGE_ROLES = ['admin', 'groupAdmin'];
/** A group's integration (API keys): administrators, and a group's admin for their own group. */
export const INTEGRATION_ROLES = ['admin', 'groupAdmin'];
