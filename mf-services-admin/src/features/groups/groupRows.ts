import type { AdminGroup, GroupUpdateBody } from '@portal/contracts';

/** Spec 03 §5: a groups-grid edit is saved only when the group has both an admin and a code. */
export function canSaveGroup(group: Pick<AdminGroup, 'admin' | 'code'>): boolean {
  return Boolean(group.admin) && group.code.trim() !== '';
}

const EDITABLE_FIELDS = [
  'name',
  'code',
  'admin',
  'active',
  'includeVAT',
  'includeProfessionalFee',
  'professionalFeePercentage',
  'extraField',
  'reportNameFormat',
  'references',
  'claimsReferences',
] as const satisfies readonly (keyof GroupUpdateBody & keyof AdminGroup)[];

/** The fields of `edited` that differ from `saved`, as POST group/{id} takes them. */
export function groupChanges(saved: AdminGroup, edited: AdminGroup): GroupUpdateBody {
  const changes: Record<string, unknown> = {};
  for (const field of EDITABLE_FIELDS) {
    if (JSON.stringify(saved[field]) !== JSON.stringify(edited[field])) changes[field] = edited[field];
  }
  if (typeof changes.name === 'string') changes.name = changes.name.trim();
  if (typeof changes.code === 'string') changes.code = changes.code.trim();
  return changes as GroupUpdateBody;
}
