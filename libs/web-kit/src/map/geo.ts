/** A WGS 84 position as the portal's APIs and forms carry it. */
export interface LatLng {
  lat: number;
  lng: number;
}
