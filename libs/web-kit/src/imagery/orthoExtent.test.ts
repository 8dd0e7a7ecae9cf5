import { getDistance } from 'ol/sphere';
import { toLonLat } from 'ol/proj';
import { builtinCamera } from '@portal/domain';
import { orthoExtent, roundedPoint } from './orthoExtent';

describe('orthoExtent', () => {
  it('covers metresAcross of ground, the pixels’ ratio high, centred on the rounded point', () => {
    const point = { lat: -33.9360123, lng: 18.8605987 };
    const camera = builtinCamera('o', 1024, 768);
    const [minX, minY, maxX, maxY] = orthoExtent(point, camera);
    const [west, south] = toLonLat([minX, minY]);
    const [east, north] = toLonLat([maxX, maxY]);
    const centre = roundedPoint(point);
    expect((west + east) / 2).toBeCloseTo(centre.lng, 7);
    expect((south + north) / 2).toBeCloseTo(centre.lat, 5);
    // Ground distances across the middle: 110 m wide, 82.5 m high (within 0.5 %: sphere vs Mercator).
    const across = getDistance([west, centre.lat], [east, centre.lat]);
    const down = getDistance([centre.lng, south], [centre.lng, north]);
    expect(across).toBeGreaterThan(110 * 0.995);
    expect(across).toBeLessThan(110 * 1.005);
    expect(down / across).toBeCloseTo(768 / 1024, 2);
  });
});
