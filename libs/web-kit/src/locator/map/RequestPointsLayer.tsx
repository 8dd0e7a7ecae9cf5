import { useEffect, useRef, useState } from 'react';
import Feature, { type FeatureLike } from 'ol/Feature';
import Point from 'ol/geom/Point';
import VectorLayer from 'ol/layer/Vector';
import type BaseLayer from 'ol/layer/Base';
import type MapBrowserEvent from 'ol/MapBrowserEvent';
import { boundingExtent } from 'ol/extent';
import { fromLonLat } from 'ol/proj';
import Cluster from 'ol/source/Cluster';
import VectorSource from 'ol/source/Vector';
import { Circle, Fill, Stroke, Style, Text } from 'ol/style';
import type { LatLng } from '@portal/contracts';
import { useMapLayer, useOlMap } from '@portal/web-kit';

/**
 * Requests as points on a map, clustered (ol/source/Cluster): the mapping service's requests (mf-locator,
 * /spatialkey) and the duplicate check's requests nearby (mf-requests-admin). A point is a coloured dot, a
 * cluster a larger dot with its count; one point may be drawn apart, above the clusters (the request the
 * screen is about). A click hands the screen the points under it.
 */

/** The feature property that holds a point's own object. */
const POINT_KEY = 'request';
const WHITE = '#ffffff';

/** How the points and clusters look. */
export interface RequestPointsLook<P> {
  /** A lone point's fill (it may depend on the point, e.g. its request type). */
  pointColour: (point: P) => string;
  pointRadius: number;
  /** A cluster of two or more: its fill, its radius by its count, and the count's font. */
  clusterColour: string;
  clusterRadius: (count: number) => number;
  countFont: string;
}

/**
 * The style function of a clustered layer in `look`: white-rimmed dots, a cluster's count in white. Styles
 * are made once per colour and per count, not per feature and frame.
 */
export function requestPointsStyle<P>(look: RequestPointsLook<P>): (feature: FeatureLike) => Style {
  const styles = new Map<string, Style>();
  const made = (key: string, make: () => Style) => {
    if (!styles.has(key)) styles.set(key, make());
    return styles.get(key)!;
  };
  return (feature) => {
    const members = (feature.get('features') as Feature[] | undefined) ?? [];
    if (members.length === 1) {
      const colour = look.pointColour(members[0].get(POINT_KEY) as P);
      return made(
        `one:${colour}`,
        () =>
          new Style({
            image: new Circle({
              radius: look.pointRadius,
              fill: new Fill({ color: colour }),
              stroke: new Stroke({ color: WHITE, width: 2 }),
            }),
          }),
      );
    }
    return made(
      `many:${members.length}`,
      () =>
        new Style({
          image: new Circle({
            radius: look.clusterRadius(members.length),
            fill: new Fill({ color: look.clusterColour }),
            stroke: new Stroke({ color: WHITE, width: 2 }),
          }),
          text: new Text({
            text: String(members.length),
            fill: new Fill({ color: WHITE }),
            font: look.countFont,
          }),
        }),
    );
  };
}

/** The features of points (WGS 84 in, the map's projection out), each holding its point; ids by `idOf`. */
export function requestPointFeatures<P extends LatLng>(
  points: readonly P[],
  idOf?: (point: P) => string,
): Feature<Point>[] {
  return points.map((point) => {
    const feature = new Feature(new Point(fromLonLat([point.lng, point.lat])));
    if (idOf) feature.setId(idOf(point));
    feature.set(POINT_KEY, point);
    return feature;
  });
}

/** The points a hit feature stands for: a cluster's members, or the one point of an unclustered feature. */
export function pointsOfFeature<P>(feature: FeatureLike): P[] {
  const members = (feature.get('features') as FeatureLike[] | undefined) ?? [feature];
  return members.map((member) => member.get(POINT_KEY) as P).filter((point) => point !== undefined);
}

/** What a click handler gets besides the points: the map's zoom, and a way to zoom onto the points. */
export interface RequestPointsClick {
  zoom: number;
  /** Fits the view to the clicked points, never closer than `maxZoom`. */
  zoomTo: (maxZoom: number) => void;
}

export interface RequestPointsLayerProps<P extends LatLng> {
  /** The points, clustered. */
  points: readonly P[];
  /** Points closer than this (pixels) are drawn as one cluster with their count. */
  clusterDistance: number;
  look: RequestPointsLook<P>;
  /** A point drawn on its own above the clusters in `highlightedStyle`, never clustered. */
  highlighted?: P | null;
  highlightedStyle?: Style;
  /** Feature ids (by default none). */
  idOf?: (point: P) => string;
  /** The clusters' z-index; the highlighted point is drawn 5 above. */
  zIndex?: number;
  /** 'singleclick' (the default) waits out a double click, which zooms; 'click' answers at once. */
  clickEvent?: 'singleclick' | 'click';
  /** A click on the map: the points under it (the top-most cluster's or the highlighted one), or null. */
  onClick: (points: P[] | null, click: RequestPointsClick) => void;
}

/** Requests on the enclosing MapView, clustered; a click hands `onClick` the points under it. */
export function RequestPointsLayer<P extends LatLng>({
  points,
  clusterDistance,
  look,
  highlighted = null,
  highlightedStyle,
  idOf,
  zIndex,
  clickEvent = 'singleclick',
  onClick,
}: RequestPointsLayerProps<P>) {
  const map = useOlMap();
  const [source] = useState(() => new VectorSource<Feature<Point>>());
  const [clusters] = useState(
    () =>
      new VectorLayer({
        source: new Cluster({ distance: clusterDistance, source }),
        style: requestPointsStyle(look),
        zIndex,
      }),
  );
  const [highlight] = useState(
    () =>
      new VectorLayer({
        source: new VectorSource<Feature<Point>>(),
        style: highlightedStyle,
        zIndex: (zIndex ?? 0) + 5,
      }),
  );
  useMapLayer(clusters);
  useMapLayer(highlight);

  useEffect(() => {
    source.clear(true);
    source.addFeatures(requestPointFeatures(points, idOf));
  }, [source, points, idOf]);

  useEffect(() => {
    const highlightSource = highlight.getSource()!;
    highlightSource.clear(true);
    if (highlighted) highlightSource.addFeatures(requestPointFeatures([highlighted], idOf));
  }, [highlight, highlighted, idOf]);

  // The latest handler, without moving the map's listener each render.
  const onClickRef = useRef(onClick);
  useEffect(() => {
    onClickRef.current = onClick;
  });

  useEffect(() => {
    const ours = (layer: BaseLayer) => layer === clusters || layer === highlight;
    const listener = (event: MapBrowserEvent<PointerEvent | KeyboardEvent | WheelEvent>) => {
      const view = map.getView();
      const hit = map.forEachFeatureAtPixel(event.pixel, (feature) => feature, { layerFilter: ours });
      const hitPoints = hit ? pointsOfFeature<P>(hit) : [];
      const zoomTo = (maxZoom: number) =>
        view.fit(boundingExtent(hitPoints.map((point) => fromLonLat([point.lng, point.lat]))), {
          maxZoom,
          padding: [60, 60, 60, 60],
          duration: 250,
        });
      onClickRef.current(hitPoints.length ? hitPoints : null, { zoom: view.getZoom() ?? 0, zoomTo });
    };
    map.on(clickEvent, listener);
    return () => map.un(clickEvent, listener);
  }, [map, clusters, highlight, clickEvent]);

  return null;
}
