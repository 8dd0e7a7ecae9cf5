import type VectorSource from 'ol/source/Vector';
import { act, render, screen, waitFor } from '@testing-library/react';
import type OlMap from 'ol/Map';
import MapBrowserEvent from 'ol/MapBrowserEvent';
import TileLayer from 'ol/layer/Tile';
import type XYZ from 'ol/source/XYZ';
import { TileSourceEvent } from 'ol/source/Tile';
import type Tile from 'ol/Tile';
import { MAP_DEFAULTS } from '@portal/domain';
import { MapView } from './MapView';
import { useOlMap } from './MapContext';
import { lonLatToView } from './layers';
import { type BaseLayerConfig } from './baseLayerConfig';
import { installJsdomMapSupport } from './testing/jsdomMapSupport';
import { TILE_ERRORS_BEFORE_FALLBACK } from './tileLayers';

beforeAll(installJsdomMapSupport);

const streetLayers: BaseLayerConfig[] = [
  {
    id: 'street',
    title: 'Street',
    url: 'https://street.example/{z}/{x}/{y}.png',
    fallback: 'street-fallback',
  },
  { id: 'street-fallback', title: 'Street (fallback)', url: 'https://backup.example/{z}/{x}/{y}.png' },
];

function renderMap(props: Parameters<typeof MapView>[0] = {}): { map: () => OlMap; container: HTMLElement } {
  let readyMap: OlMap | undefined;
  const { container } = render(<MapView {...props} onMapReady={(map) => (readyMap = map)} />);
  return { map: () => readyMap!, container: container.firstElementChild as HTMLElement };
}

function tileLayersOf(map: OlMap): TileLayer<XYZ>[] {
  return map.getAllLayers().filter((layer): layer is TileLayer<XYZ> => layer instanceof TileLayer);
}

describe('MapView', () => {
  afterEach(() => {
    delete (globalThis as { __PORTAL_CONFIG__?: unknown }).__PORTAL_CONFIG__;
  });

  it('starts at the spec centre and zoom with max zoom 24', () => {
    const { map } = renderMap();
    const view = map().getView();
    expect(view.getCenter()).toEqual(lonLatToView(MAP_DEFAULTS.centre));
    expect(view.getZoom()).toBe(6);
    expect(view.getMaxZoom()).toBe(24);
  });

  it('draws the offline Natural Earth map on an ocean background when no base layer is configured', async () => {
    const { map, container } = renderMap();
    expect(container.dataset.offlineMap).toBe('true');
    expect(container.style.background).not.toBe('');
    await waitFor(() =>
      expect(
        map()
          .getAllLayers()
          .some((layer) => layer.get('title') === 'Offline map (Natural Earth)'),
      ).toBe(true),
    );
    const naturalEarth = map()
      .getAllLayers()
      .find((layer) => layer.get('title') === 'Offline map (Natural Earth)');
    expect(naturalEarth?.getSource()?.getAttributions()?.({} as never)).toEqual(['Natural Earth']);
  });

  it('fetches the outlines as data, the coarse file below zoom 5 and the detailed one from it', async () => {
    const { map } = renderMap();
    await waitFor(() => expect(map().getAllLayers().length).toBeGreaterThan(0));
    const levels = map()
      .getAllLayers()
      .filter((layer) => layer.get('title') === 'Offline map (Natural Earth)')
      .map((layer) => ({
        url: (layer.getSource() as VectorSource).getUrl(),
        minZoom: layer.getMinZoom(),
        maxZoom: layer.getMaxZoom(),
      }));
    // Jest stands in one URL for every asset (tools/jest-asset-url-stub.cjs); webpack gives each its own.
    expect(levels).toEqual([
      { url: '/assets/stub.geojson', minZoom: -Infinity, maxZoom: 5 },
      { url: '/assets/stub.geojson', minZoom: 5, maxZoom: Infinity },
    ]);
  });

  it('shows the first configured base layer, 512 px tiles up to native zoom 17', () => {
    const { map, container } = renderMap({ baseLayers: streetLayers });
    expect(container.dataset.offlineMap).toBeUndefined();
    const layers = tileLayersOf(map());
    expect(layers.map((layer) => layer.getVisible())).toEqual([true, false]);
    const grid = layers[0].getSource()!.getTileGrid()!;
    expect(grid.getTileSize(0)).toBe(512);
    expect(grid.getMaxZoom()).toBe(17);
  });

  it('reads base layers from window.__PORTAL_CONFIG__ when no prop is given', () => {
    (globalThis as { __PORTAL_CONFIG__?: unknown }).__PORTAL_CONFIG__ = { baseLayers: streetLayers };
    const { map } = renderMap();
    expect(tileLayersOf(map()).map((layer) => layer.get('baseLayerId'))).toEqual([
      'street',
      'street-fallback',
    ]);
  });

  it('switches to the fallback layer when the tile server never answers', async () => {
    const { map } = renderMap({ baseLayers: streetLayers });
    const [street, fallback] = tileLayersOf(map());
    act(() => {
      for (let i = 0; i < TILE_ERRORS_BEFORE_FALLBACK; i += 1) {
        street.getSource()!.dispatchEvent(new TileSourceEvent('tileloaderror', {} as Tile));
      }
    });
    await waitFor(() => expect(fallback.getVisible()).toBe(true));
    expect(street.getVisible()).toBe(false);
  });

  it('reports clicks in latitude/longitude', () => {
    const onClick = jest.fn();
    let olMap: OlMap | undefined;
    render(<MapView onClick={onClick} onMapReady={(map) => (olMap = map)} />);
    const event = new MapBrowserEvent('click', olMap!, new MouseEvent('click') as PointerEvent);
    event.coordinate = lonLatToView({ lat: -33.9249, lng: 18.4241 });
    olMap!.dispatchEvent(event);
    expect(onClick).toHaveBeenCalledTimes(1);
    const [lat, lng] = onClick.mock.calls[0] as [number, number];
    expect(lat).toBeCloseTo(-33.9249, 6);
    expect(lng).toBeCloseTo(18.4241, 6);
  });

  it('gives children the map through useOlMap and detaches the map on unmount', () => {
    let childMap: OlMap | undefined;
    function Child() {
      childMap = useOlMap();
      return <span>child</span>;
    }
    let readyMap: OlMap | undefined;
    const { container, unmount } = render(
      <MapView baseLayers={[]} onMapReady={(map) => (readyMap = map)}>
        <Child />
      </MapView>,
    );
    expect(screen.getByText('child')).toBeTruthy();
    expect(childMap).toBe(readyMap);
    const mapContainer = container.firstElementChild!;
    expect(mapContainer.querySelector('.ol-viewport')).not.toBeNull();
    unmount();
    expect(readyMap!.getTarget()).toBeFalsy();
    expect(mapContainer.querySelector('.ol-viewport')).toBeNull();
  });

  it('useOlMap outside a MapView says so', () => {
    function Orphan() {
      useOlMap();
      return null;
    }
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Orphan />)).toThrow(/inside a <MapView>/);
  });
});
