/**
 * The locator kit (`@portal/web-kit/locator`): the address search, its state and calls, and the map with
 * the main marker, shared by every screen that picks a location (mf-locator's /savi, /avs, /locate and
 * mf-iris's /iris), and the layer of requests as clustered points (mf-locator's /spatialkey,
 * mf-requests-admin's duplicate check). A subpath of its own, like the grid: it brings OpenLayers and the search's MUI parts,
 * which stay off the pages that have no map (the login page). What it needs of the one store, api, session
 * and map context it imports through '@portal/web-kit' (the shared singleton), never by relative path.
 */
export { parseGps, formatGps } from './gps';
export {
  SEARCH_OPTIONS,
  SEARCH_OPTION_IDS,
  AUTOCOMPLETE_DEBOUNCE_MS,
  AUTOCOMPLETE_MIN_CHARS,
  COUNTRY_SUFFIX,
  withCountry,
  keyAction,
  type SearchOption,
  type SearchOptionId,
  type KeyAction,
} from './searchOptions';
export {
  searchReducer,
  initialSearchState,
  offersCantLocate,
  type SearchState,
  type SearchAction,
  type SelectedPlace,
  type SearchStatus,
} from './searchState';
export { useLocatorSearch, useAvsOptions, type LocatorSearch } from './useLocatorSearch';
export { SearchPanel, ResultList, type SearchPanelProps, type ResultListProps } from './SearchPanel';
export { AlertDialog, useAlerts } from './AlertDialog';
export { SearchLayout, type SearchLayoutProps } from './SearchLayout';
export { LocatorMap, type LocatorMapProps } from './map/LocatorMap';
export { usePlaceDetails, isAreaPlace, AREA_TYPES, type PlaceDetails } from './map/usePlaceDetails';
export { GeometryLayer, readGeometry, type GeometryLayerProps } from './map/GeometryLayer';
export { MainMarker, type MainMarkerProps } from './map/MainMarker';
export { MapPopup, POPUP_SIZE } from './map/MapPopup';
export { MarkerPopup, type MarkerPopupProps } from './map/MarkerPopup';
export { MapFocus, type MapFocusProps } from './map/MapFocus';
// Requests as clustered points (the mapping service's map, the duplicate check's).
export {
  RequestPointsLayer,
  requestPointsStyle,
  requestPointFeatures,
  pointsOfFeature,
  type RequestPointsLayerProps,
  type RequestPointsLook,
  type RequestPointsClick,
} from './map/RequestPointsLayer';
export { PARCEL_STYLE, AREA_STYLE, MAIN_MARKER_STYLE, ZOOM } from './map/styles';
export { SEARCH_TEXT, POPUP_TEXT } from './texts';
// The address and imagery calls (locatorSearchApi) and their hooks, as the module names them.
export * from './locatorSearchApi';
// The request form's group references (spec 01 §3, §5): fields, checks, the `reference` map, the user's
// references call and the fields component; /savi's request form and /iris's order step.
export * from './references';
// Request creation (PUT /api/v1.0/request/), for every screen that logs a request.
export {
  requestCreationApi,
  useCreateRequestMutation,
  type CreateRequestAnswer,
  type CreateRequestArgs,
} from './requestCreation';
