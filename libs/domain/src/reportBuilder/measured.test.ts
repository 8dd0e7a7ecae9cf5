/** Issue 21: floor sizes measured on the imagery — marked, flagged when typed over, storeys, footprints. */
import {
  buildingFromFootprint,
  shortCaptureDate,
  floorWithSize,
  floorsForStoreys,
  footprintNames,
  isMeasuredSize,
  measuredFloor,
  measuredFloorText,
  storeysFromHeight,
  withMeasuredFlags,
  type MeasuredSource,
} from './measured';
import { buildingArea } from './totals';
import { building, floor, section } from './testing';

const AREA: MeasuredSource = {
  kind: 'measurement',
  id: '0b9a3c2e-8d0f-4c44-a2d2-5b0e1c7d9f10',
  areaM2: 182.4049,
  surveyId: 7,
  capturedOn: '2019-03-14',
};

describe('a measured floor size', () => {
  it('takes the area to 2 decimals and keeps the measurement, survey and capture date', () => {
    const measured = measuredFloor(floor(null, true, 'Ground'), AREA);
    expect(measured).toEqual({
      size: 182.4,
      doubleVolume: true,
      location: 'Ground',
      measured: { measurementId: AREA.id, value: 182.4, surveyId: 7, capturedOn: '2019-03-14' },
    });
    expect(isMeasuredSize(measured)).toBe(true);
    expect(measuredFloorText(measured)).toBe('measured on the 14 Mar 2019 survey');
  });

  it('is flagged edited when typed over, and unflagged when the measured figure is typed back', () => {
    const measured = measuredFloor(floor(null), AREA);
    const typed = floorWithSize(measured, 190);
    expect(typed.measured).toMatchObject({ value: 182.4, edited: true });
    expect(isMeasuredSize(typed)).toBe(false);
    expect(measuredFloorText(typed)).toBe('edited by hand (measured 182.4 m² on the 14 Mar 2019 survey)');
    expect(floorWithSize(typed, null).measured?.edited).toBe(true);
    const back = floorWithSize(typed, 182.4);
    expect(back.measured).not.toHaveProperty('edited');
    expect(isMeasuredSize(back)).toBe(true);
  });

  it('sets the flags of every floor of a report as their sizes say (what the service saves)', () => {
    const claimed = { ...measuredFloor(floor(null), AREA), size: 50 };
    const sections = withMeasuredFlags({
      s: section('Main', { buildings: [building('House', { floors: [claimed, floor(20)] })] }),
    });
    expect(sections.s!.buildings[0]!.floors).toEqual([
      { ...claimed, measured: { ...claimed.measured, edited: true } },
      floor(20),
    ]);
  });

  it('counts in the totals as any size does', () => {
    const house = building('House', { floors: [measuredFloor(floor(null), AREA), floor(20)] });
    expect(buildingArea(house, 0)).toBeCloseTo(202.4, 6);
  });
});

describe('storeys from a height', () => {
  it('is round(height / 3), at least 1', () => {
    expect([0, 1, 4.4, 4.6, 6, 7.4, 9.1, Number.NaN, -3].map(storeysFromHeight)).toEqual([
      1, 1, 1, 2, 2, 2, 3, 1, 1,
    ]);
  });

  it('grows the floors with copies of the measured ground floor, or empty ones', () => {
    const ground = measuredFloor(floor(null, false, 'Ground'), AREA);
    const floors = floorsForStoreys([ground], 3);
    expect(floors).toHaveLength(3);
    expect(floors.map((f) => f.size)).toEqual([182.4, 182.4, 182.4]);
    expect(floors[2]!.measured).toEqual(ground.measured);
    expect(floorsForStoreys([floor(12)], 2)).toEqual([floor(12), floor(null)]);
    expect(floorsForStoreys(floors, 1)).toEqual([ground]);
  });
});

describe('footprints as first buildings', () => {
  it('names them by kind, unique among themselves and the section', () => {
    expect(footprintNames(['house', 'outbuilding', 'outbuilding', 'swimming_pool'], ['house'])).toEqual([
      'House 2',
      'Outbuilding',
      'Outbuilding 2',
      'Swimming pool',
    ]);
  });

  it('makes a building of storeys from the height, each floor the footprint area, marked as a footprint', () => {
    const made = buildingFromFootprint(
      { buildingId: '42', kind: 'house', heightM: 6.4, areaM2: 120.456, centre: { lat: -33.9, lng: 18.8 } },
      { id: 3, capturedOn: '2026-01-05' },
      'House',
      2,
    );
    expect(made.marker).toEqual({ lat: -33.9, lng: 18.8, number: 2 });
    expect(made.floors).toHaveLength(2);
    expect(made.floors.map((f) => f.size)).toEqual([120.46, 120.46]);
    expect(made.floors[0]!.measured).toEqual({
      footprintId: '42',
      value: 120.46,
      surveyId: 3,
      capturedOn: '2026-01-05',
    });
    expect(measuredFloorText(made.floors[1]!)).toBe('footprint on the 5 Jan 2026 survey');
    expect(made.unit).toBe('no');
  });
});

it('writes capture dates as the report prints them, whatever the time zone', () => {
  expect(shortCaptureDate('2019-03-14')).toBe('14 Mar 2019');
  expect(shortCaptureDate('2026-12-01')).toBe('1 Dec 2026');
  expect(shortCaptureDate('not a date')).toBe('not a date');
});
