/**
 * Spec 01 §2: which services open which screen; a user without one of them active is sent home
 * (RequireService). The services check the same.
 */
export const SAVI_SERVICES = ['savi'] as const;
export const AVS_SERVICES = ['avs'] as const;
/** Looking a property up is part of the request tool and of address validation. */
export const LOCATE_SERVICES = ['savi', 'avs'] as const;
export const SPATIALKEY_SERVICES = ['spatialkey'] as const;
