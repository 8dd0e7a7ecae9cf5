import { REPORTBUILDER_API } from '@portal/contracts';
import type { ImageExistsArgs } from '../api/imagesApi';

/** The image pages of spec 02 §2.1 (one capture screen for every target) and the upload page. */
export const IMAGE_PATHS = {
  property: '/reportbuilder/property-overview-image',
  section: '/reportbuilder/section-overview-image',
  building: '/reportbuilder/building-overview-image',
  floor: '/reportbuilder/building-floor-image',
  buildingImprovement: '/reportbuilder/building-improvement-overview-image',
  sectionImprovement: '/reportbuilder/section-improvement-overview-image',
  upload: '/reportbuilder/image-upload',
} as const;

export type ImageScreen = Exclude<keyof typeof IMAGE_PATHS, 'upload'>;

/** The parameters a capture screen takes (floorID only on the floor's; not kept in session storage). */
export interface ImageParams {
  requestID: string;
  sectionID?: string | null;
  buildingID?: string | null;
  floorID?: string | null;
  improvementID?: string | null;
}

/** What a capture screen works on: the service's names of its target, where to go back to, what it offers. */
export interface ImageTarget {
  screen: ImageScreen;
  title: string;
  /** The `type` of POST image and POST image/crop (services/reportbuilder src/images/targets.ts). */
  type: string;
  /** The stem of the target's file names (src/images/keys.ts). */
  stem: string;
  exists: ImageExistsArgs;
  /** DELETE image/{requestID}/{sectionID}[/{buildingID}] ('property' for the property); the service has none for floors and improvements. */
  remove?: { sectionID: string; buildingID?: string };
  /** POST image/copy: the property's image to a section, a section's to a building. */
  copy?: { sectionID: string; buildingID?: string; label: string };
  /** The parent overview (spec 02 §4.4: after the save). */
  parentHref: string;
}

const withQuery = (path: string, params: Record<string, string>) => `${path}?${new URLSearchParams(params)}`;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The target of a screen with its parameters; null when a parameter it needs is missing or unusable. */
export function imageTargetOf(screen: ImageScreen, params: ImageParams): ImageTarget | null {
  const { requestID } = params;
  const s = params.sectionID ?? '';
  const b = params.buildingID ?? '';
  const f = params.floorID ?? '';
  const i = params.improvementID ?? '';
  const need = (...ids: string[]) => ids.every((id) => ID.test(id));
  const exists = (type: string, first = '-', second = '-', third = '-') => ({
    requestID,
    type,
    first,
    second,
    third,
  });
  switch (screen) {
    case 'property':
      return {
        screen,
        title: 'Property image',
        type: 'property',
        stem: 'property',
        exists: exists('property'),
        remove: { sectionID: 'property' },
        parentHref: withQuery('/reportbuilder/property-overview', { requestID }),
      };
    case 'section':
      if (!need(s)) return null;
      return {
        screen,
        title: 'Section image',
        type: `section/${s}`,
        stem: `section-${s}`,
        exists: exists('section', s),
        remove: { sectionID: s },
        copy: { sectionID: s, label: 'Copy the property image' },
        parentHref: withQuery('/reportbuilder/section-overview', { requestID, sectionID: s }),
      };
    case 'building':
      if (!need(s, b)) return null;
      return {
        screen,
        title: 'Building image',
        type: `building/${s}/${b}`,
        stem: `section-${s}-building-${b}`,
        exists: exists('building', s, b),
        remove: { sectionID: s, buildingID: b },
        copy: { sectionID: s, buildingID: b, label: 'Copy the section image' },
        parentHref: withQuery('/reportbuilder/building-overview', { requestID, sectionID: s, buildingID: b }),
      };
    case 'floor':
      if (!need(s, b, f)) return null;
      return {
        screen,
        title: 'Floor image',
        type: `floor/${s}/${b}/${f}`,
        stem: `section-${s}-building-${b}-floor-${f}`,
        exists: exists('floor', s, b, f),
        parentHref: withQuery('/reportbuilder/building-overview', { requestID, sectionID: s, buildingID: b }),
      };
    case 'buildingImprovement':
      if (!need(s, b, i)) return null;
      return {
        screen,
        title: 'Improvement image',
        type: `improvement/${s}/${b}/${i}`,
        stem: `section-${s}-building-${b}-improvement-${i}`,
        exists: exists('improvement', s, b, i),
        parentHref: withQuery('/reportbuilder/building-improvement-overview', {
          requestID,
          sectionID: s,
          buildingID: b,
          improvementID: i,
        }),
      };
    case 'sectionImprovement':
      if (!need(s, i)) return null;
      return {
        screen,
        title: 'Improvement image',
        type: `improvement/${s}/${i}`,
        stem: `section-${s}-improvement-${i}`,
        exists: exists('improvement', s, '-', i),
        parentHref: withQuery('/reportbuilder/section-improvement-overview', {
          requestID,
          sectionID: s,
          improvementID: i,
        }),
      };
  }
}

/** Where the target's cropped image is served: the PNG, or its JPEG (≤ 1280 px wide) for display. */
export const croppedImageUrl = (requestID: string, stem: string, variant: 'png' | 'jpg' = 'jpg') =>
  `${REPORTBUILDER_API.uploads(requestID)}${stem}-base-image-cropped${variant === 'png' ? '.png' : '.compressed.jpg'}`;

/** The capture screen's address for a target. */
export const imageScreenHref = (screen: ImageScreen, params: ImageParams) =>
  withQuery(
    IMAGE_PATHS[screen],
    Object.fromEntries(Object.entries(params).filter((e): e is [string, string] => typeof e[1] === 'string')),
  );

export const imageUploadHref = (requestID: string) => withQuery(IMAGE_PATHS.upload, { requestID });
