import { useCallback, useMemo, useReducer } from 'react';
import type { AvsOptions, SearchAnswer, SearchResultItem } from '@portal/contracts';
import { useCurrentUser } from '@portal/web-kit';
import { useLazyGeocodeQuery, useLazySearchPostalQuery, useLazySearchQuery } from './locatorSearchApi';
import { parseGps } from './gps';
import { keyAction, SEARCH_OPTIONS, withCountry, type SearchOptionId } from './searchOptions';
import { initialSearchState, searchReducer, type SearchState } from './searchState';
import { SEARCH_TEXT } from './texts';

/** The per-user address-service options every call carries (spec 01 §6). */
export function useAvsOptions(): AvsOptions {
  const { user } = useCurrentUser();
  const serviceUrl = user?.avsServiceUrl || undefined;
  const includeIds = user?.includeIds ?? false;
  const includeAll = user?.includeAll ?? false;
  return useMemo(() => ({ serviceUrl, includeIds, includeAll }), [serviceUrl, includeIds, includeAll]);
}

export interface LocatorSearch {
  state: SearchState;
  chooseOption: (option: SearchOptionId) => void;
  setQuery: (query: string) => void;
  /** The search box's keydown: Enter searches, Escape resets, other keys clear (spec 01 §2). */
  handleKey: (key: string) => void;
  runSearch: () => Promise<void>;
  reset: () => void;
  clear: () => void;
  select: (item: SearchResultItem) => void;
  placeMarker: (lat: number, lng: number) => void;
}

/**
 * The wizard's state and searches, shared by /savi and /locate. `alert` shows the spec's alert texts
 * (GPS unparseable, geocoder down); the caller decides how (the AlertDialog of this folder).
 */
export function useLocatorSearch(alert: (message: string) => void): LocatorSearch {
  const [state, dispatch] = useReducer(searchReducer, initialSearchState);
  const { user } = useCurrentUser();
  const options = useAvsOptions();
  const [geocode] = useLazyGeocodeQuery();
  const [search] = useLazySearchQuery();
  const [searchPostal] = useLazySearchPostalQuery();

  const runSearch = useCallback(async () => {
    const query = state.query.trim();
    if (!state.option || !SEARCH_OPTIONS[state.option].typed || !query) return;
    // Spec 01 §5: searching needs a logged-in user with an e-mail.
    if (!user?.email) {
      alert(SEARCH_TEXT.pleaseLogIn);
      return;
    }
    if (state.option === 'gps') {
      const point = parseGps(query);
      if (!point) {
        alert(SEARCH_TEXT.gpsUnparseable);
        return;
      }
      dispatch({ type: 'searchStarted' });
      const item: SearchResultItem = {
        id: `gps:${point.lat},${point.lng}`,
        type: 'address',
        formatted_address: `${point.lat}, ${point.lng}`,
        location: point,
        confidence: 1,
      };
      dispatch({ type: 'searchSucceeded', results: [item] });
      dispatch({ type: 'resultSelected', item });
      return;
    }
    dispatch({ type: 'searchStarted' });
    let answer: SearchAnswer | undefined;
    try {
      if (state.option === 'address') {
        answer = await geocode({ address: withCountry(query), options }, true).unwrap();
      } else if (state.option === 'postal') {
        answer = await searchPostal({ query, options }, true).unwrap();
      } else {
        const flags = SEARCH_OPTIONS[state.option].flags;
        answer = await search({ query: withCountry(query), searchOptions: flags, options }, true).unwrap();
      }
    } catch (error) {
      console.error('[locator] search failed', error);
      answer = undefined;
    }
    if (!answer?.success) {
      // Spec 01 §8: the error is logged, loading stops in a danger state and Can't Locate shows.
      console.error('[locator] the geocoder answered no success for', query);
      dispatch({ type: 'searchFailed' });
      alert(SEARCH_TEXT.geocoderDown);
      return;
    }
    dispatch({ type: 'searchSucceeded', results: answer.result });
  }, [state.option, state.query, user?.email, alert, geocode, search, searchPostal, options]);

  const handleKey = useCallback(
    (key: string) => {
      const action = keyAction(key);
      if (action === 'search') void runSearch();
      else if (action === 'reset') dispatch({ type: 'reset' });
      else if (action === 'clear') dispatch({ type: 'cleared' });
    },
    [runSearch],
  );

  return {
    state,
    chooseOption: useCallback((option) => dispatch({ type: 'optionChosen', option }), []),
    setQuery: useCallback((query) => dispatch({ type: 'queryChanged', query }), []),
    handleKey,
    runSearch,
    reset: useCallback(() => dispatch({ type: 'reset' }), []),
    clear: useCallback(() => dispatch({ type: 'cleared' }), []),
    select: useCallback((item) => dispatch({ type: 'resultSelected', item }), []),
    placeMarker: useCallback((lat, lng) => dispatch({ type: 'markerPlaced', point: { lat, lng } }), []),
  };
}
