import type { AdminUser, UserUpdateBody } from '@portal/contracts';
import { ADMIN_TEXT } from '../texts';

const EDITABLE_FIELDS = [
  'name',
  'group',
  'active',
  'admin',
  'ratesEditor',
  'saviOperator',
  'saviQC',
  'claimsUser',
] as const satisfies readonly (keyof UserUpdateBody & keyof AdminUser)[];

/** The fields of `edited` that differ from `saved`, as POST user/{id} takes them (spec 03 §7). */
export function userChanges(saved: AdminUser, edited: AdminUser): UserUpdateBody {
  const changes: Record<string, unknown> = {};
  for (const field of EDITABLE_FIELDS) {
    if (saved[field] !== edited[field]) changes[field] = edited[field];
  }
  if (typeof changes.name === 'string') changes.name = changes.name.trim();
  return changes as UserUpdateBody;
}

/** Which services to add and which to remove to go from `before` to `after`. */
export function serviceChanges(before: readonly string[], after: readonly string[]) {
  return {
    added: after.filter((service) => !before.includes(service)),
    removed: before.filter((service) => !after.includes(service)),
  };
}

/** The user's flags, as the dialog and the users grid label them (spec 03 "Users grid"). */
export const USER_FLAGS = [
  { field: 'active', label: 'Active' },
  { field: 'admin', label: 'Admin' },
  { field: 'ratesEditor', label: 'Rates editor' },
  { field: 'saviOperator', label: 'SAVi operator' },
  { field: 'saviQC', label: 'SAVi QC' },
  { field: 'claimsUser', label: ADMIN_TEXT.claimsUserHeader },
] as const satisfies readonly { field: keyof AdminUser; label: string }[];
export type UserFlag = (typeof USER_FLAGS)[number]['field'];
