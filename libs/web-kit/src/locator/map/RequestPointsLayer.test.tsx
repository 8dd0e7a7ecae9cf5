import { Suspense } from 'react';
import { render, waitFor } from '@testing-library/react';
import Feature from 'ol/Feature';
import type OlMap from 'ol/Map';
import MapBrowserEvent from 'ol/MapBrowserEvent';
import type Point from 'ol/geom/Point';
import type SimpleGeometry from 'ol/geom/SimpleGeometry';
import VectorLayer from 'ol/layer/Vector';
import { fromLonLat, toLonLat } from 'ol/proj';
import Cluster from 'ol/source/Cluster';
import { Style, type Circle } from 'ol/style';
import { MapView } from '@portal/web-kit';
import { installJsdomMapSupport } from '../../map/testing/jsdomMapSupport';
import {
  pointsOfFeature,
  requestPointFeatures,
  requestPointsStyle,
  RequestPointsLayer,
  type RequestPointsLayerProps,
  type RequestPointsLook,
} from './RequestPointsLayer';

beforeAll(installJsdomMapSupport);

interface Spot {
  id: string;
  kind: 'a' | 'b';
  lat: number;
  lng: number;
}

const spot = (id: string, lat = -33.93, lng = 18.86, kind: Spot['kind'] = 'a'): Spot => ({
  id,
  kind,
  lat,
  lng,
});

const LOOK: RequestPointsLook<Spot> = {
  pointColour: (point) => (point.kind === 'a' ? '#111111' : '#222222'),
  pointRadius: 7,
  clusterColour: '#333333',
  clusterRadius: (count) => 10 + count,
  countFont: 'bold 12px sans-serif',
};

const clusterOf = (points: Spot[]) => new Feature({ features: requestPointFeatures(points) });

describe('request point features and styles', () => {
  it('makes one feature per point, in the map projection, keyed by id', () => {
    const [feature] = requestPointFeatures([spot('7', -33.93, 18.86)], (point) => point.id);
    expect(feature.getId()).toBe('7');
    // Web Mercator metres, not degrees: back in degrees it is the request's point.
    const [x, y] = feature.getGeometry()!.getCoordinates();
    expect(Math.abs(x)).toBeGreaterThan(1e6);
    const [lng, lat] = toLonLat([x, y]);
    expect(lng).toBeCloseTo(18.86, 9);
    expect(lat).toBeCloseTo(-33.93, 9);
    expect(requestPointFeatures([spot('7')])[0].getId()).toBeUndefined();
  });

  it('draws a lone point in its colour and a cluster with its count, each style made once', () => {
    const style = requestPointsStyle(LOOK);
    const one = style(clusterOf([spot('1', -33.9, 18.8, 'b')]));
    expect((one.getImage() as Circle).getFill()!.getColor()).toBe('#222222');
    expect((one.getImage() as Circle).getRadius()).toBe(7);
    expect(one.getText()).toBeNull();
    const three = style(clusterOf([spot('1'), spot('2'), spot('3')]));
    expect(three.getText()!.getText()).toBe('3');
    expect((three.getImage() as Circle).getRadius()).toBe(13);
    expect((three.getImage() as Circle).getFill()!.getColor()).toBe('#333333');
    expect(style(clusterOf([spot('4'), spot('5'), spot('6')]))).toBe(three);
  });

  it("reads a cluster's points, or the one point of an unclustered feature", () => {
    expect(pointsOfFeature<Spot>(clusterOf([spot('1'), spot('2')])).map((point) => point.id)).toEqual([
      '1',
      '2',
    ]);
    expect(pointsOfFeature<Spot>(requestPointFeatures([spot('9')])[0])).toEqual([spot('9')]);
    expect(pointsOfFeature(new Feature())).toEqual([]);
  });
});

describe('RequestPointsLayer', () => {
  async function renderLayer(props: Partial<RequestPointsLayerProps<Spot>> = {}) {
    let olMap: OlMap | undefined;
    const onClick = jest.fn();
    const view = render(
      <Suspense fallback={null}>
        <MapView onMapReady={(map) => (olMap = map)}>
          <RequestPointsLayer
            points={[spot('1'), spot('2', -26.2, 28.04)]}
            clusterDistance={40}
            look={LOOK}
            onClick={onClick}
            {...props}
          />
        </MapView>
      </Suspense>,
    );
    // The map first (web-kit's MapView is a lazy chunk), then its children's layers.
    await waitFor(() =>
      expect(olMap?.getAllLayers().some((layer) => layer.getSource() instanceof Cluster)).toBe(true),
    );
    const layers = olMap!
      .getAllLayers()
      .filter((layer): layer is VectorLayer => layer instanceof VectorLayer);
    const clusters = layers.find((layer) => layer.getSource() instanceof Cluster)!;
    // The highlighted point's layer: 5 above the clusters (the map's own vector layers have titles).
    const highlight = layers.find(
      (layer) =>
        layer !== clusters && !layer.get('title') && layer.getZIndex() === (clusters.getZIndex() ?? 0) + 5,
    );
    return { ...view, map: olMap!, clusters, highlight, onClick };
  }

  /** A click at the map's pixel that hits `feature` of `layer` (nothing is drawn in jsdom to hit). */
  function clickOn(
    map: OlMap,
    type: 'click' | 'singleclick',
    hit?: { layer: VectorLayer; feature: Feature },
  ) {
    map.forEachFeatureAtPixel = ((_pixel, callback, options) =>
      hit && options?.layerFilter?.(hit.layer) !== false
        ? callback(hit.feature, hit.layer, hit.feature.getGeometry() as SimpleGeometry)
        : undefined) as OlMap['forEachFeatureAtPixel'];
    const event = new MapBrowserEvent(type, map, new MouseEvent('click') as PointerEvent);
    // jsdom lays nothing out: the map has no size to work a pixel out from.
    event.pixel = [100, 100];
    event.coordinate = fromLonLat([18.86, -33.93]);
    map.dispatchEvent(event);
  }

  it('holds the points, clustered, and the highlighted point apart above them', async () => {
    const centreStyle = new Style();
    const { clusters, highlight } = await renderLayer({
      zIndex: 50,
      highlighted: spot('c'),
      highlightedStyle: centreStyle,
      idOf: (point) => point.id,
    });
    const source = (clusters.getSource() as Cluster<Feature<Point>>).getSource()!;
    expect(
      source
        .getFeatures()
        .map((feature) => feature.getId())
        .sort(),
    ).toEqual(['1', '2']);
    expect(clusters.getZIndex()).toBe(50);
    expect(highlight!.getZIndex()).toBe(55);
    expect(
      highlight!
        .getSource()!
        .getFeatures()
        .map((feature) => feature.getId()),
    ).toEqual(['c']);
    expect(highlight!.getStyle()).toBe(centreStyle);
  });

  it("hands a click the points under it, null when it hit none, and zooms onto a cluster's points", async () => {
    const { map, clusters, onClick } = await renderLayer({ zIndex: 50 });
    const cluster = clusterOf([spot('1'), spot('2', -33.94, 18.87)]);
    clickOn(map, 'singleclick', { layer: clusters, feature: cluster });
    expect(onClick).toHaveBeenLastCalledWith([spot('1'), spot('2', -33.94, 18.87)], expect.anything());
    const fit = jest.spyOn(map.getView(), 'fit').mockImplementation(() => undefined);
    onClick.mock.lastCall![1].zoomTo(17);
    const [extent, options] = fit.mock.lastCall!;
    expect(extent).toEqual([...fromLonLat([18.86, -33.94]), ...fromLonLat([18.87, -33.93])]);
    expect(options).toMatchObject({ maxZoom: 17 });

    clickOn(map, 'singleclick');
    expect(onClick).toHaveBeenLastCalledWith(null, expect.objectContaining({ zoom: 6 }));
    // A plain 'click' is not the default's event.
    const calls = onClick.mock.calls.length;
    clickOn(map, 'click', { layer: clusters, feature: cluster });
    expect(onClick).toHaveBeenCalledTimes(calls);
  });

  it("answers 'click' when asked, and ignores other layers' features", async () => {
    const { map, highlight, onClick } = await renderLayer({ highlighted: spot('c'), clickEvent: 'click' });
    const centre = highlight!.getSource()!.getFeatures()[0];
    clickOn(map, 'click', { layer: highlight!, feature: centre });
    expect(onClick).toHaveBeenLastCalledWith([spot('c')], expect.anything());
    clickOn(map, 'click', { layer: new VectorLayer(), feature: clusterOf([spot('x')]) });
    expect(onClick).toHaveBeenLastCalledWith(null, expect.anything());
  });
});
