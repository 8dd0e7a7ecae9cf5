import { useEffect, useState } from 'react';
import Feature from 'ol/Feature';
import Point from 'ol/geom/Point';
import VectorLayer from 'ol/layer/Vector';
import type MapBrowserEvent from 'ol/MapBrowserEvent';
import { fromLonLat } from 'ol/proj';
import Cluster from 'ol/source/Cluster';
import VectorSource from 'ol/source/Vector';
import { Circle, Fill, Stroke, Style, Text } from 'ol/style';
import { boundingExtent } from 'ol/extent';
import type { RequestMapPoint, RequestType } from '@portal/contracts';
import { useMapLayer, useOlMap } from '@portal/web-kit';

/** Points closer than this (pixels) are drawn as one cluster with their count. */
export const CLUSTER_DISTANCE_PX = 40;
/** From this zoom a cluster's requests are listed instead of zoomed into (they share a property). */
const LIST_FROM_ZOOM = 17;

const TYPE_COLOUR: Record<RequestType, string> = { SAVI: '#1565c0', AVS: '#ef6c00', IRIS: '#6a1b9a' };
const POINT_KEY = 'request';

const styles = new Map<string, Style>();
function clusterStyle(feature: Feature): Style {
  const members = (feature.get('features') as Feature[] | undefined) ?? [];
  if (members.length === 1) {
    const type = (members[0].get(POINT_KEY) as RequestMapPoint).requestType;
    const key = `one:${type}`;
    if (!styles.has(key))
      styles.set(
        key,
        new Style({
          image: new Circle({
            radius: 7,
            fill: new Fill({ color: TYPE_COLOUR[type] ?? '#455a64' }),
            stroke: new Stroke({ color: '#ffffff', width: 2 }),
          }),
        }),
      );
    return styles.get(key)!;
  }
  const key = `many:${members.length}`;
  if (!styles.has(key))
    styles.set(
      key,
      new Style({
        image: new Circle({
          radius: Math.min(28, 10 + Math.log2(members.length) * 3),
          fill: new Fill({ color: 'rgba(21, 101, 192, 0.85)' }),
          stroke: new Stroke({ color: '#ffffff', width: 2 }),
        }),
        text: new Text({
          text: String(members.length),
          fill: new Fill({ color: '#ffffff' }),
          font: 'bold 12px sans-serif',
        }),
      }),
    );
  return styles.get(key)!;
}

/** The features of request points (WGS 84 in, the map's projection out). */
export function requestFeatures(points: readonly RequestMapPoint[]): Feature<Point>[] {
  return points.map((point) => {
    const feature = new Feature(new Point(fromLonLat([point.lng, point.lat])));
    feature.setId(point.id);
    feature.set(POINT_KEY, point);
    return feature;
  });
}

/**
 * What a click on a cluster does: one request opens its popup; several are zoomed into, or listed once the
 * map is close enough that they stand on one property.
 */
export function clusterClick(
  members: readonly RequestMapPoint[],
  zoom: number,
): { kind: 'popup'; requests: RequestMapPoint[] } | { kind: 'zoom' } {
  if (members.length === 1 || zoom >= LIST_FROM_ZOOM) return { kind: 'popup', requests: [...members] };
  return { kind: 'zoom' };
}

/** The requests on the map, clustered (ol/source/Cluster); a click selects requests or zooms in. */
export function RequestsLayer({
  points,
  onSelect,
}: {
  points: readonly RequestMapPoint[];
  onSelect: (requests: RequestMapPoint[] | null) => void;
}) {
  const map = useOlMap();
  const [source] = useState(() => new VectorSource<Feature<Point>>());
  const [layer] = useState(
    () =>
      new VectorLayer({
        source: new Cluster({ distance: CLUSTER_DISTANCE_PX, source }),
        style: (feature) => clusterStyle(feature as Feature),
        zIndex: 50,
      }),
  );
  useMapLayer(layer);

  useEffect(() => {
    source.clear(true);
    source.addFeatures(requestFeatures(points));
  }, [source, points]);

  useEffect(() => {
    const onClick = (event: MapBrowserEvent<PointerEvent | KeyboardEvent | WheelEvent>) => {
      const hit = map.forEachFeatureAtPixel(event.pixel, (feature) => feature as Feature, {
        layerFilter: (candidate) => candidate === layer,
      });
      if (!hit) return onSelect(null);
      const members = (hit.get('features') as Feature<Point>[]) ?? [];
      const requests = members.map((member) => member.get(POINT_KEY) as RequestMapPoint);
      const view = map.getView();
      const action = clusterClick(requests, view.getZoom() ?? 0);
      if (action.kind === 'popup') return onSelect(action.requests);
      const extent = boundingExtent(members.map((member) => member.getGeometry()!.getCoordinates()));
      view.fit(extent, { maxZoom: LIST_FROM_ZOOM, padding: [60, 60, 60, 60], duration: 250 });
    };
    map.on('singleclick', onClick);
    return () => map.un('singleclick', onClick);
  }, [map, layer, onSelect]);

  return null;
}
