import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReportSections } from '@portal/domain';
import {
  answerFetch,
  building,
  floor,
  imageryAnswers,
  measurement,
  meAnswer,
  operatorUser,
  REQUEST_ID,
  reportServer,
  section,
} from '../../testing/fetchAnswers';
import { installJsdomMapSupport } from '@portal/web-kit/testing';
import { renderRemote } from '../../testing/renderRemote';

// Issue 21 on the building overview: the request's measurements listed, an area used as a floor's size
// (marked as measured, still editable, the total following), a height used for the number of floors.

const AREA_ID = '0b9a3c2e-8d0f-4c44-a2d2-5b0e1c7d9f10';
const MEASUREMENTS = [
  measurement({ id: AREA_ID, kind: 'area', value: 182.4, label: 'Main house' }),
  measurement({ id: 'e2c1a7a4-1111-4a2b-9c3d-222222222222', kind: 'height', value: 6.6 }),
  measurement({ id: 'e2c1a7a4-3333-4a2b-9c3d-444444444444', kind: 'distance', value: 12.4 }),
];
const at = `/reportbuilder/building-overview?requestID=${REQUEST_ID}&sectionID=s1&buildingID=0`;
const total = () => screen.getByTestId('building-total').textContent;
const house = (): ReportSections => ({
  s1: section('Main', { buildings: [building('House', { floors: [floor(100), floor(40)], rate: 1000 })] }),
});

function open() {
  const server = reportServer({ sections: house() });
  answerFetch({
    ...meAnswer(operatorUser),
    ...server.answers,
    ...imageryAnswers({ measurements: MEASUREMENTS }),
  });
  renderRemote(at);
  return server;
}

beforeAll(installJsdomMapSupport);
beforeEach(() => sessionStorage.clear());

it('lists the request’s measurements: kind and label, value and unit, survey date, who', async () => {
  open();
  const list = await screen.findByTestId('request-measurements');
  const items = within(list).getAllByRole('listitem');
  expect(items).toHaveLength(3);
  expect(items[0]!.textContent).toContain('Main house: 182.4 m² · perimeter 54.20 m');
  expect(items[0]!.textContent).toContain('14 March 2019');
  expect(items[0]!.textContent).toContain('operator@portal.test');
  expect(items[1]!.textContent).toContain('Height: 6.60 m');
  expect(within(items[2]!).queryByRole('button')).toBeNull();
});

it('uses an area as a floor’s size, marked as measured; the total follows; saved with its measurement', async () => {
  const server = open();
  await waitFor(() => expect(total()).toBe('140 m² · R 140,000.00'));
  fireEvent.click(await screen.findByRole('button', { name: 'Use Main house as floor size' }));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Floor 1' }));
  const size = screen.getByLabelText('Floor 1 size (m²)') as HTMLInputElement;
  expect(size.value).toBe('182.4');
  expect(screen.getByText('Measured on the 14 Mar 2019 survey')).toBeTruthy();
  expect(total()).toBe('222.4 m² · R 222,400.00');

  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(server.state.bodies).toHaveLength(1));
  const saved = server.state.bodies[0]!.body.sections as ReportSections;
  expect(saved.s1!.buildings[0]!.floors[0]).toEqual({
    size: 182.4,
    doubleVolume: false,
    location: '',
    measured: { measurementId: AREA_ID, value: 182.4, surveyId: 7, capturedOn: '2019-03-14' },
  });

  // Still editable: typed over, it says so and goes out flagged.
  fireEvent.change(screen.getByLabelText('Floor 1 size (m²)'), { target: { value: '190' } });
  expect(screen.getByText('Edited by hand (measured 182.4 m² on the 14 Mar 2019 survey)')).toBeTruthy();
  expect(total()).toBe('230 m² · R 230,000.00');
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(server.state.bodies).toHaveLength(2));
  const typed = server.state.bodies[1]!.body.sections as ReportSections;
  expect(typed.s1!.buildings[0]!.floors[0]!.measured).toMatchObject({ value: 182.4, edited: true });
});

it('puts an area on a new floor, and a height into the number of floors', async () => {
  open();
  fireEvent.click(await screen.findByRole('button', { name: 'Use Main house as floor size' }));
  fireEvent.click(screen.getByRole('menuitem', { name: 'A new floor' }));
  expect((screen.getByLabelText('Number of floors') as HTMLInputElement).value).toBe('3');
  expect((screen.getByLabelText('Floor 3 size (m²)') as HTMLInputElement).value).toBe('182.4');
  // round(6.6 / 3) = 2 floors.
  fireEvent.click(screen.getByRole('button', { name: 'Use Height for the number of floors (2)' }));
  expect((screen.getByLabelText('Number of floors') as HTMLInputElement).value).toBe('2');
  expect(screen.queryByLabelText('Floor 3 size (m²)')).toBeNull();
});

it('opens measuring on the imagery at the request’s point (the survey timeline)', async () => {
  open();
  fireEvent.click(await screen.findByRole('button', { name: 'Measure on the imagery' }));
  const timeline = await screen.findByTestId('survey-timeline');
  expect(
    within(timeline)
      .getAllByRole('radio')
      .map((radio) => radio.textContent),
  ).toEqual(['2026', '2019']);
  expect(screen.getByRole('button', { name: 'Close measuring' })).toBeTruthy();
});
