import { act, render, waitFor } from '@testing-library/react';
import type OlMap from 'ol/Map';
import Feature from 'ol/Feature';
import LineString from 'ol/geom/LineString';
import Point from 'ol/geom/Point';
import VectorTileLayer from 'ol/layer/VectorTile';
import type VectorTileSource from 'ol/source/VectorTile';
import { TileSourceEvent } from 'ol/source/Tile';
import type Tile from 'ol/Tile';
import type { StyleFunction } from 'ol/style/Style';
import type Style from 'ol/style/Style';
import { TILES_API } from '@portal/contracts';
import { MapView } from './MapView';
import { NotFoundMap } from './NotFoundMap';
import { installJsdomMapSupport } from './testing/jsdomMapSupport';
import { TILE_ERRORS_BEFORE_FALLBACK } from './tileLayers';
import {
  createParcelOverlayLayer,
  createStreetMapLayers,
  roadWidthAt,
  stylePlace,
  styleRoad,
  VECTOR_LAYER_MIN_ZOOM,
} from './vectorTiles';

beforeAll(installJsdomMapSupport);

const vectorLayersOf = (map: OlMap) =>
  map
    .getAllLayers()
    .filter((layer): layer is VectorTileLayer<VectorTileSource> => layer instanceof VectorTileLayer);
const tileLayerNames = (map: OlMap) => vectorLayersOf(map).map((layer) => layer.get('tileLayer') as string);

function failTiles(layer: VectorTileLayer<VectorTileSource>, times = TILE_ERRORS_BEFORE_FALLBACK) {
  for (let i = 0; i < times; i++)
    layer.getSource()!.dispatchEvent(new TileSourceEvent('tileloaderror', {} as Tile));
}

/** Resolution (m/px) at a view zoom, as OpenLayers passes it to style functions. */
const resolutionAt = (zoom: number) => 156_543.033_928 / 2 ** zoom;

describe('vector tile layers', () => {
  it('read the locator tiles on the 512-pixel grid, native to zoom 17', () => {
    for (const layer of [...createStreetMapLayers(), createParcelOverlayLayer()]) {
      const name = layer.get('tileLayer');
      const source = layer.getSource()!;
      expect(source.getUrls()).toEqual([TILES_API.template(name)]);
      const grid = source.getTileGrid()!;
      expect(grid.getTileSize(0)).toBe(512);
      expect(grid.getMaxZoom()).toBe(17);
      expect(layer.getMinZoom()).toBe(VECTOR_LAYER_MIN_ZOOM[name as keyof typeof VECTOR_LAYER_MIN_ZOOM]);
      // The URL a tile is fetched from.
      const url = source.getTileUrlFunction()([14, 8911, 9915], 1, source.getProjection()!);
      expect(url).toBe(`/api/v1.0/tiles/${name}/14/8911/9915.mvt`);
    }
  });

  it('stack labels over roads over the base map, and parcels over the street map', () => {
    const [roads, addresses, places] = createStreetMapLayers();
    const parcels = createParcelOverlayLayer();
    expect(roads.getZIndex()!).toBeGreaterThan(-100);
    expect(addresses.getZIndex()!).toBeGreaterThan(roads.getZIndex()!);
    expect(places.getZIndex()!).toBeGreaterThan(addresses.getZIndex()!);
    expect(parcels.getZIndex()!).toBeGreaterThan(places.getZIndex()!);
    expect(parcels.getZIndex()!).toBeLessThan(0);
    expect(places.getDeclutter()).toBeTruthy();
  });

  it('style parcels green at opacity 0.5 (spec 01 §9)', () => {
    const style = createParcelOverlayLayer().getStyle() as Style;
    expect(style.getFill()?.getColor()).toBe('rgba(0, 128, 0, 0.5)');
  });

  it('draw roads wider as the map zooms in, with names from zoom 15', () => {
    const road = new Feature({
      geometry: new LineString([
        [0, 0],
        [1, 1],
      ]),
      name: 'Kloof Street',
    });
    expect(roadWidthAt(12)).toBeLessThan(roadWidthAt(15));
    expect(roadWidthAt(15)).toBeLessThan(roadWidthAt(18));
    const far = styleRoad(road, resolutionAt(13));
    expect(far).toHaveLength(2);
    const near = styleRoad(road, resolutionAt(17));
    expect(near).toHaveLength(3);
    expect(near[2].getText()?.getText()).toBe('Kloof Street');
  });

  it('label places by kind, provinces in capitals, and skip kinds it does not know', () => {
    const place = (kind: string, name: string) => new Feature({ geometry: new Point([0, 0]), kind, name });
    expect(stylePlace(place('town', 'Cape Town'))?.getText()?.getText()).toBe('Cape Town');
    expect(stylePlace(place('province', 'Western Cape'))?.getText()?.getText()).toBe('WESTERN CAPE');
    expect(stylePlace(place('district', 'City of Cape Town'))).toBeUndefined();
  });

  it('report a server that never delivers once, for the whole street map', () => {
    const onUnreachable = jest.fn();
    const layers = createStreetMapLayers(onUnreachable);
    failTiles(layers[0]);
    failTiles(layers[2]);
    expect(onUnreachable).toHaveBeenCalledTimes(1);
  });

  it('do not give up on a server that delivered tiles (a 404 here and there is normal)', () => {
    const onUnreachable = jest.fn();
    const [roads] = createStreetMapLayers(onUnreachable);
    roads.getSource()!.dispatchEvent(new TileSourceEvent('tileloadend', {} as Tile));
    failTiles(roads, 10);
    expect(onUnreachable).not.toHaveBeenCalled();
  });
});

describe('MapView with the locator tiles', () => {
  function renderMap(props: Parameters<typeof MapView>[0] = {}) {
    let readyMap: OlMap | undefined;
    const view = render(<MapView {...props} onMapReady={(map) => (readyMap = map)} />);
    return { ...view, map: () => readyMap!, container: view.container.firstElementChild as HTMLElement };
  }

  it('draws the street map over Natural Earth when no raster base layer is configured', async () => {
    const { map, container } = renderMap();
    expect(container.dataset.streetMap).toBe('true');
    expect(tileLayerNames(map())).toEqual(['roads', 'addresses', 'places']);
    // Natural Earth stays underneath (the map at low zoom, and the fallback).
    await waitFor(() => expect(map().getAllLayers()).toHaveLength(4));
    const naturalEarth = map()
      .getAllLayers()
      .find((layer) => !(layer instanceof VectorTileLayer))!;
    expect(naturalEarth.getZIndex()).toBe(-100);
  });

  it('drops the street map and keeps Natural Earth when the tiles fail (no session, service down)', async () => {
    const { map, container } = renderMap();
    act(() => failTiles(vectorLayersOf(map())[0]));
    await waitFor(() => expect(vectorLayersOf(map())).toHaveLength(0));
    expect(container.dataset.streetMap).toBeUndefined();
    expect(container.dataset.offlineMap).toBe('true');
    await waitFor(() => expect(map().getAllLayers()).toHaveLength(1));
  });

  it('leaves the street map out when a raster base layer is shown, or when told to', () => {
    const raster = renderMap({
      baseLayers: [{ id: 'street', title: 'Street', url: 'https://tiles.example/{z}/{x}/{y}.png' }],
    });
    expect(tileLayerNames(raster.map())).toEqual([]);
    raster.unmount();
    const without = renderMap({ streetTiles: false });
    expect(tileLayerNames(without.map())).toEqual([]);
  });

  it('adds and removes the parcel overlay with the parcels prop, over any base layer', () => {
    const { map, rerender } = renderMap({ baseLayers: [], parcels: true });
    expect(tileLayerNames(map())).toContain('parcels');
    rerender(<MapView baseLayers={[]} parcels={false} />);
    expect(tileLayerNames(map())).not.toContain('parcels');
    rerender(
      <MapView
        baseLayers={[{ id: 'sat', title: 'Satellite', url: 'https://sat.example/{z}/{x}/{y}.jpg' }]}
        parcels
      />,
    );
    expect(tileLayerNames(map())).toEqual(['parcels']);
  });

  it('keeps the not-found map (anonymous visitors) on Natural Earth only', async () => {
    const { container } = render(<NotFoundMap intervalMs={60_000} />);
    const mapContainer = container.querySelector('[data-testid="not-found-map"] > div') as HTMLElement;
    expect(mapContainer.dataset.offlineMap).toBe('true');
    expect(mapContainer.dataset.streetMap).toBeUndefined();
  });
});

// The style function type is exported for pages that restyle a layer; keep the street styles assignable.
const _roadStyleIsAStyleFunction: StyleFunction = styleRoad;
void _roadStyleIsAStyleFunction;
