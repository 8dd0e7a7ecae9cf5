import { useMemo } from 'react';
import type { RequestMapPoint, RequestType } from '@portal/contracts';
import { RequestPointsLayer, type RequestPointsClick, type RequestPointsLook } from '@portal/web-kit/locator';
import { CLUSTER_DISTANCE_PX, LIST_FROM_ZOOM } from '../../../config';

const TYPE_COLOUR: Record<RequestType, string> = { SAVI: '#1565c0', AVS: '#ef6c00', IRIS: '#6a1b9a' };

/** A request is a dot in its type's colour; a cluster a blue dot growing with its count. */
const LOOK: RequestPointsLook<RequestMapPoint> = {
  pointColour: (request) => TYPE_COLOUR[request.requestType] ?? '#455a64',
  pointRadius: 7,
  clusterColour: 'rgba(21, 101, 192, 0.85)',
  clusterRadius: (count) => Math.min(28, 10 + Math.log2(count) * 3),
  countFont: 'bold 12px sans-serif',
};

const requestId = (request: RequestMapPoint) => request.id;

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

/**
 * The map click of the requests layer: nothing hit closes the popup; a request, or the requests on one
 * property, open it; a cluster further out is zoomed into.
 */
export const selectOnClick =
  (onSelect: (requests: RequestMapPoint[] | null) => void) =>
  (requests: RequestMapPoint[] | null, click: RequestPointsClick) => {
    if (!requests) return onSelect(null);
    const action = clusterClick(requests, click.zoom);
    if (action.kind === 'popup') return onSelect(action.requests);
    click.zoomTo(LIST_FROM_ZOOM);
  };

/** The requests on the map, clustered (web-kit's RequestPointsLayer); a click selects requests or zooms in. */
export function RequestsLayer({
  points,
  onSelect,
}: {
  points: readonly RequestMapPoint[];
  onSelect: (requests: RequestMapPoint[] | null) => void;
}) {
  const onClick = useMemo(() => selectOnClick(onSelect), [onSelect]);
  return (
    <RequestPointsLayer
      points={points}
      clusterDistance={CLUSTER_DISTANCE_PX}
      look={LOOK}
      idOf={requestId}
      zIndex={50}
      onClick={onClick}
    />
  );
}
