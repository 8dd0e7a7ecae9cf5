/** Spec 02 §2.2: the console and the QC screens are for admins and SAVi operators. The service checks the same. */
export const CONSOLE_ROLES = ['admin', 'saviOperator'];
/** Spec 02 §2.2, spec 03 §2: the request list, the QS checklist and the duplicate check for anyone signed in. */
export const SIGNED_IN = ['authenticated'];
/** Ours (issue 24): the operations dashboard for the console's roles and a group's admin (their group). */
export const INSIGHT_ROLES = ['admin', 'saviOperator', 'groupAdmin'];
