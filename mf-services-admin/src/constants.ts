import { PAGE_SIZES } from '@portal/contracts';

/** Spec 03 §9: the page sizes of the server-paged grids, and the default. */
export { PAGE_SIZES };
export const DEFAULT_PAGE_SIZE: (typeof PAGE_SIZES)[number] = 20;

/** Spec 03 §9 sizes, in pixels. */
export const LAYOUT = {
  gridHeight: 750,
  newGroupDialogHeight: 570,
  newGroupDialogHeightPerReference: 69,
  userDialogHeight: 775,
} as const;

/** The group dialog grows with its references (spec 03 §9). */
export const groupDialogHeight = (referenceCount: number) =>
  LAYOUT.newGroupDialogHeight + LAYOUT.newGroupDialogHeightPerReference * referenceCount;

/** The portal's services as the toggles and tags show them (spec 03 §2 "Users grid"). */
export const SERVICE_CHOICES = [
  { identifier: 'avs', label: 'AVS' },
  { identifier: 'iris', label: 'IRiS' },
  { identifier: 'savi', label: 'SAVi' },
  { identifier: 'spatialkey', label: 'SpatialKey' },
] as const;

export const serviceLabel = (identifier: string) =>
  SERVICE_CHOICES.find((service) => service.identifier === identifier)?.label ?? identifier;
