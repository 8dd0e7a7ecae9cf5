import type { Position } from 'geojson';
import countries50m from 'world-atlas/countries-50m.json';
import { SOUTH_AFRICA_BBOX } from './randomMarkers';
import {
  selectSouthernAfrica,
  SOUTH_AFRICA_COUNTRY_ID,
  SOUTHERN_AFRICA_COUNTRY_IDS,
  type CountriesTopology,
} from './southernAfrica';

const topology = countries50m as unknown as CountriesTopology;

function outerRings(geometry: { type: string; coordinates: unknown }): Position[][] {
  if (geometry.type === 'Polygon') return [(geometry.coordinates as Position[][])[0]];
  return (geometry.coordinates as Position[][][]).map((polygon) => polygon[0]);
}

describe('selectSouthernAfrica', () => {
  const collection = selectSouthernAfrica(topology);

  it('keeps exactly South Africa and its six neighbours', () => {
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

  it('reads zero-padded ids ("072" is Botswana) as numbers', () => {
    const botswana = collection.features.find((country) => country.properties.name === 'Botswana');
    expect(botswana?.properties.isoNumeric).toBe(72);
  });

  it('yields polygons in longitude/latitude, mainland South Africa inside SOUTH_AFRICA_BBOX', () => {
    for (const country of collection.features) {
      expect(['Polygon', 'MultiPolygon']).toContain(country.geometry.type);
    }
    const southAfrica = collection.features.find(
      (country) => country.properties.isoNumeric === SOUTH_AFRICA_COUNTRY_ID,
    );
    const rings = outerRings(southAfrica!.geometry as { type: string; coordinates: unknown });
    const mainland = rings.reduce((largest, ring) => (ring.length > largest.length ? ring : largest));
    const [west, south, east, north] = SOUTH_AFRICA_BBOX;
    for (const [lng, lat] of mainland) {
      expect(lng).toBeGreaterThanOrEqual(west);
      expect(lng).toBeLessThanOrEqual(east);
      expect(lat).toBeGreaterThanOrEqual(south);
      expect(lat).toBeLessThanOrEqual(north);
    }
  });

  it('returns an empty collection for a topology without southern African countries', () => {
    const countries = topology.objects.countries;
    const elsewhere: CountriesTopology = {
      ...topology,
      objects: {
        countries: {
          ...countries,
          geometries: countries.geometries.filter(
            (country) => !SOUTHERN_AFRICA_COUNTRY_IDS.has(Number(country.id)),
          ),
        },
      },
    };
    expect(selectSouthernAfrica(elsewhere).features).toEqual([]);
  });
});
