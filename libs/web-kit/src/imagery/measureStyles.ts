import type { FeatureLike } from 'ol/Feature';
import type Geometry from 'ol/geom/Geometry';
import LineString from 'ol/geom/LineString';
import MultiPoint from 'ol/geom/MultiPoint';
import Point from 'ol/geom/Point';
import Polygon from 'ol/geom/Polygon';
import CircleStyle from 'ol/style/Circle';
import Fill from 'ol/style/Fill';
import Stroke from 'ol/style/Stroke';
import Style, { type StyleFunction } from 'ol/style/Style';
import Text from 'ol/style/Text';

/**
 * Styles of the measuring layer, the sketch and the vertices, as functions: Draw and Modify come from the
 * remote's copy of OpenLayers (the shell does not load them), and a function is accepted by any copy,
 * where a Style object from another copy would fail its `instanceof` check.
 */
const MEASURE_COLOUR = '#ffcc33';
const MEASURE_HALO = 'rgba(0, 0, 0, 0.75)';

const vertexImage = new CircleStyle({
  radius: 5,
  fill: new Fill({ color: MEASURE_COLOUR }),
  stroke: new Stroke({ color: MEASURE_HALO, width: 1.5 }),
});

const lineStyles = [
  new Style({ stroke: new Stroke({ color: MEASURE_HALO, width: 5 }) }),
  new Style({
    stroke: new Stroke({ color: MEASURE_COLOUR, width: 2.5 }),
    fill: new Fill({ color: 'rgba(255, 204, 51, 0.2)' }),
  }),
];

const ringOrLine = (geometry: LineString | Polygon) =>
  geometry instanceof Polygon
    ? (geometry.getLinearRing(0)?.getCoordinates() ?? [])
    : geometry.getCoordinates();

/** A finished measurement: yellow line or polygon, its vertices, and its figures (the feature's `text`). */
export const measuredFeatureStyle: StyleFunction = (feature: FeatureLike) => {
  const geometry = feature.getGeometry() as Geometry | undefined;
  if (!(geometry instanceof LineString || geometry instanceof Polygon)) return lineStyles;
  const styles = [
    ...lineStyles,
    new Style({ image: vertexImage, geometry: new MultiPoint(ringOrLine(geometry)) }),
  ];
  const text = feature.get('text') as string | undefined;
  if (text) {
    const where =
      geometry instanceof Polygon ? geometry.getInteriorPoint() : new Point(geometry.getLastCoordinate());
    styles.push(
      new Style({
        geometry: where,
        text: new Text({
          text,
          font: '600 13px system-ui, sans-serif',
          offsetY: -14,
          fill: new Fill({ color: '#ffffff' }),
          backgroundFill: new Fill({ color: MEASURE_HALO }),
          padding: [2, 4, 2, 4],
        }),
      }),
    );
  }
  return styles;
};

/** The sketch while drawing (Draw) and the vertex under the pointer (Draw, Modify). */
export const sketchStyle: StyleFunction = (feature: FeatureLike) => {
  const geometry = feature.getGeometry() as Geometry | undefined;
  if (geometry instanceof Point) return new Style({ image: vertexImage });
  return lineStyles;
};

/** Building and parcel outlines on a survey map (what measurements snap to). */
export const outlineStyle = (colour: string, width = 1.5, fill = 'rgba(0, 0, 0, 0)') => {
  const style = new Style({ stroke: new Stroke({ color: colour, width }), fill: new Fill({ color: fill }) });
  return () => style;
};

/** Colours of the changes between two surveys. */
export const CHANGE_COLOURS = { added: '#2e7d32', removed: '#c62828', changed: '#ef6c00' } as const;
