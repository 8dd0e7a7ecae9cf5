/** API paths of the account and session calls (spec 01 §7), shared by the shell and identity. */
export const API = {
  me: '/api/v1.0/users/me',
  /** The reference fields of the user's request form (their group's references, or claimsReferences). */
  myReferences: '/api/v1.0/users/me/references',
  loggedIn: '/api/v1.0/loggedin',
  login: '/api/v1.0/login',
  register: '/api/v1.0/register',
  logout: '/api/v1.0/logout',
  forgotPassword: '/api/v1.0/forgot-password',
  resetByToken: (tokenId: string) => `/api/v1.0/reset/${encodeURIComponent(tokenId)}`,
  passwordReset: '/api/v1.0/passwordreset',
  passwordResetCallback: '/api/v1.0/passwordresetcb',
  menu: (name: string) => `/admin/menu/${encodeURIComponent(name)}`,
  audit: '/api/v1.0/audit/',
  services: '/api/v1.0/services',
} as const;

/** The name of the HttpOnly cookie that carries the session JWT. */
export const SESSION_COOKIE = 'portal_session';
