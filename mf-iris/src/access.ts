/**
 * Spec 03 §2: unauthenticated users, or users without the service active, are sent home. The IRiS screen
 * needs the iris service (own or group's), as /savi needs savi.
 */
export const IRIS_SERVICES = ['iris'] as const;
