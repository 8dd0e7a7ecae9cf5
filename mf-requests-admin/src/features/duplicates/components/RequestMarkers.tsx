import { useEffect, useState } from 'react';
import Feature from 'ol/Feature';
import Point from 'ol/geom/Point';
import VectorLayer from 'ol/layer/Vector';
import Cluster from 'ol/source/Cluster';
import VectorSource from 'ol/source/Vector';
import { fromLonLat } from 'ol/proj';
import { Circle, Fill, Stroke, Style, Text } from 'ol/style';
import type { NearRequest } from '@portal/contracts';
import { useMapLayer, useOlMap } from '@portal/web-kit';

/** Spec 02 §9: the duplicate check clusters markers within 10 pixels. */
export const CLUSTER_DISTANCE = 10;

const CENTRE_STYLE = new Style({
  image: new Circle({
    radius: 9,
    fill: new Fill({ color: '#d32f2f' }),
    stroke: new Stroke({ color: '#fff', width: 2 }),
  }),
  zIndex: 10,
});
const clusterStyle = (size: number) =>
  new Style({
    image: new Circle({
      radius: size > 1 ? 12 : 7,
      fill: new Fill({ color: '#1565c0' }),
      stroke: new Stroke({ color: '#fff', width: 2 }),
    }),
    text:
      size > 1
        ? new Text({ text: String(size), fill: new Fill({ color: '#fff' }), font: 'bold 11px sans-serif' })
        : undefined,
  });

const featureOf = (request: NearRequest) => {
  const feature = new Feature(new Point(fromLonLat([request.lng, request.lat])));
  feature.set('request', request);
  return feature;
};

/**
 * The centre request (red) and the others clustered (blue, with their count): a click on a marker picks
 * its request (the first of a cluster; the list beside the map holds each one).
 */
export function RequestMarkers({
  centre,
  others,
  onPick,
}: {
  centre: NearRequest;
  others: NearRequest[];
  onPick: (request: NearRequest) => void;
}) {
  const map = useOlMap();
  const [clusterLayer] = useState(
    () =>
      new VectorLayer({
        source: new Cluster({ distance: CLUSTER_DISTANCE, source: new VectorSource() }),
        style: (feature) => clusterStyle((feature.get('features') as Feature[]).length),
      }),
  );
  const [centreLayer] = useState(
    () => new VectorLayer({ source: new VectorSource(), style: CENTRE_STYLE, zIndex: 5 }),
  );
  useMapLayer(clusterLayer);
  useMapLayer(centreLayer);
  useEffect(() => {
    const source = (clusterLayer.getSource() as Cluster).getSource() as VectorSource;
    source.clear();
    source.addFeatures(others.map(featureOf));
    const centreSource = centreLayer.getSource() as VectorSource;
    centreSource.clear();
    centreSource.addFeature(featureOf(centre));
  }, [clusterLayer, centreLayer, centre, others]);
  useEffect(() => {
    const listener = (event: { pixel: number[] }) => {
      const hit = map.forEachFeatureAtPixel(event.pixel, (feature) => feature);
      if (!hit) return;
      const members = hit.get('features') as Feature[] | undefined;
      const request = (members ? members[0] : hit).get('request') as NearRequest | undefined;
      if (request) onPick(request);
    };
    map.on('click', listener);
    return () => map.un('click', listener);
  }, [map, onPick]);
  return null;
}
