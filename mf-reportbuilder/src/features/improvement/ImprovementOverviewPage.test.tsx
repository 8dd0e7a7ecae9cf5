import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { REPORT_BUILDER_ERROR, type ReportSections } from '@portal/domain';
import { answerFetch, meAnswer, operatorUser, REQUEST_ID, reportServer } from '../../testing/fetchAnswers';
import { renderRemote } from '../../testing/renderRemote';

const inBuilding = (improvementID = '0') =>
  `/reportbuilder/building-improvement-overview?requestID=${REQUEST_ID}&sectionID=s1&buildingID=0&improvementID=${improvementID}`;
const inSection = (sectionID = 's2', improvementID = '0') =>
  `/reportbuilder/section-improvement-overview?requestID=${REQUEST_ID}&sectionID=${sectionID}&improvementID=${improvementID}`;
const value = () => screen.getByTestId('improvement-value').textContent;
const select = (label: string) => screen.getByLabelText(label) as HTMLSelectElement;
const rate = () => screen.getByLabelText('Rate') as HTMLInputElement;

beforeEach(() => sessionStorage.clear());

describe('building-improvement-overview (spec 02 §2.1, §2.3, §4.4, §8)', () => {
  it('cascades the rate dropdowns, shows the value live and saves with the spec’s message', async () => {
    const server = reportServer();
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    renderRemote(inBuilding());
    expect(await screen.findByRole('heading', { name: 'Improvement overview: Solar geyser' })).toBeTruthy();
    // 2 units × 12 500
    await waitFor(() => expect(value()).toBe('Value: R 25,000.00'));
    await waitFor(() =>
      expect(Array.from(select('Category').options).map((o) => o.value)).toContain('buildings'),
    );

    fireEvent.change(select('Category'), { target: { value: 'buildings' } });
    expect([select('Type').value, select('Class').value]).toEqual(['', '']);
    expect(select('Type').selectedOptions[0]!.textContent).toBe('Please select a value');
    expect(select('Class').selectedOptions[0]!.textContent).toBe('Please select a value');
    expect(rate().value).toBe('');
    expect(rate().placeholder).toBe('Please select or type in value');
    expect(value()).toBe('Value: R 0.00');

    fireEvent.change(select('Type'), { target: { value: 'dwelling' } });
    fireEvent.change(select('Class'), { target: { value: 'A-i' } });
    expect(document.querySelector('#improvement-rate-options option')?.getAttribute('value')).toBe('9500');
    fireEvent.change(rate(), { target: { value: '9,500' } });
    expect(value()).toBe('Value: R 19,000.00');
    fireEvent.change(screen.getByLabelText('Number of units'), { target: { value: '3' } });
    expect(value()).toBe('Value: R 28,500.00');
    // A higher level's change resets the class and the rate again.
    fireEvent.change(select('Type'), { target: { value: 'garage' } });
    expect([select('Class').value, rate().value]).toEqual(['', '']);
    fireEvent.change(select('Class'), { target: { value: 'A-s' } });
    fireEvent.change(rate(), { target: { value: '4250.75' } });

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Changes to the improvement saved.')).toBeTruthy();
    const saved = (server.state.bodies[0]!.body.sections as ReportSections).s1!.buildings[0]!
      .improvements[0]!;
    expect(saved).toMatchObject({
      name: 'Solar geyser',
      category: 'buildings',
      type: 'garage',
      class: 'A-s',
      rate: 4250.75,
      numberOfUnits: 3,
    });
    expect(server.state.bodies[0]!.body.version).toBe(3);
  });

  it('requires a name (spec 02 §5) and saves nothing without one', async () => {
    const server = reportServer();
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    renderRemote(inBuilding());
    fireEvent.change(await screen.findByLabelText('Improvement name'), { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(REPORT_BUILDER_ERROR.improvementNameRequired)).toBeTruthy();
    expect(server.state.bodies).toEqual([]);
  });

  it('asks to save when leaving with unsaved changes', async () => {
    const server = reportServer();
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    const { router } = renderRemote(inBuilding());
    fireEvent.change(await screen.findByLabelText('Number of units'), { target: { value: '4' } });
    fireEvent.click(screen.getByRole('link', { name: 'Section Main' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save and leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/reportbuilder/section-overview'));
    const saved = (server.state.bodies[0]!.body.sections as ReportSections).s1!.buildings[0]!
      .improvements[0]!;
    expect(saved.numberOfUnits).toBe(4);
  });
});

describe('section-improvement-overview (spec 02 §2.1)', () => {
  it('edits an improvement of the section: units × a typed rate', async () => {
    const server = reportServer();
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    renderRemote(inSection());
    expect(await screen.findByRole('heading', { name: 'Improvement overview: Boundary wall' })).toBeTruthy();
    // 84.5 × 1 150
    await waitFor(() => expect(value()).toBe('Value: R 97,175.00'));
    fireEvent.change(screen.getByLabelText('Number of units'), { target: { value: '100' } });
    expect(value()).toBe('Value: R 115,000.00');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Changes to the improvement saved.')).toBeTruthy();
    const saved = (server.state.bodies[0]!.body.sections as ReportSections).s2!.improvements[0]!;
    // The typed '1,150' is saved as the number it is.
    expect(saved).toMatchObject({ name: 'Boundary wall', numberOfUnits: 100, rate: 1150 });
  });

  it('on a 409 reloads the report and says the change was not saved', async () => {
    const server = reportServer();
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    renderRemote(inSection());
    fireEvent.change(await screen.findByLabelText('Number of units'), { target: { value: '100' } });
    server.state.version = 7;
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Someone else changed this report meanwhile/)).toBeTruthy();
    await waitFor(() => expect(value()).toBe('Value: R 97,175.00'));
    expect(screen.queryByText('Changes to the improvement saved.')).toBeNull();
  });

  it('says so when the improvement does not exist', async () => {
    answerFetch({ ...meAnswer(operatorUser), ...reportServer().answers });
    renderRemote(inSection('s2', '9'));
    expect(await screen.findByText('This improvement was not found.')).toBeTruthy();
  });
});

describe('improvements on the section and building screens (spec 02 §2.3, §4.4)', () => {
  it('adds (name required) and deletes a section’s improvements, renumbering the markers', async () => {
    const server = reportServer();
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    renderRemote(`/reportbuilder/section-overview?requestID=${REQUEST_ID}&sectionID=s2`);
    const table = await screen.findByRole('table', { name: 'Improvements' });
    expect(within(table).getByRole('link', { name: 'Gate' }).getAttribute('href')).toBe(
      `/reportbuilder/section-improvement-overview?requestID=${REQUEST_ID}&sectionID=s2&improvementID=1`,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete improvement Boundary wall' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add improvement' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByText(REPORT_BUILDER_ERROR.improvementNameRequired)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Improvement name'), { target: { value: ' Pump ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.state.bodies).toHaveLength(1));
    const saved = (server.state.bodies[0]!.body.sections as ReportSections).s2!.improvements;
    expect(saved.map((i) => [i.name, i.marker?.number])).toEqual([
      ['Gate', 1],
      ['Pump', 2],
    ]);
    // The new one starts at the request's point.
    expect(saved[1]!.marker).toMatchObject({ lat: -33.9321, lng: 18.8602 });
  });

  it('adds an improvement to a building', async () => {
    const server = reportServer();
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    renderRemote(`/reportbuilder/building-overview?requestID=${REQUEST_ID}&sectionID=s1&buildingID=1`);
    fireEvent.click(await screen.findByRole('button', { name: 'Add improvement' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Improvement name'), { target: { value: 'Carport' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    const link = await screen.findByRole('link', { name: 'Carport' });
    expect(link.getAttribute('href')).toBe(
      `/reportbuilder/building-improvement-overview?requestID=${REQUEST_ID}&sectionID=s1&buildingID=1&improvementID=0`,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.state.bodies).toHaveLength(1));
    const saved = (server.state.bodies[0]!.body.sections as ReportSections).s1!.buildings[1]!.improvements;
    expect(saved.map((i) => [i.name, i.marker?.number])).toEqual([['Carport', 1]]);
  });
});
