import type { BuildingChange, Survey } from '@portal/contracts';

// Dated imagery (issue 21) as the screens' tests answer it: surveys and building changes shaped as the
// contracts say, written once for the kit's own tests and every remote's.

/** A survey of the portal's imagery (high resolution unless `kind` says otherwise). */
export const testSurvey = (
  id: number,
  capturedOn: string,
  kind: Survey['kind'] = 'high_resolution',
): Survey => ({
  id,
  capturedOn,
  kind,
  provider: 'Portal imagery',
});

/** A small square footprint near Stellenbosch, `size` degrees a side. */
export const squareFootprint = (size: number) => ({
  type: 'Polygon' as const,
  coordinates: [
    [
      [18.86, -33.93],
      [18.86 + size, -33.93],
      [18.86 + size, -33.93 + size],
      [18.86, -33.93],
    ],
  ],
});

/** A building changed between two surveys: areas at both dates (null: not standing then). */
export const buildingChange = (
  id: string,
  kind: string,
  from: number | null,
  to: number | null,
): BuildingChange => ({
  buildingId: id,
  kind,
  heightM: 6,
  footprintFrom: from === null ? null : squareFootprint(0.0001),
  footprintTo: to === null ? null : squareFootprint(0.00012),
  areaFromM2: from,
  areaToM2: to,
});
