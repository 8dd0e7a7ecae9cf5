import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { REPORTBUILDER_API } from '@portal/contracts';
import { CLOSE_WINDOW_WARNING, sectionCategory } from '@portal/domain';
import { storageKey } from '../../report/routeParams';
import {
  answerFetch,
  callsTo,
  meAnswer,
  operatorUser,
  plainUser,
  REQUEST_ID,
  reportServer,
  section,
  building,
} from '../../testing/fetchAnswers';
import { renderRemote } from '../../testing/renderRemote';

const at = `/reportbuilder/property-overview?requestID=${REQUEST_ID}`;
const totalOf = (label: string) => screen.getByTestId(`total-${label}`).textContent;

beforeEach(() => sessionStorage.clear());

describe('property-overview (spec 02 §2.1, §4.4, §4.5)', () => {
  it('sends a user without a report-builder role home', async () => {
    answerFetch({ ...meAnswer(plainUser), ...reportServer().answers });
    const { router } = renderRemote(at);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('shows the sections and the totals of report 1 worked by hand (libs/domain)', async () => {
    answerFetch({ ...meAnswer(operatorUser), ...reportServer().answers });
    renderRemote(at);
    const table = await screen.findByRole('table', { name: 'Sections' });
    expect(within(table).getByRole('link', { name: 'Main' })).toBeTruthy();
    expect(within(table).getByText(sectionCategory('perimeter'))).toBeTruthy();
    expect(await screen.findByTestId('total-Total')).toBeTruthy();
    expect(totalOf('Subtotal')).toBe('2,662,545.16');
    expect(totalOf('Professional fee')).toBe('319,505.42');
    expect(totalOf('VAT')).toBe('447,307.59');
    expect(totalOf('Total')).toBe('3,429,358.17');
    expect(within(table).getByText('2,534,024.50')).toBeTruthy();
  });

  it('updates the totals live as the extra field is edited (commas stripped, blank is 0)', async () => {
    answerFetch({ ...meAnswer(operatorUser), ...reportServer().answers });
    renderRemote(at);
    await screen.findByTestId('total-Total');
    const value = screen.getByLabelText('Extra field value');
    fireEvent.change(value, { target: { value: '' } });
    // subtotal without the extra field: 2,650,199.49; fee 318,023.94; VAT 15 % of 2,968,223.43 = 445,233.51
    expect(totalOf('Subtotal')).toBe('2,650,199.49');
    expect(totalOf('Total')).toBe('3,413,456.94');
    fireEvent.change(value, { target: { value: '12,345.67' } });
    expect(totalOf('Total')).toBe('3,429,358.17');
    fireEvent.change(value, { target: { value: 'abc' } });
    expect(screen.getByText('The value must be a number.')).toBeTruthy();
  });

  it('shows the sum-insured check against the live total (issue 13): under-insured in red, then as edited', async () => {
    const sumInsured = {
      value: 3_000_000,
      verdict: 'under-insured' as const,
      differencePercent: -12.52,
      tolerancePercent: 10,
    };
    answerFetch({ ...meAnswer(operatorUser), ...reportServer({ sumInsured }).answers });
    renderRemote(at);
    const line = await screen.findByRole('status', { name: 'Sum insured' });
    expect(line.textContent).toBe('Sum insured R 3,000,000.00 — under-insured by 12.52 %');
    fireEvent.change(screen.getByLabelText('Extra field value'), { target: { value: '' } });
    expect(screen.getByRole('status', { name: 'Sum insured' }).textContent).toBe(
      'Sum insured R 3,000,000.00 — under-insured by 12.11 %',
    );
  });

  it('says over-insured, or within the tolerance, and nothing without a sum insured', async () => {
    const check = (value: number) => ({
      value,
      verdict: 'within' as const,
      differencePercent: 0,
      tolerancePercent: 10,
    });
    answerFetch({ ...meAnswer(operatorUser), ...reportServer({ sumInsured: check(4_000_000) }).answers });
    const over = renderRemote(at);
    expect((await screen.findByRole('status', { name: 'Sum insured' })).textContent).toBe(
      'Sum insured R 4,000,000.00 — over-insured by 16.64 %',
    );
    over.unmount();
    answerFetch({ ...meAnswer(operatorUser), ...reportServer({ sumInsured: check(3_300_000) }).answers });
    const within10 = renderRemote(at);
    expect((await screen.findByRole('status', { name: 'Sum insured' })).textContent).toBe(
      'Sum insured R 3,300,000.00 — within 10 %',
    );
    within10.unmount();
    answerFetch({ ...meAnswer(operatorUser), ...reportServer({ sumInsured: null }).answers });
    renderRemote(at);
    await screen.findByTestId('total-Total');
    expect(screen.queryByRole('status', { name: 'Sum insured' })).toBeNull();
  });

  it('adds a section with the popup (DEFAULT for the first, name and type required, unique) and saves the sections whole with the version read', async () => {
    const server = reportServer({ sections: {} });
    const fetch = answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    renderRemote(at);
    fireEvent.click(await screen.findByRole('button', { name: 'Add section' }));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText('Section name') as HTMLInputElement).value).toBe('DEFAULT');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByText('Please select a type for the section.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Section name'), { target: { value: '' } });
    expect(within(dialog).getByText('Please enter a name for the section.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Section name'), { target: { value: 'Main' } });
    fireEvent.change(within(dialog).getByLabelText('Section type'), { target: { value: 'Residential' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('link', { name: 'Main' })).toBeTruthy();
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
    // A second section may not take the name again.
    fireEvent.click(screen.getByRole('button', { name: 'Add section' }));
    const again = await screen.findByRole('dialog');
    expect((within(again).getByLabelText('Section name') as HTMLInputElement).value).toBe('');
    fireEvent.change(within(again).getByLabelText('Section name'), { target: { value: 'MAIN ' } });
    fireEvent.click(within(again).getByRole('button', { name: 'Add' }));
    expect(within(again).getByText('A section with this name already exists.')).toBeTruthy();
    fireEvent.click(within(again).getByRole('button', { name: 'Cancel' }));

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Changes saved.')).toBeTruthy();
    expect(callsTo(fetch, 'POST', REPORTBUILDER_API.saveSections)).toHaveLength(1);
    const body = server.state.bodies[0]!.body as { ID: string; version: number; sections: object };
    expect(body.ID).toBe(REQUEST_ID);
    expect(body.version).toBe(3);
    const saved = Object.values(body.sections) as {
      name: string;
      type: string;
      marker: { number: number };
    }[];
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({
      name: 'Main',
      type: 'Residential',
      includeImage: true,
      marker: { number: 1 },
    });
    expect(screen.queryByText('Unsaved changes')).toBeNull();
  });

  it('deletes only a section without buildings, renumbering the markers', async () => {
    const server = reportServer({
      sections: {
        a: section('A', { marker: { lat: 0, lng: 0, number: 1 }, buildings: [building('House')] }),
        b: section('B', { marker: { lat: 0, lng: 0, number: 2 } }),
        c: section('C', { marker: { lat: 0, lng: 0, number: 3 } }),
      },
    });
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    renderRemote(at);
    const remove = (name: string) => screen.getByRole('button', { name: `Delete section ${name}` });
    await screen.findByRole('link', { name: 'A' });
    expect((remove('A') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(remove('B'));
    const rows = within(screen.getByRole('table', { name: 'Sections' })).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('No.'),
      expect.stringMatching(/^1A/),
      expect.stringMatching(/^2C/),
    ]);
  });

  it('saves notes, comments and the extra field each through its call, with the version of the answer before', async () => {
    const server = reportServer();
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    renderRemote(at);
    await screen.findByTestId('total-Total');
    await waitFor(() =>
      expect((screen.getByLabelText('Comments') as HTMLTextAreaElement).value).toBe('Old comment'),
    );
    fireEvent.change(screen.getByLabelText('Comments'), { target: { value: 'New comment' } });
    fireEvent.change(screen.getByLabelText('Notes'), { target: { value: 'New note' } });
    fireEvent.click(screen.getByLabelText('Include extra field'));
    fireEvent.change(screen.getByLabelText('Extra field value'), { target: { value: '1,000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Changes saved.')).toBeTruthy();
    expect(server.state.bodies.map((b) => [b.path, b.body.version])).toEqual([
      [REPORTBUILDER_API.comments, 3],
      [REPORTBUILDER_API.note, 4],
      [REPORTBUILDER_API.extraFieldIncluded, 5],
      [REPORTBUILDER_API.extraFieldValue, 6],
    ]);
    expect(server.state.bodies[3]!.body.value).toBe('1,000');
    expect(server.state).toMatchObject({
      comment: 'New comment',
      note: 'New note',
      extra: { include: false, value: 1000 },
    });
  });

  it('a stale save (409) reloads the report and tells the user', async () => {
    const server = reportServer();
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    renderRemote(at);
    await screen.findByRole('link', { name: 'Main' });
    // Someone else saves meanwhile.
    server.state.version = 9;
    server.state.sections = { ...server.state.sections, s3: section('Theirs') };
    fireEvent.click(screen.getByRole('button', { name: 'Add section' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Section name'), { target: { value: 'Mine' } });
    fireEvent.change(within(dialog).getByLabelText('Section type'), { target: { value: 'Residential' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Someone else changed this report meanwhile/)).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Theirs' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Mine' })).toBeNull();
  });

  it('asks to save before leaving with unsaved changes, and warns when the window closes', async () => {
    const server = reportServer();
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    const listen = jest.spyOn(window, 'addEventListener');
    const unloadHandlers = () =>
      listen.mock.calls
        .filter(([type]) => type === 'beforeunload')
        .map(([, handler]) => handler as (e: object) => unknown);
    const { router } = renderRemote(at);
    await screen.findByRole('link', { name: 'Main' });
    expect(unloadHandlers()).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Notes'), { target: { value: 'Edited' } });
    await waitFor(() => expect(unloadHandlers()).toHaveLength(1));
    const closing = { preventDefault: jest.fn(), returnValue: '' };
    expect(unloadHandlers()[0]!(closing)).toBe(CLOSE_WINDOW_WARNING);
    expect(closing.preventDefault).toHaveBeenCalled();
    expect(closing.returnValue).toBe(CLOSE_WINDOW_WARNING);
    listen.mockRestore();

    fireEvent.click(screen.getByRole('link', { name: 'Main' }));
    const prompt = await screen.findByRole('dialog', { name: 'Save your changes?' });
    fireEvent.click(within(prompt).getByRole('button', { name: 'Stay on this page' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/reportbuilder/property-overview');

    fireEvent.click(screen.getByRole('link', { name: 'Main' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Save and leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/reportbuilder/section-overview'));
    expect(server.state.note).toBe('Edited');
    expect(router.state.location.search).toBe(`?requestID=${REQUEST_ID}&sectionID=s1`);
  });

  it('takes the requestID from session storage when the query string lacks it', async () => {
    sessionStorage.setItem(storageKey('requestID'), REQUEST_ID);
    answerFetch({ ...meAnswer(operatorUser), ...reportServer().answers });
    renderRemote('/reportbuilder/property-overview');
    expect(await screen.findByRole('link', { name: 'Main' })).toBeTruthy();
  });

  it('stays silent when the sections cannot be loaded (spec 02 §8)', async () => {
    const { answers } = reportServer();
    delete answers[`GET ${REPORTBUILDER_API.sections(REQUEST_ID)}`];
    answerFetch({ ...meAnswer(operatorUser), ...answers });
    renderRemote(at);
    await act(() => new Promise((r) => setTimeout(r, 100)));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
