import { ADDRESS_EDITOR_ROLES } from '@portal/domain';

/** Spec 03 §1: operators edit addresses and parcels (admin, saviOperator). The service checks the same. */
export const EDITOR_ROLES = [...ADDRESS_EDITOR_ROLES];
