import type OlMap from 'ol/Map';
import { act, renderHook } from '@testing-library/react';
import type { RequestMapPoint } from '@portal/contracts';
import { formatSaNumericDateTime } from '@portal/domain';
import { BOX_DEBOUNCE_MS, LIST_FROM_ZOOM, MAP_POINT_LIMIT } from '../../config';
import { SPATIALKEY_TEXT } from '../../texts';
import { clusterClick, selectOnClick } from './components/RequestsLayer';
import { filtersProblem, mapParams, NO_FILTERS, roundBox } from './filters';
import { useMapBox } from './useMapBox';

const point = (id: string, lat = -33.93, lng = 18.86): RequestMapPoint => ({
  id,
  gripReference: `GRP-${id}`,
  requestType: 'SAVI',
  requestSubType: 'Replacement Value Estimate',
  status: 'New',
  created: '2026-11-21T08:30:00.000Z',
  address: '12 Church Street, Stellenbosch',
  lat,
  lng,
});

describe('the map query', () => {
  it('sends only what is set: the box rounded outwards, status and type lists, dates', () => {
    expect(mapParams(NO_FILTERS, null)).toEqual({ limit: MAP_POINT_LIMIT });
    expect(
      mapParams(
        { statuses: ['New', 'QC check'], types: ['AVS'], from: '2026-11-01', to: '2026-11-21' },
        { west: 18.123456, south: -34.000049, east: 19.000001, north: -33.5 },
      ),
    ).toEqual({
      limit: MAP_POINT_LIMIT,
      west: 18.1234,
      south: -34.0001,
      east: 19.0001,
      north: -33.5,
      status: 'New,QC check',
      type: 'AVS',
      from: '2026-11-01',
      to: '2026-11-21',
    });
    expect(roundBox({ west: -200, south: -95, east: 200, north: 95 })).toEqual({
      west: -180,
      south: -90,
      east: 180,
      north: 90,
    });
    // A box with no area, or across the antimeridian, is left out (the server refuses it).
    expect(mapParams(NO_FILTERS, { west: 20, south: -30, east: 10, north: -20 })).toEqual({
      limit: MAP_POINT_LIMIT,
    });
    // A half-typed date is not sent.
    expect(mapParams({ ...NO_FILTERS, from: '2026-1' }, null)).toEqual({ limit: MAP_POINT_LIMIT });
  });

  it('refuses a start date after the end date; the same day is fine', () => {
    expect(filtersProblem({ ...NO_FILTERS, from: '2026-11-22', to: '2026-11-21' })).toBe(
      SPATIALKEY_TEXT.datesReversed,
    );
    expect(filtersProblem({ ...NO_FILTERS, from: '2026-11-21', to: '2026-11-21' })).toBeNull();
    expect(filtersProblem({ ...NO_FILTERS, from: '2026-11-21' })).toBeNull();
  });

  it('shows creation times in South African time (as the popup does)', () => {
    expect(formatSaNumericDateTime('2026-11-21T22:30:00.000Z')).toMatch(/2026.11.22.*00:30/);
    expect(formatSaNumericDateTime('nonsense')).toBe('nonsense');
  });
});

describe('clusters', () => {
  it('opens one request, zooms into several, and lists them once close', () => {
    expect(clusterClick([point('1')], 6)).toEqual({ kind: 'popup', requests: [point('1')] });
    expect(clusterClick([point('1'), point('2')], 12)).toEqual({ kind: 'zoom' });
    expect(clusterClick([point('1'), point('2')], 17)).toEqual({
      kind: 'popup',
      requests: [point('1'), point('2')],
    });
  });

  it('closes the popup on a click beside the requests, opens it on one, and zooms into a cluster', () => {
    const onSelect = jest.fn();
    const zoomTo = jest.fn();
    const click = selectOnClick(onSelect);
    click(null, { zoom: 12, zoomTo });
    expect(onSelect).toHaveBeenLastCalledWith(null);
    click([point('1')], { zoom: 12, zoomTo });
    expect(onSelect).toHaveBeenLastCalledWith([point('1')]);
    click([point('1'), point('2')], { zoom: 12, zoomTo });
    expect(zoomTo).toHaveBeenCalledWith(LIST_FROM_ZOOM);
    expect(onSelect).toHaveBeenCalledTimes(2);
  });
});

describe('useMapBox', () => {
  it('reports the box once the map has rested after moving', () => {
    jest.useFakeTimers();
    try {
      const listeners: (() => void)[] = [];
      const map = {
        on: (_type: string, listener: () => void) => listeners.push(listener),
        un: (_type: string, listener: () => void) => listeners.splice(listeners.indexOf(listener), 1),
        getSize: () => [800, 600],
        getView: () => ({ calculateExtent: () => [2000000, -4100000, 2200000, -3900000] }),
      } as unknown as OlMap;
      const onBox = jest.fn();
      const { unmount } = renderHook(() => useMapBox(map, onBox));
      act(() => {
        listeners.forEach((listener) => listener());
        jest.advanceTimersByTime(BOX_DEBOUNCE_MS / 2);
        listeners.forEach((listener) => listener());
        jest.advanceTimersByTime(BOX_DEBOUNCE_MS - 1);
      });
      expect(onBox).not.toHaveBeenCalled();
      act(() => {
        jest.advanceTimersByTime(1);
      });
      expect(onBox).toHaveBeenCalledTimes(1);
      const box = onBox.mock.calls[0][0];
      expect(box.west).toBeCloseTo(17.966, 2);
      expect(box.east).toBeCloseTo(19.763, 2);
      expect(box.south).toBeLessThan(box.north);
      unmount();
      expect(listeners).toHaveLength(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
