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
import { asArray } from 'ol/color';
import { TILES_API } from '@portal/contracts';
import { MapView } from './MapView';
import type { BaseLayerConfig } from './baseLayerConfig';
import { NotFoundMap } from './NotFoundMap';
import { installJsdomMapSupport } from './testing/jsdomMapSupport';
import { TILE_ERRORS_BEFORE_FALLBACK } from './tileLayers';
import {
  createImageryLabelLayers,
  createParcelOverlayLayer,
  createStreetMapLayers,
  IMAGERY_LABEL_HALO,
  roadWidthAt,
  styleAddress,
  styleImageryAddress,
  styleImageryPlace,
  styleImageryRoad,
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
/** The vector layers as `look:layer` (street or imagery look). */
const lookedLayers = (map: OlMap) =>
  vectorLayersOf(map).map((layer) => `${layer.get('look') as string}:${layer.get('tileLayer') as string}`);
const alphaOf = (colour: unknown) => asArray(colour as string)[3];

function failTiles(layer: VectorTileLayer<VectorTileSource>, times = TILE_ERRORS_BEFORE_FALLBACK) {
  for (let i = 0; i < times; i++)
    layer.getSource()!.dispatchEvent(new TileSourceEvent('tileloaderror', {} as Tile));
}

/** Resolution (m/px) at a view zoom, as OpenLayers passes it to style functions. */
const resolutionAt = (zoom: number) => 156_543.033_928 / 2 ** zoom;

/** A named road, as the street tiles give one. */
const kloofStreet = () =>
  new Feature({
    geometry: new LineString([
      [0, 0],
      [1, 1],
    ]),
    name: 'Kloof Street',
  });

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
    const road = kloofStreet();
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

  it('label roads over imagery in white with a dark halo, over thin see-through lines', () => {
    const road = kloofStreet();
    const near = styleImageryRoad(road, resolutionAt(17));
    expect(near).toHaveLength(2);
    const [line, label] = near;
    const text = label.getText()!;
    expect(text.getText()).toBe('Kloof Street');
    expect(text.getPlacement()).toBe('line');
    expect(text.getFill()?.getColor()).toBe('#ffffff');
    expect(text.getStroke()?.getColor()).toBe(IMAGERY_LABEL_HALO);
    expect(text.getStroke()!.getWidth()).toBeGreaterThanOrEqual(2);
    expect(label.getZIndex()).toBeGreaterThan(line.getZIndex()!);
    // The road itself: see-through and thinner than the street map's opaque fill.
    const stroke = line.getStroke()!;
    expect(alphaOf(stroke.getColor())).toBeLessThan(1);
    const streetFill = styleRoad(road, resolutionAt(17))[1].getStroke()!;
    expect(stroke.getWidth()!).toBeLessThan(streetFill.getWidth()!);
    // Shallower than the labels' zoom, only the line.
    expect(styleImageryRoad(road, resolutionAt(13))).toHaveLength(1);
  });

  it("label places and house numbers over imagery on the same dark halo, by the street map's rules", () => {
    const place = (kind: string, name: string) => new Feature({ geometry: new Point([0, 0]), kind, name });
    const town = styleImageryPlace(place('town', 'Stellenbosch'))!.getText()!;
    expect(town.getText()).toBe('Stellenbosch');
    expect(town.getStroke()?.getColor()).toBe(IMAGERY_LABEL_HALO);
    expect(town.getFont()).toBe(stylePlace(place('town', 'Stellenbosch'))!.getText()!.getFont());
    expect(styleImageryPlace(place('province', 'Western Cape'))?.getText()?.getText()).toBe('WESTERN CAPE');
    expect(styleImageryPlace(place('district', 'Cape Winelands'))).toBeUndefined();

    const house = new Feature({ geometry: new Point([0, 0]), house_number: '12A' });
    const number = styleImageryAddress(house).getText()!;
    expect(number.getText()).toBe('12A');
    expect(number.getStroke()?.getColor()).toBe(IMAGERY_LABEL_HALO);
    expect(number.getFill()?.getColor()).not.toBe(styleAddress(house).getText()!.getFill()?.getColor());
  });

  it("make the labels over imagery from the street map's tiles, reported unreachable once", () => {
    const onUnreachable = jest.fn();
    const layers = createImageryLabelLayers(onUnreachable);
    expect(layers.map((layer) => layer.get('tileLayer'))).toEqual(['roads', 'addresses', 'places']);
    for (const layer of layers) {
      expect(layer.get('look')).toBe('imagery');
      expect(layer.getSource()!.getUrls()).toEqual([TILES_API.template(layer.get('tileLayer'))]);
      expect(layer.getStyle()).not.toBe(createStreetMapLayers()[0].getStyle());
    }
    failTiles(layers[0]);
    failTiles(layers[1]);
    expect(onUnreachable).toHaveBeenCalledTimes(1);
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
    // Natural Earth stays underneath (the map at low zoom, and the fallback): its two levels of detail.
    await waitFor(() => expect(map().getAllLayers()).toHaveLength(5));
    const naturalEarth = map()
      .getAllLayers()
      .filter((layer) => !(layer instanceof VectorTileLayer));
    expect(naturalEarth.map((layer) => layer.getZIndex())).toEqual([-100, -100]);
  });

  it('drops the street map and keeps Natural Earth when the tiles fail (no session, service down)', async () => {
    const { map, container } = renderMap();
    act(() => failTiles(vectorLayersOf(map())[0]));
    await waitFor(() => expect(vectorLayersOf(map())).toHaveLength(0));
    expect(container.dataset.streetMap).toBeUndefined();
    expect(container.dataset.offlineMap).toBe('true');
    await waitFor(() => expect(map().getAllLayers()).toHaveLength(2)); // Natural Earth's two levels
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

  const satellite: BaseLayerConfig[] = [
    { id: 'satellite', title: 'Satellite', url: 'https://sat.example/{z}/{x}/{y}.jpg' },
  ];

  it('draws labels over imagery only while a raster base layer is shown and labelsOverImagery is on', () => {
    const { map, container, rerender } = renderMap({ baseLayers: satellite, labelsOverImagery: true });
    expect(container.dataset.imageryLabels).toBe('true');
    expect(container.dataset.streetMap).toBeUndefined();
    expect(lookedLayers(map())).toEqual(['imagery:roads', 'imagery:addresses', 'imagery:places']);

    // Back to the street map (no raster layer): the labels go, the street map's own look comes.
    rerender(<MapView baseLayers={[]} labelsOverImagery />);
    expect(container.dataset.imageryLabels).toBeUndefined();
    expect(lookedLayers(map())).toEqual(['street:roads', 'street:addresses', 'street:places']);

    rerender(<MapView baseLayers={satellite} labelsOverImagery />);
    expect(lookedLayers(map())).toEqual(['imagery:roads', 'imagery:addresses', 'imagery:places']);
    rerender(<MapView baseLayers={satellite} />);
    expect(lookedLayers(map())).toEqual([]);
    expect(container.dataset.imageryLabels).toBeUndefined();
    rerender(<MapView baseLayers={satellite} labelsOverImagery streetTiles={false} />);
    expect(lookedLayers(map())).toEqual([]);
  });

  it('drops the labels over imagery when the tiles fail, and keeps the imagery', async () => {
    const { map, container } = renderMap({ baseLayers: satellite, labelsOverImagery: true });
    act(() => failTiles(vectorLayersOf(map())[2]));
    await waitFor(() => expect(vectorLayersOf(map())).toHaveLength(0));
    expect(container.dataset.imageryLabels).toBeUndefined();
    expect(container.dataset.offlineMap).toBeUndefined();
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
