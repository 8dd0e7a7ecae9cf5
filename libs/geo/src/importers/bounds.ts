/**
 * Where South Africa is. A row whose point (or any vertex) lies outside this box is rejected as "outside
 * South Africa". The box is the country's mainland extent (Orange River mouth 16.45° E to Kosi Bay
 * 32.89° E, Cape Agulhas 34.83° S to Pafuri 22.13° S) with about 10 km of slack for generalised
 * boundaries; it holds Lesotho and Eswatini too, and leaves out the Prince Edward Islands.
 */
export const SOUTH_AFRICA_BOUNDS = { west: 16.3, south: -35.0, east: 33.0, north: -22.0 } as const;

export function isInSouthAfrica(lon: number, lat: number): boolean {
  return (
    lon >= SOUTH_AFRICA_BOUNDS.west &&
    lon <= SOUTH_AFRICA_BOUNDS.east &&
    lat >= SOUTH_AFRICA_BOUNDS.south &&
    lat <= SOUTH_AFRICA_BOUNDS.north
  );
}
