import OlMap from 'ol/Map';
import View from 'ol/View';
import { createEmpty } from 'ol/extent';
import { MAP_DEFAULTS } from '@portal/domain';
import { installJsdomMapSupport } from './testing/jsdomMapSupport';
import { areaStyle, createMarkerLayer, fitToExtent, lonLatToView, parcelStyle, viewToLonLat } from './layers';

beforeAll(installJsdomMapSupport);

describe('layer helpers', () => {
  it('converts between WGS 84 and the Web Mercator view', () => {
    const [x, y] = lonLatToView(MAP_DEFAULTS.centre);
    expect(x).toBeCloseTo(2_691_836, -1);
    expect(y).toBeLessThan(0);
    const back = viewToLonLat([x, y]);
    expect(back.lat).toBeCloseTo(MAP_DEFAULTS.centre.lat, 9);
    expect(back.lng).toBeCloseTo(MAP_DEFAULTS.centre.lng, 9);
  });

  it('styles parcels green at 0.5 and areas black at 0.25 (spec 01 §9)', () => {
    expect(parcelStyle.getFill()?.getColor()).toBe('rgba(0, 128, 0, 0.5)');
    expect(areaStyle.getFill()?.getColor()).toBe('rgba(0, 0, 0, 0.25)');
  });

  it('creates an empty marker layer', () => {
    expect(createMarkerLayer().getSource()?.getFeatures()).toEqual([]);
  });

  describe('fitToExtent', () => {
    function mapOfSize(): OlMap {
      const map = new OlMap({ view: new View({ center: [0, 0], zoom: 2, maxZoom: MAP_DEFAULTS.maxZoom }) });
      map.setSize([800, 600]);
      return map;
    }

    it('never zooms closer than 18 for a tiny extent', () => {
      const map = mapOfSize();
      const [x, y] = lonLatToView(MAP_DEFAULTS.centre);
      expect(fitToExtent(map, [x, y, x + 1, y + 1])).toBe(true);
      expect(map.getView().getZoom()).toBe(MAP_DEFAULTS.fitMaxZoom);
    });

    it('shows a large extent whole', () => {
      const map = mapOfSize();
      const [west, south] = lonLatToView({ lat: -35, lng: 16 });
      const [east, north] = lonLatToView({ lat: -22, lng: 33 });
      fitToExtent(map, [west, south, east, north]);
      expect(map.getView().getZoom()).toBeLessThan(6);
    });

    it('ignores an empty extent instead of throwing', () => {
      expect(fitToExtent(mapOfSize(), createEmpty())).toBe(false);
    });
  });
});
