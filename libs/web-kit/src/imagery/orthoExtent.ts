import type { Extent } from 'ol/extent';
import { fromLonLat } from 'ol/proj';
import type { LatLng, ObliqueCamera } from '@portal/contracts';
import { builtinCamera } from '@portal/domain';

/** The built-in ortho's camera when an answer carries none (1024 × 768 px, 110 m across). */
export const FALLBACK_ORTHO_CAMERA: ObliqueCamera = builtinCamera('o', 1024, 768);

/** The built-in renderer centres its pictures on the point rounded to 5 decimals (~1 m). */
export const roundedPoint = ({ lat, lng }: LatLng): LatLng => ({
  lat: Number(lat.toFixed(5)),
  lng: Number(lng.toFixed(5)),
});

/**
 * Where an ortho picture lies on a Web Mercator map: north up, centred on the (rounded) point,
 * `metresAcross` of ground wide and as high as its pixels' ratio says. Web Mercator stretches ground
 * distances by 1 / cos(latitude), so the extent is that much larger in map units than in metres.
 */
export function orthoExtent(point: LatLng, camera: ObliqueCamera = FALLBACK_ORTHO_CAMERA): Extent {
  const centre = roundedPoint(point);
  const [x, y] = fromLonLat([centre.lng, centre.lat]);
  const stretch = 1 / Math.cos((centre.lat * Math.PI) / 180);
  const halfWidth = (camera.metresAcross / 2) * stretch;
  const halfHeight = ((camera.metresAcross * camera.height) / camera.width / 2) * stretch;
  return [x - halfWidth, y - halfHeight, x + halfWidth, y + halfHeight];
}
