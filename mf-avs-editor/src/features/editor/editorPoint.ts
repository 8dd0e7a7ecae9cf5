import type { LatLng } from '@portal/contracts';
import { roundCoordinate } from '@portal/domain';

/** A point at the precision the editor stores and shows. */
export const rounded = (point: LatLng): LatLng => ({
  lat: roundCoordinate(point.lat),
  lng: roundCoordinate(point.lng),
});

/** The marker's point from the page's address (?lat=…&lng=…), or null when there is none or it is no point. */
export function readPoint(search: URLSearchParams): LatLng | null {
  const lat = Number(search.get('lat'));
  const lng = Number(search.get('lng'));
  if (!search.get('lat') || !search.get('lng') || !Number.isFinite(lat) || !Number.isFinite(lng)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return rounded({ lat, lng });
}
