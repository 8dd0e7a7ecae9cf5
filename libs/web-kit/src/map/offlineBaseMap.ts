// The *.geojson declaration must reach every project that compiles this file (the shell and the remotes
// typecheck web-kit's source), which an import of a declaration-only file cannot do.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./outlines/geojson.d.ts" />
import VectorLayer from 'ol/layer/Vector';
import VectorSource from 'ol/source/Vector';
import GeoJSON from 'ol/format/GeoJSON';
import type { FeatureLike } from 'ol/Feature';
import { Fill, Stroke, Style, Text } from 'ol/style';
import { SOUTH_AFRICA_COUNTRY_ID } from './southernAfrica';
import outlines110mUrl from './outlines/southern-africa-110m.geojson';
import outlines50mUrl from './outlines/southern-africa-50m.geojson';

/** Sea colour painted on the map container behind the offline countries (OpenStreetMap's water). */
export const OFFLINE_OCEAN_COLOUR = '#aad3df';

export const NATURAL_EARTH_ATTRIBUTION = 'Natural Earth';

/** The title both levels of the offline map carry (the layer switcher and the tests find them by it). */
export const OFFLINE_MAP_TITLE = 'Offline map (Natural Earth)';

/**
 * Below this zoom the 1:110m outlines are drawn, from it the 1:50m ones (zoom 5 shows the whole country;
 * from there the coarse coast is visibly off).
 */
export const DETAILED_OUTLINES_FROM_ZOOM = 5;

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

/** One level of detail: its file is fetched (as data) the first time the map is drawn at its zooms. */
function outlinesLayer(url: string, zooms: { minZoom?: number; maxZoom?: number }) {
  return new VectorLayer({
    source: new VectorSource({ url, format: new GeoJSON(), attributions: NATURAL_EARTH_ATTRIBUTION }),
    style: styleCountry,
    declutter: true,
    properties: { title: OFFLINE_MAP_TITLE },
    ...zooms,
  });
}

/**
 * South Africa and its neighbours (fill, borders, names), one layer per level of detail, so a map is never blank without a tile server.
 * Put OFFLINE_OCEAN_COLOUR on the map container for the sea. The outlines are GeoJSON files made from
 * Natural Earth by tools/southern-africa-outlines.mjs (8 KB compressed at 1:50m, 2 KB at 1:110m), each
 * fetched only when the map shows a zoom that needs it — never a script, never on a page without a map.
 */
export function createOfflineBaseLayers(): VectorLayer[] {
  return [
    outlinesLayer(outlines110mUrl, { maxZoom: DETAILED_OUTLINES_FROM_ZOOM }),
    outlinesLayer(outlines50mUrl, { minZoom: DETAILED_OUTLINES_FROM_ZOOM }),
  ];
}
