import type { RequestMapQuery, RequestStatus, RequestType } from '@portal/contracts';
import { MAP_POINT_LIMIT } from '../../config';
import { SPATIALKEY_TEXT } from '../../texts';

/** What the user filters the map by. Empty lists mean every status / type. */
export interface RequestFilters {
  statuses: RequestStatus[];
  types: RequestType[];
  /** 'YYYY-MM-DD' (a date input's value) or ''. */
  from: string;
  to: string;
}

export const NO_FILTERS: RequestFilters = { statuses: [], types: [], from: '', to: '' };

/** The map's visible box in WGS 84 degrees. */
export interface Box {
  west: number;
  south: number;
  east: number;
  north: number;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Why the filters cannot be asked for, or null. */
export function filtersProblem(filters: RequestFilters): string | null {
  if (
    filters.from &&
    filters.to &&
    DATE.test(filters.from) &&
    DATE.test(filters.to) &&
    filters.from > filters.to
  )
    return SPATIALKEY_TEXT.datesReversed;
  return null;
}

/**
 * A box rounded outwards to 4 decimals (about 10 m): the query stays the same for the same view, so a
 * view the user comes back to is served from the cache, and the box still covers the whole view.
 */
export function roundBox(box: Box): Box {
  const down = (value: number) => Math.floor(value * 1e4) / 1e4;
  const up = (value: number) => Math.ceil(value * 1e4) / 1e4;
  return {
    west: Math.max(-180, down(box.west)),
    south: Math.max(-90, down(box.south)),
    east: Math.min(180, up(box.east)),
    north: Math.min(90, up(box.north)),
  };
}

/** The call's parameters for the filters and the box (none: the whole country, newest first). */
export function mapParams(filters: RequestFilters, box: Box | null): RequestMapQuery {
  const params: RequestMapQuery = { limit: MAP_POINT_LIMIT };
  // A box that wraps the antimeridian or has no area is no box: the server refuses those.
  if (box && box.west < box.east && box.south < box.north) Object.assign(params, roundBox(box));
  if (filters.statuses.length) params.status = filters.statuses.join(',');
  if (filters.types.length) params.type = filters.types.join(',');
  if (DATE.test(filters.from)) params.from = filters.from;
  if (DATE.test(filters.to)) params.to = filters.to;
  return params;
}
