import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FeatureCollection, Geometry, Position } from 'geojson';
import { SOUTH_AFRICA_BBOX } from './randomMarkers';
import {
  SOUTH_AFRICA_COUNTRY_ID,
  SOUTHERN_AFRICA_COUNTRY_IDS,
  type CountryProperties,
} from './southernAfrica';

const OUTLINES = join(__dirname, 'outlines');
const LEVELS = ['110m', '50m'];
const read = (folder: string, scale: string) =>
  readFileSync(join(folder, `southern-africa-${scale}.geojson`), 'utf8');
const outlines = (scale: string) =>
  JSON.parse(read(OUTLINES, scale)) as FeatureCollection<Geometry, CountryProperties>;

function outerRings(geometry: { type: string; coordinates: unknown }): Position[][] {
  if (geometry.type === 'Polygon') return [(geometry.coordinates as Position[][])[0]];
  return (geometry.coordinates as Position[][][]).map((polygon) => polygon[0]);
}

describe.each(LEVELS)('the offline map outlines at 1:%s', (scale) => {
  const collection = outlines(scale);

  it('hold exactly South Africa and its six neighbours', () => {
    const names = collection.features.map((country) => country.properties.name).sort();
    expect(names).toEqual([
      'Botswana',
      'Lesotho',
      'Mozambique',
      'Namibia',
      'South Africa',
      'Zimbabwe',
      'eSwatini',
    ]);
    expect(new Set(collection.features.map((country) => country.properties.isoNumeric))).toEqual(
      SOUTHERN_AFRICA_COUNTRY_IDS,
    );
  });

  // SOUTH_AFRICA_BBOX is the 1:50m extent; the coarser 1:110m coast reaches up to 0.2° past it.
  const slack = scale === '50m' ? 0 : 0.2;

  it('are polygons in longitude/latitude, mainland South Africa inside SOUTH_AFRICA_BBOX', () => {
    for (const country of collection.features) {
      expect(['Polygon', 'MultiPolygon']).toContain(country.geometry.type);
    }
    const southAfrica = collection.features.find(
      (country) => country.properties.isoNumeric === SOUTH_AFRICA_COUNTRY_ID,
    );
    const rings = outerRings(southAfrica!.geometry as { type: string; coordinates: unknown });
    const mainland = rings.reduce((largest, ring) => (ring.length > largest.length ? ring : largest));
    expect(mainland.length).toBeGreaterThan(scale === '50m' ? 300 : 30);
    const [west, south, east, north] = SOUTH_AFRICA_BBOX;
    for (const [lng, lat] of mainland) {
      expect(lng).toBeGreaterThanOrEqual(west - slack);
      expect(lng).toBeLessThanOrEqual(east + slack);
      expect(lat).toBeGreaterThanOrEqual(south - slack);
      expect(lat).toBeLessThanOrEqual(north + slack);
    }
  });
});

it('the kept outline files are what tools/southern-africa-outlines.mjs makes from world-atlas', () => {
  const folder = mkdtempSync(join(tmpdir(), 'outlines-'));
  try {
    execFileSync(process.execPath, [
      join(__dirname, '../../../../tools/southern-africa-outlines.mjs'),
      '--out',
      folder,
    ]);
    for (const scale of LEVELS) expect(read(folder, scale)).toBe(read(OUTLINES, scale));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
