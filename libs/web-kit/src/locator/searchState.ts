import type { LatLng, SearchResultItem } from '@portal/contracts';
import type { SearchOptionId } from './searchOptions';

/** What the map and the request are about: a chosen result, or the main marker placed on the map. */
export interface SelectedPlace {
  point: LatLng;
  /** The result chosen from the list; null when the marker was placed or dragged. */
  item: SearchResultItem | null;
  /** Bumped on each placement, so the same point chosen twice still re-centres the map. */
  version: number;
}

export type SearchStatus = 'idle' | 'searching' | 'done' | 'failed';

export interface SearchState {
  /** Null: the wizard shows the options (spec 01 §4 "no option chosen"). */
  option: SearchOptionId | null;
  query: string;
  /** The query the shown results answer (the request's Searched_For). */
  searchedFor: string;
  status: SearchStatus;
  results: SearchResultItem[];
  selected: SelectedPlace | null;
  /** Marker mode: map clicks place the main marker (after choosing the marker option, or a drag). */
  markerMode: boolean;
}

export const initialSearchState: SearchState = {
  option: null,
  query: '',
  searchedFor: '',
  status: 'idle',
  results: [],
  selected: null,
  markerMode: false,
};

export type SearchAction =
  | { type: 'optionChosen'; option: SearchOptionId }
  | { type: 'queryChanged'; query: string }
  | { type: 'searchStarted' }
  | { type: 'searchSucceeded'; results: SearchResultItem[] }
  | { type: 'searchFailed' }
  /** Any key other than Enter or Escape: results, markers and selection go (spec 01 §2). */
  | { type: 'cleared' }
  /** Escape: back to the options. */
  | { type: 'reset' }
  | { type: 'resultSelected'; item: SearchResultItem }
  | { type: 'markerPlaced'; point: LatLng };

export function searchReducer(state: SearchState, action: SearchAction): SearchState {
  switch (action.type) {
    case 'optionChosen':
      return {
        ...initialSearchState,
        option: action.option,
        markerMode: action.option === 'marker',
      };
    case 'queryChanged':
      return { ...state, query: action.query };
    case 'searchStarted':
      return { ...state, status: 'searching', results: [], selected: null, searchedFor: state.query.trim() };
    case 'searchSucceeded':
      return { ...state, status: 'done', results: action.results };
    case 'searchFailed':
      return { ...state, status: 'failed', results: [] };
    case 'cleared':
      if (state.status === 'idle' && !state.results.length && !state.selected) return state;
      return { ...state, status: 'idle', results: [], selected: null };
    case 'reset':
      return initialSearchState;
    case 'resultSelected':
      return {
        ...state,
        selected: {
          point: action.item.location,
          item: action.item,
          version: (state.selected?.version ?? 0) + 1,
        },
      };
    case 'markerPlaced':
      // Placing or dragging the marker switches to marker mode: the marker, not a result, is the place.
      return {
        ...state,
        markerMode: true,
        selected: { point: action.point, item: null, version: (state.selected?.version ?? 0) + 1 },
      };
    default:
      return state;
  }
}

/** A failed or empty search offers Can't Locate (spec 01 §2, §8). */
export const offersCantLocate = (state: SearchState) =>
  state.status === 'failed' || (state.status === 'done' && state.results.length === 0);
