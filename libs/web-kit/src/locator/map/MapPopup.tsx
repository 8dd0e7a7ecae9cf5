import { useEffect, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import Overlay from 'ol/Overlay';
import { fromLonLat } from 'ol/proj';
import type { LatLng } from '@portal/contracts';
import { useOlMap } from '@portal/web-kit';

/** Spec 01 §9: the popup is 300 px wide and 280 px high. */
export const POPUP_SIZE = { width: 300, height: 280 } as const;

/** A popup anchored above a point of the map; its content is ordinary React. */
export function MapPopup({ position, children }: { position: LatLng; children: ReactNode }) {
  const map = useOlMap();
  const [element] = useState(() => document.createElement('div'));
  const [overlay] = useState(
    () =>
      new Overlay({
        element,
        positioning: 'bottom-center',
        offset: [0, -16],
        autoPan: { animation: { duration: 200 } },
        stopEvent: true,
      }),
  );
  useEffect(() => {
    map.addOverlay(overlay);
    return () => {
      map.removeOverlay(overlay);
    };
  }, [map, overlay]);
  useEffect(() => {
    overlay.setPosition(fromLonLat([position.lng, position.lat]));
  }, [overlay, position.lat, position.lng]);
  return createPortal(children, element);
}
