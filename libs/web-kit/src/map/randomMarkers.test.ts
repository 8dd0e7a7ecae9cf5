import { NOT_FOUND_MAX_MARKERS } from '@portal/domain';
import { addCapped, randomPointInBbox, SOUTH_AFRICA_BBOX } from './randomMarkers';

describe('addCapped', () => {
  it('appends while under the cap', () => {
    expect(addCapped([1, 2], 3, 5)).toEqual({ kept: [1, 2, 3], dropped: [] });
  });

  it('drops the oldest when the cap is exceeded and does not mutate the input', () => {
    const list = [1, 2, 3];
    expect(addCapped(list, 4, 3)).toEqual({ kept: [2, 3, 4], dropped: [1] });
    expect(list).toEqual([1, 2, 3]);
  });

  it('keeps exactly NOT_FOUND_MAX_MARKERS (100): the 101st evicts the first', () => {
    let markers: number[] = [];
    const evicted: number[] = [];
    for (let i = 1; i <= NOT_FOUND_MAX_MARKERS + 1; i += 1) {
      const { kept, dropped } = addCapped(markers, i, NOT_FOUND_MAX_MARKERS);
      markers = kept;
      evicted.push(...dropped);
    }
    expect(NOT_FOUND_MAX_MARKERS).toBe(100);
    expect(markers).toHaveLength(100);
    expect(markers[0]).toBe(2);
    expect(markers[99]).toBe(101);
    expect(evicted).toEqual([1]);
  });

  it('trims a list already above a lowered cap', () => {
    expect(addCapped([1, 2, 3, 4], 5, 2)).toEqual({ kept: [4, 5], dropped: [1, 2, 3] });
  });

  it('keeps nothing with a cap of zero', () => {
    expect(addCapped([1], 2, 0)).toEqual({ kept: [], dropped: [1, 2] });
  });
});

describe('randomPointInBbox', () => {
  const [west, south, east, north] = SOUTH_AFRICA_BBOX;

  it('maps the random extremes to the corners of the box', () => {
    expect(randomPointInBbox(SOUTH_AFRICA_BBOX, () => 0)).toEqual({ lat: south, lng: west });
    const nearOne = randomPointInBbox(SOUTH_AFRICA_BBOX, () => 0.999999);
    expect(nearOne.lat).toBeCloseTo(north, 4);
    expect(nearOne.lng).toBeCloseTo(east, 4);
  });

  it('always lands inside South Africa’s bounding box', () => {
    for (let i = 0; i < 1000; i += 1) {
      const { lat, lng } = randomPointInBbox(SOUTH_AFRICA_BBOX);
      expect(lat).toBeGreaterThanOrEqual(south);
      expect(lat).toBeLessThanOrEqual(north);
      expect(lng).toBeGreaterThanOrEqual(west);
      expect(lng).toBeLessThanOrEqual(east);
    }
  });

  it('covers the default map centre (spec 01 §9)', () => {
    expect(south).toBeLessThan(-28.96642);
    expect(north).toBeGreaterThan(-28.96642);
    expect(west).toBeLessThan(24.181142);
    expect(east).toBeGreaterThan(24.181142);
  });
});
