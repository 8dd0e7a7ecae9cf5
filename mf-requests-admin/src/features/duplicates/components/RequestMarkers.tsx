import { useCallback } from 'react';
import { Circle, Fill, Stroke, Style } from 'ol/style';
import type { NearRequest } from '@portal/contracts';
import { RequestPointsLayer, type RequestPointsLook } from '@portal/web-kit/locator';

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

/** The others: blue dots, a cluster a larger one with its count. */
const LOOK: RequestPointsLook<NearRequest> = {
  pointColour: () => '#1565c0',
  pointRadius: 7,
  clusterColour: '#1565c0',
  clusterRadius: () => 12,
  countFont: 'bold 11px sans-serif',
};

/**
 * The centre request (red) and the others clustered (blue, with their count; web-kit's RequestPointsLayer):
 * a click on a marker picks its request (the first of a cluster; the list beside the map holds each one).
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
  const onClick = useCallback(
    (requests: NearRequest[] | null) => {
      if (requests) onPick(requests[0]);
    },
    [onPick],
  );
  return (
    <RequestPointsLayer
      points={others}
      clusterDistance={CLUSTER_DISTANCE}
      look={LOOK}
      highlighted={centre}
      highlightedStyle={CENTRE_STYLE}
      clickEvent="click"
      onClick={onClick}
    />
  );
}
