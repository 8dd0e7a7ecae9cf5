/**
 * What the services-administration screens say. The spec's texts (spec 03 §8) are verbatim; the others
 * are ours, where the spec gives none.
 */
export const ADMIN_TEXT = {
  // Spec 03 §8, verbatim.
  failedToCreateGroup: 'Failed to create group',
  failedToUpdateGroup: 'Failed to update group',
  failedToDeleteGroup: 'Failed to delete group',
  failedToUpdateUser: 'Failed to update user',
  failedToDeleteUser: 'Failed to delete user',
  /** The spec's one text for any failed service add or remove, for users too. */
  failedToChangeService: 'Failed to add service to group',
  loadingError: 'Loading error',
  loading: 'Loading ... ',
  // Spec 03 "Users grid": the claimsUser column's header.
  claimsUserHeader: 'Santam Claims',
  // Ours.
  groupNotSaved: 'Group not saved: a group needs an admin and a code.',
  ratesSaved: 'Rates saved',
  failedToSaveRates: 'Failed to save rates',
  failedToImportRates: 'Failed to import rates',
  noGroupChosen:
    'No group chosen: open the rates editor from a group, or add ?groupID=<group id> to the address.',
} as const;
