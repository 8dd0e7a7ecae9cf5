import {
  bilinearElevation,
  financialYearTo,
  gridCell,
  haversineMetres,
  isSoilDangerous,
  meanClayPercent,
  mildestClass,
  NO_CLASS_COLOUR,
  offsetPoint,
  profileOffsets,
  ratePer100k,
  RISK_CLASS_COLOURS,
  riskClassColour,
  roundCoordinate,
  SOIL_METHOD,
  soilS11,
  soilS6,
  stationKey,
  waterAltitudeClass,
  waterBodyClass,
  waterDistanceClass,
  worstClass,
} from './iris';
import { formatSast } from './saTime';

describe('spec 03 §9: water altitude class against the point elevation (ele 100)', () => {
  it.each([
    [90, 'safe'],
    [94.999, 'safe'],
    [95, 'maybe safe'], // ele − 5
    [97.499, 'maybe safe'],
    [97.5, 'not safe'], // ele − 2.5
    [99.999, 'not safe'],
    [100, 'dangerous'], // ele
    [140, 'dangerous'],
  ] as const)('altitude %p → %s', (altitude, expected) => {
    expect(waterAltitudeClass(altitude, 100)).toBe(expected);
  });
  it('works below sea level too', () => {
    expect(waterAltitudeClass(-5, 0)).toBe('maybe safe');
    expect(waterAltitudeClass(-5.01, 0)).toBe('safe');
  });
});

describe('spec 03 §9: water distance class', () => {
  it.each([
    [0, 'dangerous'],
    [149.999, 'dangerous'],
    [150, 'not safe'],
    [299.999, 'not safe'],
    [300, 'maybe safe'],
    [499.999, 'maybe safe'],
    [500, 'safe'],
    [5000, 'safe'],
  ] as const)('%p m → %s', (distance, expected) => {
    expect(waterDistanceClass(distance)).toBe(expected);
  });
});

describe('worst and mildest of several classes', () => {
  it('orders safe < maybe safe < not safe < dangerous, ignoring nulls', () => {
    expect(worstClass([])).toBeNull();
    expect(worstClass([null, undefined])).toBeNull();
    expect(worstClass(['safe', 'maybe safe'])).toBe('maybe safe');
    expect(worstClass(['not safe', null, 'maybe safe'])).toBe('not safe');
    expect(worstClass(['safe', 'dangerous', 'not safe'])).toBe('dangerous');
    expect(mildestClass(['dangerous', 'not safe'])).toBe('not safe');
    expect(mildestClass([null])).toBeNull();
  });
  it('a water body counts with the milder of its classes, or its distance class alone', () => {
    expect(waterBodyClass('dangerous', 'safe')).toBe('safe');
    expect(waterBodyClass('safe', 'dangerous')).toBe('safe');
    expect(waterBodyClass('not safe', 'dangerous')).toBe('not safe');
    expect(waterBodyClass(null, 'dangerous')).toBe('dangerous');
  });
});

describe('spec 03 §9: soil is dangerous when s6 + s11 ≥ 12', () => {
  it.each([
    [6, 6, true],
    [5, 6, false],
    [10, 2, true],
    [0, 11.9, false],
    [10, 10, true],
  ])('%p + %p → %p', (s6, s11, expected) => {
    expect(isSoilDangerous(s6, s11)).toBe(expected);
  });
  it('unknown when a score is missing', () => {
    expect(isSoilDangerous(null, 8)).toBeNull();
    expect(isSoilDangerous(8, null)).toBeNull();
  });
});

describe('soil scores', () => {
  it('s11 from the FAO drainage class', () => {
    expect(['E', 'S', 'W', 'M', 'I', 'P', 'V'].map(soilS11)).toEqual([0, 1, 2, 4, 6, 8, 10]);
    expect(soilS11('p')).toBe(8);
    expect(soilS11(null)).toBeNull();
    expect(soilS11('X')).toBeNull();
  });
  it('mean clay weighted by thickness down to 100 cm', () => {
    // 0–20 cm 10 %, 20–50 cm 40 %, 50–120 cm 30 % (only 50 cm of it counts), a horizon without clay:
    // (20·10 + 30·40 + 50·30) / 100 = (200 + 1200 + 1500) / 100 = 29
    expect(
      meanClayPercent([
        { top: 0, bottom: 20, clay: 10 },
        { top: 20, bottom: 50, clay: 40 },
        { top: 50, bottom: 120, clay: 30 },
        { top: 120, bottom: 150, clay: 80 },
        { top: 0, bottom: 10, clay: null },
      ]),
    ).toBeCloseTo(29, 10);
    expect(meanClayPercent([{ top: 0, bottom: 20, clay: null }])).toBeNull();
    expect(meanClayPercent([])).toBeNull();
  });
  it('s6: one point per 6 % clay, capped at 10, at least 8 for Vertisols', () => {
    expect(soilS6(0)).toBe(0);
    expect(soilS6(2.99)).toBe(0);
    expect(soilS6(3)).toBe(1); // 0.5 rounds up
    expect(soilS6(29)).toBe(5); // 4.83
    expect(soilS6(33)).toBe(6); // 5.5
    expect(soilS6(60)).toBe(10);
    expect(soilS6(85)).toBe(10);
    expect(soilS6(12, 'VR')).toBe(8);
    expect(soilS6(70, 'vr')).toBe(10);
    expect(soilS6(null)).toBeNull();
    expect(SOIL_METHOD).toMatch(/s6.*s11/s);
  });
});

describe('spec 03 §9: coordinates and times as shown', () => {
  it('rounds coordinates to 6 decimals, half away from zero', () => {
    expect(roundCoordinate(-33.93461234)).toBe(-33.934612);
    expect(roundCoordinate(18.8610005)).toBe(18.861001);
    expect(roundCoordinate(-18.8610005)).toBe(-18.861001);
    expect(roundCoordinate(28.0473)).toBe(28.0473);
    expect(Object.is(roundCoordinate(-0.0000001), -0)).toBe(true);
  });
  it('formats times in SAST (UTC+2) whatever the machine zone', () => {
    expect(formatSast('2025-11-25T06:20:00Z')).toBe('2025-11-25 08:20 SAST');
    expect(formatSast('2025-12-31T22:30:00.000Z')).toBe('2026-01-01 00:30 SAST');
    expect(formatSast(new Date(Date.UTC(2024, 1, 28, 23, 5)))).toBe('2024-02-29 01:05 SAST');
    expect(() => formatSast('not a time')).toThrow(RangeError);
  });
});

describe('colours of the classes', () => {
  it('green, amber, orange, red; grey for none', () => {
    expect(RISK_CLASS_COLOURS).toEqual({
      safe: '#2e7d32',
      'maybe safe': '#f9a825',
      'not safe': '#ef6c00',
      dangerous: '#c62828',
    });
    expect(riskClassColour('dangerous')).toBe('#c62828');
    expect(riskClassColour(null)).toBe(NO_CLASS_COLOUR);
  });
});

describe('elevation grid interpolation', () => {
  const grid = { originLon: 18, originLat: -34, stepLon: 0.5, stepLat: 0.25, cols: 3, rows: 3 };
  // z = 100·i + 10·j, a plane: bilinear interpolation reproduces it exactly.
  const plane = (i: number, j: number) => (i >= 0 && i < 3 && j >= 0 && j < 3 ? 100 * i + 10 * j : undefined);
  it('finds the cell and fractions, with the east and north edges inside', () => {
    expect(gridCell(grid, 18.25, -33.875)).toEqual({ i: 0, j: 0, fx: 0.5, fy: 0.5 });
    expect(gridCell(grid, 19, -33.5)).toEqual({ i: 1, j: 1, fx: 1, fy: 1 });
    expect(gridCell(grid, 17.99, -33.9)).toBeNull();
    expect(gridCell(grid, 18.1, -33.49)).toBeNull();
  });
  it('interpolates between the four neighbours', () => {
    // x = 0.75/0.5 = 1.5, y = 0.125/0.25 = 0.5 → 100·1.5 + 10·0.5 = 155
    expect(bilinearElevation(grid, 18.75, -33.875, plane)).toBeCloseTo(155, 9);
    // samples 0, 10, 20, 40 (not a plane): centre = (0 + 10 + 20 + 40) / 4 = 17.5
    const corners = (i: number, j: number) =>
      [
        [0, 20],
        [10, 40],
      ][i]?.[j];
    expect(bilinearElevation(grid, 18.25, -33.875, corners)).toBeCloseTo(17.5, 9);
    expect(bilinearElevation(grid, 18, -34, plane)).toBe(0);
    expect(bilinearElevation(grid, 20, -34, plane)).toBeNull();
    expect(bilinearElevation(grid, 18.25, -33.875, () => undefined)).toBeNull();
  });
  it('profiles: 41 offsets of 50 m over ±1000 m, metres to degrees', () => {
    const offsets = profileOffsets();
    expect(offsets).toHaveLength(41);
    expect([offsets[0], offsets[20], offsets[40]]).toEqual([-1000, 0, 1000]);
    const north = offsetPoint(-34, 18, 1000, 0);
    const east = offsetPoint(-34, 18, 0, 1000);
    expect(haversineMetres(-34, 18, north.lat, north.lng)).toBeCloseTo(1000, 3);
    expect(haversineMetres(-34, 18, east.lat, east.lng)).toBeCloseTo(1000, 0);
    expect(north.lat).toBeGreaterThan(-34);
    expect(east.lng).toBeGreaterThan(18);
  });
});

describe('crime figures', () => {
  it('rates per 100 000 residents, 1 decimal', () => {
    expect(ratePer100k(503, 50336)).toBe(999.3); // 503 / 50 336 · 100 000 = 999.285…
    expect(ratePer100k(0, 1000)).toBe(0);
    expect(ratePer100k(5, null)).toBeNull();
    expect(ratePer100k(5, 0)).toBeNull();
  });
  it('financial years and station names', () => {
    expect(financialYearTo('2008/2009')).toBe(2009);
    expect(financialYearTo('2022/23')).toBe(2023);
    expect(financialYearTo('2022')).toBeNull();
    expect(stationKey('  Khâi-Ma ')).toBe('khai ma');
    expect(stationKey("King William's Town")).toBe('king william s town');
    expect(stationKey('STELLENBOSCH')).toBe('stellenbosch');
  });
});
