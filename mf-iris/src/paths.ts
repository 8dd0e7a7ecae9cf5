/** The remote's page (spec 03 §2 "IRiS request and report screen"). */
export const PATHS = { iris: '/iris' } as const;
