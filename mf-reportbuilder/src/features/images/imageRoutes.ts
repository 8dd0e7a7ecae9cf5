import type { RouteObject } from '@portal/web-kit';
import { IMAGE_PATHS, type ImageScreen } from '../../report/imageTargets';

const PAGE: Record<ImageScreen, string> = {
  property: 'PropertyImagePage',
  section: 'SectionImagePage',
  building: 'BuildingImagePage',
  floor: 'FloorImagePage',
  buildingImprovement: 'BuildingImprovementImagePage',
  sectionImprovement: 'SectionImprovementImagePage',
};

/** The image pages (spec 02 §2.1), each loaded on first use; routes.tsx spreads them under its guard. */
export const imageRoutes: RouteObject[] = [
  ...(Object.keys(PAGE) as ImageScreen[]).map((screen) => ({
    path: IMAGE_PATHS[screen],
    lazy: async () => {
      const pages = await import('./routes/ImageCapturePage');
      return { Component: pages[PAGE[screen] as keyof typeof pages] as React.ComponentType };
    },
  })),
  {
    path: IMAGE_PATHS.upload,
    lazy: async () => ({ Component: (await import('./routes/ImageUploadPage')).ImageUploadPage }),
  },
];
