import VectorLayer from 'ol/layer/Vector';
import VectorSource from 'ol/source/Vector';
import GeoJSON from 'ol/format/GeoJSON';
import type Feature from 'ol/Feature';
import type { FeatureLike } from 'ol/Feature';
import { Fill, Stroke, Style, Text } from 'ol/style';
import type { FeatureCollection, Geometry } from 'geojson';
import {
  selectSouthernAfrica,
  SOUTH_AFRICA_COUNTRY_ID,
  type CountriesTopology,
  type CountryProperties,
} from './southernAfrica';

/** Sea colour painted on the map container behind the offline countries (OpenStreetMap's water). */
export const OFFLINE_OCEAN_COLOUR = '#aad3df';

export const NATURAL_EARTH_ATTRIBUTION = 'Natural Earth';

let southernAfricaPromise: Promise<FeatureCollection<Geometry, CountryProperties>> | undefined;

/**
 * Southern Africa as GeoJSON, loaded once per page. The TopoJSON is imported dynamically so the bundler
 * puts it (~740 kB raw) in its own chunk, fetched only when a map actually needs the offline base map —
 * never on the login page. 50m rather than 10m: a tenth of the size and detailed enough to zoom ~8.
 */
export function loadSouthernAfrica(): Promise<FeatureCollection<Geometry, CountryProperties>> {
  southernAfricaPromise ??= import(
    /* webpackChunkName: "natural-earth-countries" */ 'world-atlas/countries-50m.json'
  ).then(
    (module) => selectSouthernAfrica(module.default as unknown as CountriesTopology),
    (error: unknown) => {
      southernAfricaPromise = undefined; // let a later map retry, e.g. after a flaky chunk download
      throw error;
    },
  );
  return southernAfricaPromise;
}

const southAfricaStyle = countryStyle('#f2efe9', 13);
const neighbourStyle = countryStyle('#dfdbd3', 11);

function countryStyle(fillColour: string, fontPx: number): Style {
  return new Style({
    fill: new Fill({ color: fillColour }),
    stroke: new Stroke({ color: '#8c8577', width: 1 }),
    text: new Text({
      font: `${fontPx}px sans-serif`,
      fill: new Fill({ color: '#5b564c' }),
      stroke: new Stroke({ color: fillColour, width: 3 }),
      overflow: false,
    }),
  });
}

function styleCountry(feature: FeatureLike): Style {
  const style = feature.get('isoNumeric') === SOUTH_AFRICA_COUNTRY_ID ? southAfricaStyle : neighbourStyle;
  style.getText()?.setText(String(feature.get('name') ?? ''));
  return style;
}

/**
 * A vector layer of South Africa and its neighbours (fill, borders, names) so a map is never blank
 * without a tile server. Put OFFLINE_OCEAN_COLOUR on the map container for the sea.
 */
export async function createOfflineBaseLayer(): Promise<VectorLayer<VectorSource<Feature>>> {
  const countries = await loadSouthernAfrica();
  const features = new GeoJSON().readFeatures(countries, { featureProjection: 'EPSG:3857' });
  return new VectorLayer({
    source: new VectorSource({ features, attributions: NATURAL_EARTH_ATTRIBUTION }),
    style: styleCountry,
    declutter: true,
    properties: { title: 'Offline map (Natural Earth)' },
  });
}
