import { feature } from 'topojson-client';
import type { FeatureCollection, Geometry } from 'geojson';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * ISO 3166-1 numeric codes of South Africa and the neighbours drawn around it for context:
 * South Africa, Lesotho, eSwatini, Namibia, Botswana, Zimbabwe, Mozambique.
 */
export const SOUTHERN_AFRICA_COUNTRY_IDS: ReadonlySet<number> = new Set([710, 426, 748, 516, 72, 716, 508]);

export const SOUTH_AFRICA_COUNTRY_ID = 710;

export interface CountryProperties {
  name: string;
  /** ISO 3166-1 numeric code as a number (world-atlas stores zero-padded strings such as "072"). */
  isoNumeric: number;
}

/** The subset of world-atlas's TopoJSON this module reads. */
export type CountriesTopology = Topology<{ countries: GeometryCollection<{ name?: string }> }>;

/**
 * Southern African countries from a world-atlas `countries-*.json` topology as GeoJSON (EPSG:4326).
 * Filtering the topology's geometries before converting keeps the conversion to 7 of ~240 countries.
 */
export function selectSouthernAfrica(
  topology: CountriesTopology,
): FeatureCollection<Geometry, CountryProperties> {
  const countries = topology.objects.countries;
  const selected = countries.geometries.filter((geometry) =>
    SOUTHERN_AFRICA_COUNTRY_IDS.has(Number(geometry.id)),
  );
  const collection = feature(topology, { ...countries, geometries: selected });
  return {
    type: 'FeatureCollection',
    features: collection.features.map((country) => ({
      ...country,
      properties: { name: country.properties?.name ?? '', isoNumeric: Number(country.id) },
    })),
  };
}
