import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type OlMap from 'ol/Map';
import { fromLonLat } from 'ol/proj';
import type { LocatorSearch } from '../useLocatorSearch';
import type { SearchState } from '../searchState';
import { MapView } from '@portal/web-kit';
import { LocatorMap } from './LocatorMap';
import { MARKER_KEYS_TEXT, MARKER_STEP_PX, MarkerKeyboardControls } from './MarkerKeyboardControls';
import type { PlaceDetails } from './usePlaceDetails';

// The real MapView (OpenLayers in jsdom); only the session is stubbed.
jest.mock('@portal/web-kit', () => ({
  ...jest.requireActual('@portal/web-kit'),
  useCurrentUser: () => ({ user: null }),
}));

// jsdom has no ResizeObserver, which OpenLayers uses to watch its container.
(globalThis as { ResizeObserver?: unknown }).ResizeObserver ??= class {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
};

const CAPE_TOWN = { lat: -33.9249, lng: 18.4241 };
const details = { loading: false, reverse: null, area: null, failed: false } as PlaceDetails;
const placeMarker = jest.fn();
const searchIn = (state: Partial<SearchState>) =>
  ({
    state: { selected: null, markerMode: false, option: null, ...state },
    placeMarker,
  }) as unknown as LocatorSearch;

async function renderMap(search: LocatorSearch, draggable = true) {
  let olMap: OlMap | undefined;
  const view = render(
    <LocatorMap
      search={search}
      details={details}
      draggable={draggable}
      onMapReady={(map) => (olMap = map)}
    />,
  );
  await waitFor(() => expect(olMap).toBeDefined());
  return { ...view, map: () => olMap! };
}
const button = (name: string) => screen.queryByRole('button', { name });

beforeEach(() => placeMarker.mockReset());

describe("the marker from the keyboard (issue 24): the map's click and drag as buttons", () => {
  it("places the marker at the map's centre in marker mode only", async () => {
    const { map, rerender } = await renderMap(searchIn({ option: 'address' }));
    expect(button(MARKER_KEYS_TEXT.placeAtCentre)).toBeNull();
    rerender(<LocatorMap search={searchIn({ option: 'marker', markerMode: true })} details={details} />);
    await waitFor(() => expect(button(MARKER_KEYS_TEXT.placeAtCentre)).not.toBeNull());
    map()
      .getView()
      .setCenter(fromLonLat([CAPE_TOWN.lng, CAPE_TOWN.lat]));
    fireEvent.click(button(MARKER_KEYS_TEXT.placeAtCentre)!);
    expect(placeMarker).toHaveBeenCalledTimes(1);
    const [lat, lng] = placeMarker.mock.calls[0];
    expect(lat).toBeCloseTo(CAPE_TOWN.lat, 6);
    expect(lng).toBeCloseTo(CAPE_TOWN.lng, 6);
  });

  it('moves the marker a few pixels each way (LocatorMap shows the arrows while the marker is draggable)', async () => {
    let olMap: OlMap | undefined;
    render(
      <MapView onMapReady={(map) => (olMap = map)}>
        <MarkerKeyboardControls placeable={false} movable={CAPE_TOWN} onPlace={placeMarker} />
      </MapView>,
    );
    await waitFor(() => expect(button(MARKER_KEYS_TEXT.move('north'))).not.toBeNull());
    olMap!.getView().setResolution(1); // one unit of the map's projection a pixel
    fireEvent.click(button(MARKER_KEYS_TEXT.move('north'))!);
    fireEvent.click(button(MARKER_KEYS_TEXT.move('east'))!);
    const [north, east] = placeMarker.mock.calls.map(([lat, lng]) => fromLonLat([lng, lat]));
    const [x, y] = fromLonLat([CAPE_TOWN.lng, CAPE_TOWN.lat]);
    expect(north[0]).toBeCloseTo(x, 4);
    expect(north[1]).toBeCloseTo(y + MARKER_STEP_PX, 4);
    expect(east[0]).toBeCloseTo(x + MARKER_STEP_PX, 4);
    expect(east[1]).toBeCloseTo(y, 4);
    expect(button(MARKER_KEYS_TEXT.placeAtCentre)).toBeNull();
  });
});
