/** User-facing texts of the spec, verbatim. One place so the UI and services cannot drift. */
export const TEXT = {
  pleaseLogIn: 'Please log in.',
  failedToLoadServices: 'Failed to load services.',
  tokenInvalidOrExpired: 'Token invalid or expired',
  resetInvalidToken: 'Could not update password as token is invalid or may have expired',
  unknownError: 'Unknown error',
} as const;

/** Texts the spec leaves to us ("not shown"); chosen in docs/decisions.md. */
export const ACCOUNT_TEXT = {
  loginFailed: 'Incorrect e-mail or password.',
  accountInactive: 'This account is inactive. Please contact your administrator.',
  emailTaken: 'An account with this e-mail address already exists.',
  registered: 'Registration successful. Welcome!',
  loggedOut: 'Logged out.',
  resetMailSent: 'If an account exists for that e-mail address, a password reset link has been sent to it.',
  passwordUpdated: 'Your password has been updated. You can now log in.',
  commonPassword: 'Password is too common. Please choose a less predictable password.',
  tooManyAttempts: (seconds: number) =>
    `Too many attempts. Please wait ${Math.max(1, Math.ceil(seconds / 60))} minute(s) and try again.`,
  notLoggedIn: 'You need to log in to do that.',
  forbidden: 'You do not have permission to do that.',
} as const;

/** Spec 01 §9 timings (milliseconds). */
export const TIMING = {
  loginErrorMs: 2000,
  registerRedirectMs: 2000,
  resetCallbackRedirectMs: 4000,
  formWarningMs: 3000,
  savedBannerMs: 2000,
  generalMessageMs: 5000,
  unauthenticatedRedirectMs: 2000,
  notSavedNoticeMs: 10000,
} as const;

/** Spec 01 §9 map constants. */
export const MAP_DEFAULTS = {
  centre: { lat: -28.96642, lng: 24.181142 },
  zoom: 6,
  maxZoom: 24,
  fitMaxZoom: 18,
  tileSize: 512,
  maxNativeZoom: 17,
} as const;

/** Spec 03 §9: the not-found map keeps at most this many random markers. */
export const NOT_FOUND_MAX_MARKERS = 100;
