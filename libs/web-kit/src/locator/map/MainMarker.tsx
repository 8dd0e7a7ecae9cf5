import { useEffect, useRef, useState } from 'react';
import Feature from 'ol/Feature';
import Point from 'ol/geom/Point';
import VectorLayer from 'ol/layer/Vector';
import VectorSource from 'ol/source/Vector';
import Collection from 'ol/Collection';
import Translate from 'ol/interaction/Translate';
import { fromLonLat, toLonLat } from 'ol/proj';
import type { LatLng } from '@portal/contracts';
import { useMapLayer, useOlMap } from '@portal/web-kit';
import { MAIN_MARKER_STYLE } from './styles';

export interface MainMarkerProps {
  position: LatLng;
  /** Spec 01 §4: draggable unless picture view is on. */
  draggable: boolean;
  /** The marker was dragged to a new point. */
  onMove: (lat: number, lng: number) => void;
}

/** The main marker: drawn at `position`, dragged with OpenLayers' Translate while draggable. */
export function MainMarker({ position, draggable, onMove }: MainMarkerProps) {
  const map = useOlMap();
  const [feature] = useState(() => new Feature(new Point(fromLonLat([position.lng, position.lat]))));
  const [layer] = useState(
    () =>
      new VectorLayer({
        source: new VectorSource({ features: [feature] }),
        style: MAIN_MARKER_STYLE,
        zIndex: 100,
      }),
  );
  useMapLayer(layer);

  useEffect(() => {
    feature.setGeometry(new Point(fromLonLat([position.lng, position.lat])));
  }, [feature, position.lat, position.lng]);

  const onMoveRef = useRef(onMove);
  useEffect(() => {
    onMoveRef.current = onMove;
  });

  useEffect(() => {
    if (!draggable) return undefined;
    const translate = new Translate({ features: new Collection([feature]) });
    translate.on('translateend', () => {
      const [lng, lat] = toLonLat((feature.getGeometry() as Point).getCoordinates());
      onMoveRef.current(lat, lng);
    });
    map.addInteraction(translate);
    return () => {
      map.removeInteraction(translate);
    };
  }, [map, feature, draggable]);

  return null;
}
