import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import Feature from 'ol/Feature';
import type OlMap from 'ol/Map';
import MapBrowserEvent from 'ol/MapBrowserEvent';
import Point from 'ol/geom/Point';
import Draw, { DrawEvent } from 'ol/interaction/Draw';
import { fromLonLat } from 'ol/proj';
import type { LocatorSearch } from '../useLocatorSearch';
import type { SearchState } from '../searchState';
import { DRAW_MARKER_LABEL } from './DrawMarkerTool';
import { LocatorMap } from './LocatorMap';
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
const markerMode = searchIn({ option: 'marker', markerMode: true });

/** Renders the locator map and waits for the OpenLayers map (web-kit's MapView is a lazy chunk). */
async function renderMap(search: LocatorSearch) {
  let olMap: OlMap | undefined;
  const view = render(<LocatorMap search={search} details={details} onMapReady={(map) => (olMap = map)} />);
  await waitFor(() => expect(olMap).toBeDefined());
  return { ...view, map: () => olMap! };
}

const drawsOf = (map: OlMap) =>
  map
    .getInteractions()
    .getArray()
    .filter((interaction): interaction is Draw => interaction instanceof Draw);
const drawButton = () => screen.queryByRole('button', { name: DRAW_MARKER_LABEL });

function clickMap(map: OlMap, at: { lat: number; lng: number }) {
  const event = new MapBrowserEvent('click', map, new MouseEvent('click') as PointerEvent);
  event.coordinate = fromLonLat([at.lng, at.lat]);
  map.dispatchEvent(event);
}
const drawEnd = (draw: Draw, at: { lat: number; lng: number }) =>
  draw.dispatchEvent(new DrawEvent('drawend', new Feature(new Point(fromLonLat([at.lng, at.lat])))));

beforeEach(() => placeMarker.mockReset());

describe('the draw-a-marker tool on the locator map', () => {
  it('is offered only once a search option is chosen and marker mode is on, and not in picture view', async () => {
    const { rerender } = await renderMap(searchIn({}));
    expect(drawButton()).toBeNull();
    rerender(<LocatorMap search={searchIn({ option: 'address' })} details={details} />);
    expect(drawButton()).toBeNull();
    rerender(<LocatorMap search={markerMode} details={details} />);
    expect(drawButton()).not.toBeNull();
    rerender(<LocatorMap search={markerMode} details={details} draggable={false} />);
    expect(drawButton()).toBeNull();
  });

  it('adds a point Draw interaction while pressed; the button again or Escape takes it off', async () => {
    const { map } = await renderMap(markerMode);
    expect(drawsOf(map())).toHaveLength(0);

    fireEvent.click(drawButton()!);
    expect(drawButton()!.getAttribute('aria-pressed')).toBe('true');
    expect(drawsOf(map())).toHaveLength(1);
    expect(map().getViewport()!.style.cursor).toBe('crosshair');

    fireEvent.click(drawButton()!);
    expect(drawButton()!.getAttribute('aria-pressed')).toBe('false');
    expect(drawsOf(map())).toHaveLength(0);
    expect(map().getViewport()!.style.cursor).toBe('');

    fireEvent.click(drawButton()!);
    expect(drawsOf(map())).toHaveLength(1);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(drawsOf(map())).toHaveLength(0);
    expect(placeMarker).not.toHaveBeenCalled();
  });

  it('places the marker where the point was drawn and turns itself off', async () => {
    const { map } = await renderMap(markerMode);
    fireEvent.click(drawButton()!);
    act(() => drawEnd(drawsOf(map())[0], CAPE_TOWN));
    expect(placeMarker).toHaveBeenCalledTimes(1);
    const [lat, lng] = placeMarker.mock.calls[0] as [number, number];
    expect(lat).toBeCloseTo(CAPE_TOWN.lat, 6);
    expect(lng).toBeCloseTo(CAPE_TOWN.lng, 6);
    expect(drawsOf(map())).toHaveLength(0);
    expect(drawButton()!.getAttribute('aria-pressed')).toBe('false');
  });

  it('keeps the plain click from placing the marker too while drawing', async () => {
    const { map } = await renderMap(markerMode);
    fireEvent.click(drawButton()!);
    act(() => clickMap(map(), CAPE_TOWN));
    expect(placeMarker).not.toHaveBeenCalled();

    // A click that reaches the map in the same turn as the drawend (before React re-renders) is the
    // drawing's own click: still one placement.
    act(() => {
      drawEnd(drawsOf(map())[0], CAPE_TOWN);
      clickMap(map(), CAPE_TOWN);
    });
    expect(placeMarker).toHaveBeenCalledTimes(1);

    // With the tool off again, a click places the marker as before.
    act(() => clickMap(map(), { lat: -33.93, lng: 18.42 }));
    expect(placeMarker).toHaveBeenCalledTimes(2);
  });

  it('takes the interaction off when marker mode ends, and starts off when it comes back', async () => {
    const { map, rerender } = await renderMap(markerMode);
    fireEvent.click(drawButton()!);
    expect(drawsOf(map())).toHaveLength(1);
    rerender(<LocatorMap search={searchIn({ option: null })} details={details} />);
    expect(drawsOf(map())).toHaveLength(0);
    expect(drawButton()).toBeNull();

    // Back in marker mode the tool starts off.
    rerender(<LocatorMap search={markerMode} details={details} />);
    expect(drawButton()!.getAttribute('aria-pressed')).toBe('false');
    expect(drawsOf(map())).toHaveLength(0);
  });
});
