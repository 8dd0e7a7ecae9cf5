import { API } from './paths';

/**
 * The identity service's routes as services/identity registers them (Fastify's `:param` spelling). These
 * are the keys libs/domain/src/routeAccess.ts looks a route up by, so a path here changes only with its entry
 * there; the shell builds its URLs with API.
 */
export const IDENTITY_ROUTES = {
  me: API.me,
  myReferences: API.myReferences,
  loggedIn: API.loggedIn,
  login: API.login,
  register: API.register,
  logout: API.logout,
  forgotPassword: API.forgotPassword,
  resetByToken: '/api/v1.0/reset/:tokenId',
  passwordReset: API.passwordReset,
  passwordResetCallback: API.passwordResetCallback,
  menu: '/admin/menu/:name',
  audit: API.audit,
  services: API.services,
} as const;
