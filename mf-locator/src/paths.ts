/** The locator remote's routes (spec 01 §2), each also with a trailing slash. */
export const PATHS = {
  savi: '/savi',
  avs: '/avs',
  locate: '/locate',
  spatialKey: '/spatialkey',
} as const;

/** Which services open which screen: a user without one of them active is sent home (spec 01 §2). */
export const SERVICES_FOR = {
  savi: ['savi'],
  avs: ['avs'],
  // Looking a property up is part of the request tool and of address validation.
  locate: ['savi', 'avs'],
  spatialKey: ['spatialkey'],
} as const;
