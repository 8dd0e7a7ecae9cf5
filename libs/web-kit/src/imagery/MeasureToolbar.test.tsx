import { act, fireEvent, render, screen } from '@testing-library/react';
import OlMap from 'ol/Map';
import View from 'ol/View';
import KeyboardPan from 'ol/interaction/KeyboardPan';
import { fromLonLat } from 'ol/proj';
import { installJsdomMapSupport } from '../map/testing/jsdomMapSupport';
import { PortalProviders } from '../PortalProviders';
import { createPortalStore } from '../store/store';
import { MeasureToolbar } from './MeasureToolbar';
import type { MeasurementDraft } from './measureFigures';
import { PAN_STEP_PX } from './measureKeys';

beforeAll(installJsdomMapSupport);

// A real OpenLayers map in jsdom (no frames are drawn: elements have no size), at 0.1 m per pixel.
function makeMap() {
  const target = document.createElement('div');
  document.body.appendChild(target);
  const map = new OlMap({
    target,
    view: new View({ center: fromLonLat([18.8606, -33.936]), resolution: 0.1 }),
  });
  // A size and one frame: Draw reads pixels off the frame state.
  map.setSize([800, 600]);
  map.renderSync();
  // No more frames: jsdom would draw them on its own clock, with no canvas to draw on (a vertex style then
  // throws into whichever test runs) and the pixels Draw and Snap read moving under the test. The one frame
  // above is what every key below is read against.
  jest.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 0);
  return { map, target };
}

function renderToolbar(onMeasured: (draft: MeasurementDraft & { key: string }) => void) {
  const { map, target } = makeMap();
  render(
    <PortalProviders store={createPortalStore()}>
      <MeasureToolbar map={map} surveyId={12} capturedOn="2021-08-20" onMeasured={onMeasured} />
    </PortalProviders>,
  );
  const key = (name: string, extra: Record<string, unknown> = {}) =>
    act(() => void fireEvent.keyDown(target, { key: name, ...extra }));
  return { map, target, key };
}

/** Metres on the ground per arrow step at this latitude (Web Mercator stretches by 1/cos(lat)). */
const stepMetres = PAN_STEP_PX * 0.1 * Math.cos((33.936 * Math.PI) / 180);

afterEach(() => {
  jest.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('MeasureToolbar by keyboard', () => {
  it('makes the map a tab stop and draws an area with Space and the arrows; Enter finishes', async () => {
    const onMeasured = jest.fn();
    const { target, key } = renderToolbar(onMeasured);
    expect(target.getAttribute('tabindex')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Area' }));
    expect(target.getAttribute('tabindex')).toBe('0');
    expect(target.getAttribute('aria-label')).toMatch(/^Area: .*Enter finishes/);
    expect(screen.getByTestId('measure-crosshair')).toBeTruthy();

    // A 10-step square: Space, 10 × Right, Space, 10 × Down, Space, 10 × Left, Space.
    key(' ');
    for (let i = 0; i < 10; i += 1) key('ArrowRight');
    key(' ');
    for (let i = 0; i < 10; i += 1) key('ArrowDown');
    key(' ');
    for (let i = 0; i < 10; i += 1) key('ArrowLeft');
    key(' ');
    expect(screen.getByRole('status').textContent).toMatch(/^Area .* 4 points\.$/);
    expect(screen.getByTestId('measure-live').textContent).toMatch(/m² · perimeter/);
    key('Enter');

    expect(onMeasured).toHaveBeenCalledTimes(1);
    const draft = onMeasured.mock.calls[0][0] as MeasurementDraft;
    expect(draft).toMatchObject({ kind: 'area', surveyId: 12, capturedOn: '2021-08-20', unit: 'm²' });
    const side = 10 * stepMetres;
    expect(draft.value).toBeGreaterThan(side * side * 0.995);
    expect(draft.value).toBeLessThan(side * side * 1.005);
    expect(draft.perimeterM).toBeCloseTo(4 * side, 0);
    // Four corners, the ring closed.
    expect((draft.geometry as { coordinates: number[][][] }).coordinates[0]).toHaveLength(5);
    expect(screen.getByRole('status').textContent).toBe(`Area measured: ${draft.text}.`);
  });

  it('undoes the last point with Backspace or Ctrl+Z and will not finish a line of one point', () => {
    const onMeasured = jest.fn();
    const { key } = renderToolbar(onMeasured);
    fireEvent.click(screen.getByRole('button', { name: 'Length' }));
    key(' ');
    key('ArrowRight');
    key(' ');
    key('ArrowRight');
    key(' ');
    expect(screen.getByRole('status').textContent).toMatch(/3 points\.$/);
    key('Backspace');
    expect(screen.getByRole('status').textContent).toBe('Last point removed.');
    key('z', { ctrlKey: true });
    key('Enter');
    expect(onMeasured).not.toHaveBeenCalled();
    expect(screen.getByRole('status').textContent).toBe('Too few points to measure.');
    key('ArrowRight');
    key(' ');
    key('Enter');
    expect(onMeasured).toHaveBeenCalledTimes(1);
    // From the first point (kept) to the cross, three steps right of it (not one or two: the undone points
    // are gone).
    expect(onMeasured.mock.calls[0][0].value).toBeCloseTo(3 * stepMetres, 1);
  });

  it('finishes a distance at its second point', async () => {
    const onMeasured = jest.fn();
    const { key } = renderToolbar(onMeasured);
    fireEvent.click(screen.getByRole('button', { name: 'Distance' }));
    key(' ');
    for (let i = 0; i < 5; i += 1) key('ArrowUp');
    key(' ');
    await act(async () => {
      await Promise.resolve();
    });
    expect(onMeasured).toHaveBeenCalledTimes(1);
    expect(onMeasured.mock.calls[0][0]).toMatchObject({ kind: 'distance', unit: 'm' });
    expect(onMeasured.mock.calls[0][0].value).toBeCloseTo(5 * stepMetres, 1);
  });

  it('Escape cancels the sketch, then turns the tool off', () => {
    const onMeasured = jest.fn();
    const { map, target, key } = renderToolbar(onMeasured);
    const keyboardPan = map
      .getInteractions()
      .getArray()
      .find((interaction) => interaction instanceof KeyboardPan)!;
    expect(keyboardPan.getActive()).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Area' }));
    // The arrows are the tool's while it is on: OpenLayers' own pan would move the map a second time.
    expect(keyboardPan.getActive()).toBe(false);
    key(' ');
    key('ArrowRight');
    key(' ');
    key('Escape');
    expect(screen.getByRole('status').textContent).toBe('Measuring cancelled.');
    expect(screen.getByRole('button', { name: 'Area' }).getAttribute('aria-pressed')).toBe('true');
    key('Escape');
    expect(screen.getByRole('button', { name: 'Area' }).getAttribute('aria-pressed')).toBe('false');
    expect(target.getAttribute('tabindex')).toBeNull();
    expect(keyboardPan.getActive()).toBe(true);
    expect(onMeasured).not.toHaveBeenCalled();
  });
});
