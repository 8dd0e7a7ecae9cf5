import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { REPORTBUILDER_API, REQUEST_API } from '@portal/contracts';
import { buildingFromFootprint, type ReportSections } from '@portal/domain';
import {
  answerFetch,
  building,
  callsTo,
  floor,
  footprint,
  GROUP_ID,
  imageryAnswers,
  json,
  meAnswer,
  operatorUser,
  REQUEST_ID,
  reportServer,
  section,
  sectionsAnswer,
  SURVEY_2026,
} from '../../testing/fetchAnswers';
import { renderRemote } from '../../testing/renderRemote';

// Issue 21, 'Building Size Calculation': the section overview offers the footprints on the parcel at the
// newest survey as buildings, each ticked by the QS; nothing is sent until they confirm, then one call.

const at = `/reportbuilder/section-overview?requestID=${REQUEST_ID}&sectionID=s1`;
const FOOTPRINTS = [
  footprint('11', 'house', 120.456, 6.5),
  footprint('12', 'garage', 30, 2.8),
  footprint('5', 'shed', 9, 2.5),
  // A pool is on the survey too, but it is not floor area: never offered.
  footprint('13', 'pool', 32, 0.3),
];
// Footprint 5 is in the report already (a floor names it): it is not offered again.
const sections = (): ReportSections => ({
  s1: section('Main', {
    buildings: [
      building('House', { floors: [floor(100)] }),
      buildingFromFootprint(
        { buildingId: '5', kind: 'shed', heightM: 2.5, areaM2: 9 },
        SURVEY_2026,
        'Shed',
        2,
      ),
    ],
  }),
});

function open(subType: string | null = 'Building Size Calculation') {
  const server = reportServer({ sections: sections() });
  const confirmed: Record<string, unknown>[] = [];
  const mock = answerFetch({
    ...meAnswer(operatorUser),
    ...server.answers,
    ...imageryAnswers({ buildings: FOOTPRINTS }),
    [`GET ${REQUEST_API.any(REQUEST_ID)}`]: () =>
      json(200, {
        _id: REQUEST_ID,
        requestSubType: subType,
        group: { id: GROUP_ID, name: 'Karoo Mutual', code: 'KM' },
        coordinates: { lat: -33.9321, lng: 18.8602 },
        status: 'In progress',
      }),
    [`POST ${REPORTBUILDER_API.confirmFootprints}`]: async (request) => {
      const body = (await request.json()) as Record<string, unknown>;
      confirmed.push(body);
      const garage = buildingFromFootprint(
        { buildingId: '12', kind: 'garage', heightM: 2.8, areaM2: 30 },
        SURVEY_2026,
        'Garage',
        3,
      );
      server.state.sections.s1!.buildings.push(garage);
      server.state.version += 1;
      return json(200, sectionsAnswer(server.state.sections, server.state.version));
    },
  });
  renderRemote(at);
  return { server, confirmed, mock };
}

beforeEach(() => sessionStorage.clear());

it('offers the parcel’s footprints not in the report, each to be ticked; confirming adds them in one call', async () => {
  const { confirmed, mock } = open();
  const offer = await screen.findByRole('region', { name: 'Buildings on the parcel' });
  expect(within(offer).getByText(/on the 5 Jan 2026 survey/)).toBeTruthy();
  const boxes = within(offer).getAllByRole('checkbox');
  expect(boxes.map((box) => box.closest('label')!.textContent)).toEqual([
    'House 2: 120.46 m², 2 floors',
    'Garage: 30.00 m², 1 floor',
  ]);
  const button = within(offer).getByRole('button', { name: 'Confirm' }) as HTMLButtonElement;
  expect(button.disabled).toBe(true);

  fireEvent.click(within(offer).getByLabelText('Garage: 30.00 m², 1 floor'));
  // Nothing is sent before the QS confirms.
  expect(callsTo(mock, 'POST', REPORTBUILDER_API.confirmFootprints)).toHaveLength(0);
  expect(callsTo(mock, 'POST', REPORTBUILDER_API.saveSections)).toHaveLength(0);
  fireEvent.click(within(offer).getByRole('button', { name: 'Confirm 1 building' }));
  await waitFor(() => expect(confirmed).toHaveLength(1));
  expect(confirmed[0]).toEqual({
    requestID: REQUEST_ID,
    sectionID: 's1',
    surveyId: SURVEY_2026.id,
    buildingIds: ['12'],
    version: 3,
  });
  const table = await screen.findByRole('table', { name: 'Buildings' });
  await waitFor(() =>
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent),
    ).toEqual([
      expect.stringMatching(/^1House/),
      expect.stringMatching(/^2Shed.*9/),
      expect.stringMatching(/^3Garage.*30/),
    ]),
  );
  expect(await screen.findByText('1 building added from the footprints.')).toBeTruthy();
  // The garage is in the report now: only the house is still offered.
  await waitFor(() => expect(within(offer).getAllByRole('checkbox')).toHaveLength(1));
});

it('asks for unsaved changes to be saved first', async () => {
  open();
  const offer = await screen.findByRole('region', { name: 'Buildings on the parcel' });
  fireEvent.click(within(offer).getByLabelText('House 2: 120.46 m², 2 floors'));
  fireEvent.click(screen.getByRole('button', { name: 'Add group' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add group' });
  fireEvent.change(within(dialog).getByLabelText('Group name'), { target: { value: 'Outbuildings' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
  expect(await within(offer).findByText(/Save your changes first/)).toBeTruthy();
  expect(
    (within(offer).getByRole('button', { name: 'Confirm 1 building' }) as HTMLButtonElement).disabled,
  ).toBe(true);
});

it('offers nothing for a Replacement Value Estimate', async () => {
  open('Replacement Value Estimate');
  await screen.findByRole('table', { name: 'Buildings' });
  await waitFor(() => expect(screen.queryByRole('region', { name: 'Buildings on the parcel' })).toBeNull());
});
