/** The locator remote's routes (spec 01 §2), each also with a trailing slash. */
export const PATHS = {
  savi: '/savi',
  avs: '/avs',
  locate: '/locate',
  spatialKey: '/spatialkey',
} as const;
