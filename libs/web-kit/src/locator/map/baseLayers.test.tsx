import { fireEvent, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import type OlMap from 'ol/Map';
import { TILES_API } from '@portal/contracts';
import type { MapViewProps } from '@portal/web-kit';
import type { LocatorSearch } from '../useLocatorSearch';
import { BUILTIN_SATELLITE_LAYER, baseLayerProps } from './baseLayers';
import { LocatorMap } from './LocatorMap';
import type { PlaceDetails } from './usePlaceDetails';

// MapView itself (OpenLayers) is web-kit's to test; here it only shows which base layers it was given.
let mapViewProps: MapViewProps | undefined;
let viewZoom = 16;
jest.mock('@portal/web-kit', () => ({
  ...jest.requireActual('@portal/web-kit'),
  useCurrentUser: () => ({ user: null }),
  MapView: (props: MapViewProps) => {
    mapViewProps = props;
    useEffect(() => {
      const fakeMap = { getView: () => ({ getZoom: () => viewZoom }), on: jest.fn() };
      props.onMapReady?.(fakeMap as unknown as OlMap);
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, []);
    return <div data-testid="map-view" />;
  },
}));

const search = {
  state: { selected: null, markerMode: false, option: null },
  placeMarker: jest.fn(),
} as unknown as LocatorSearch;
const details = {} as PlaceDetails;

afterEach(() => {
  delete (globalThis as { __PORTAL_CONFIG__?: unknown }).__PORTAL_CONFIG__;
  mapViewProps = undefined;
  viewZoom = 16;
});

describe('the Street / Satellite switch over the locator map', () => {
  it('starts on the street map (no raster base layer) and switches to the satellite tiles and back', async () => {
    render(<LocatorMap search={search} details={details} />);
    await screen.findByTestId('map-view');
    expect(screen.getByRole('button', { name: 'Street' }).getAttribute('aria-pressed')).toBe('true');
    expect(mapViewProps?.baseLayers).toEqual([]);
    expect(mapViewProps?.labelsOverImagery).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Satellite' }));
    expect(screen.getByRole('button', { name: 'Satellite' }).getAttribute('aria-pressed')).toBe('true');
    expect(mapViewProps?.activeBaseLayerId).toBe('satellite');
    expect(mapViewProps?.baseLayers).toEqual([
      { id: 'satellite', title: 'Satellite', url: TILES_API.satellite, maxNativeZoom: 19, tileSize: 512 },
    ]);
    // Street names and house numbers stay readable over the imagery.
    expect(mapViewProps?.labelsOverImagery).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Street' }));
    expect(mapViewProps?.baseLayers).toEqual([]);
    expect(mapViewProps?.labelsOverImagery).toBe(false);
  });

  it('keeps the street map while the view is shallower than the satellite tiles', async () => {
    viewZoom = 10;
    render(<LocatorMap search={search} details={details} />);
    await screen.findByTestId('map-view');
    fireEvent.click(screen.getByRole('button', { name: 'Satellite' }));
    expect(screen.getByRole('button', { name: 'Satellite' }).getAttribute('aria-pressed')).toBe('true');
    expect(mapViewProps?.baseLayers).toEqual([]);
  });
});

describe('baseLayerProps', () => {
  it('uses the built-in satellite tiles from view zoom 14, with no fallback but the street map', () => {
    expect(baseLayerProps('satellite', 14)).toEqual({
      baseLayers: [BUILTIN_SATELLITE_LAYER],
      activeBaseLayerId: 'satellite',
    });
    expect(baseLayerProps('satellite', 13.5)).toEqual({ baseLayers: [], activeBaseLayerId: undefined });
    expect(baseLayerProps('street', 18)).toEqual({ baseLayers: [], activeBaseLayerId: undefined });
  });

  it("prefers the deployment's satellite layer at any zoom, falling back to its street layer", () => {
    const street = { id: 'street', title: 'Street', url: 'https://tiles.example/street/{z}/{x}/{y}.png' };
    const satellite = { id: 'satellite', title: 'Aerial', url: 'https://tiles.example/sat/{z}/{x}/{y}.jpg' };
    (globalThis as { __PORTAL_CONFIG__?: unknown }).__PORTAL_CONFIG__ = { baseLayers: [street, satellite] };
    expect(baseLayerProps('satellite', 6)).toEqual({
      baseLayers: [{ ...satellite, fallback: 'street' }, street],
      activeBaseLayerId: 'satellite',
    });
    expect(baseLayerProps('street', 6)).toEqual({ baseLayers: [street], activeBaseLayerId: 'street' });
  });
});
