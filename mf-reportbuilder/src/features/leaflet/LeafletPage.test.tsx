import { act, screen, waitFor } from '@testing-library/react';
import OlMap from 'ol/Map';
import MapBrowserEvent from 'ol/MapBrowserEvent';
import Zoom from 'ol/control/Zoom';
import MouseWheelZoom from 'ol/interaction/MouseWheelZoom';
import { fromLonLat } from 'ol/proj';
import type { ReportSections } from '@portal/domain';
import { installJsdomMapSupport } from '@portal/web-kit/testing';
import { answerFetch, meAnswer, operatorUser, REQUEST_ID, reportServer } from '../../testing/fetchAnswers';
import { renderRemote } from '../../testing/renderRemote';
import { IMPROVEMENT_MAP_ZOOM } from './routes/LeafletPage';

beforeAll(installJsdomMapSupport);
beforeEach(() => sessionStorage.clear());

/** The OpenLayers map MapView made (the page fixes its view's zoom once it is ready). */
function spyOnMaps() {
  const getView = jest.spyOn(OlMap.prototype, 'getView');
  return () => {
    const maps = getView.mock.contexts.filter((c): c is OlMap => c instanceof OlMap);
    return maps[maps.length - 1];
  };
}

const clickAt = (map: OlMap, lat: number, lng: number) => {
  const event = new MapBrowserEvent('click', map, new MouseEvent('click') as PointerEvent);
  event.coordinate = fromLonLat([lng, lat]);
  act(() => {
    map.dispatchEvent(event);
  });
};

afterEach(() => jest.restoreAllMocks());

describe('leaflet-page (spec 02 §2.1, §2.3, §8, §9)', () => {
  it('prompts, keeps the zoom fixed, and a click moves a building improvement’s marker and saves it', async () => {
    const server = reportServer();
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    const mapOf = spyOnMaps();
    // buildingID in the query string: the improvement of building 0 (session storage plays no part).
    renderRemote(
      `/reportbuilder/leaflet-page?requestID=${REQUEST_ID}&sectionID=s1&buildingID=0&improvementID=0`,
    );
    expect(await screen.findByText('Click anywhere to mark the location of the item.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Location of Solar geyser' })).toBeTruthy();
    await waitFor(() => expect(mapOf()).toBeDefined());
    const map = mapOf()!;
    const view = map.getView();
    expect([view.getZoom(), view.getMinZoom(), view.getMaxZoom()]).toEqual([
      IMPROVEMENT_MAP_ZOOM,
      IMPROVEMENT_MAP_ZOOM,
      IMPROVEMENT_MAP_ZOOM,
    ]);
    expect(
      map
        .getControls()
        .getArray()
        .some((c) => c instanceof Zoom),
    ).toBe(false);
    expect(
      map
        .getInteractions()
        .getArray()
        .some((i) => i instanceof MouseWheelZoom),
    ).toBe(false);

    clickAt(map, -33.9331, 18.8612);
    expect(await screen.findByText('The location of the item was saved.')).toBeTruthy();
    const saved = (server.state.bodies[0]!.body.sections as ReportSections).s1!.buildings[0]!
      .improvements[0]!;
    expect(saved.marker!.lat).toBeCloseTo(-33.9331, 6);
    expect(saved.marker!.lng).toBeCloseTo(18.8612, 6);
    expect(saved.marker!.number).toBe(1);
    expect(saved.name).toBe('Solar geyser');
  });

  it('places a section’s improvement (no buildingID in the query) even with a building kept in the session', async () => {
    sessionStorage.setItem('reportbuilder.buildingID', '0');
    const server = reportServer();
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    const mapOf = spyOnMaps();
    renderRemote(`/reportbuilder/leaflet-page?requestID=${REQUEST_ID}&sectionID=s2&improvementID=1`);
    expect(await screen.findByRole('heading', { name: 'Location of Gate' })).toBeTruthy();
    await waitFor(() => expect(mapOf()).toBeDefined());
    clickAt(mapOf()!, -33.94, 18.87);
    await waitFor(() => expect(server.state.bodies).toHaveLength(1));
    const saved = (server.state.bodies[0]!.body.sections as ReportSections).s2!.improvements[1]!;
    expect(saved.marker).toMatchObject({ number: 1 });
    expect(saved.marker!.lat).toBeCloseTo(-33.94, 6);
  });
});
