import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { BUILDING_WARNING, CONSTRUCTION_TYPES, type ReportSections } from '@portal/domain';
import {
  answerFetch,
  building,
  meAnswer,
  operatorUser,
  REQUEST_ID,
  reportServer,
  section,
  workedSections,
} from '../../testing/fetchAnswers';
import { renderRemote } from '../../testing/renderRemote';

const at = (buildingID = '0', sectionID = 's1') =>
  `/reportbuilder/building-overview?requestID=${REQUEST_ID}&sectionID=${sectionID}&buildingID=${buildingID}`;
const total = () => screen.getByTestId('building-total').textContent;
const select = (label: string) => screen.getByLabelText(label) as HTMLSelectElement;
const optionsOf = (label: string) => Array.from(select(label).options).map((o) => o.textContent);

beforeEach(() => sessionStorage.clear());

describe('building-overview (spec 02 §2.1, §2.3, §4.4, §5)', () => {
  it('shows the building’s total of report 1 and follows its edits live', async () => {
    answerFetch({ ...meAnswer(operatorUser), ...reportServer().answers });
    renderRemote(at());
    // 270.375 m² × 8 500 + the solar geyser 25 000
    await waitFor(() => expect(total()).toBe('270.38 m² · R 2,323,187.50'));
    fireEvent.click(screen.getByLabelText('Slope'));
    // 257.5 × 8 500 + 25 000
    expect(total()).toBe('257.5 m² · R 2,213,750.00');
    fireEvent.change(screen.getByLabelText('Floor 2 size (m²)'), { target: { value: '100' } });
    // (120 + 115 + 45.5) × 8 500 + 25 000
    expect(total()).toBe('280.5 m² · R 2,409,250.00');
    expect(optionsOf('Construction type')).toEqual(['Please select a value', ...CONSTRUCTION_TYPES]);
  });

  it('cascades the rate dropdowns: a level’s change resets those below it', async () => {
    answerFetch({ ...meAnswer(operatorUser), ...reportServer().answers });
    renderRemote(at());
    await waitFor(() => expect(optionsOf('Type')).toContain('garage'));
    expect(select('Class').value).toBe('A-s');
    fireEvent.change(select('Type'), { target: { value: 'garage' } });
    expect(select('Class').value).toBe('');
    expect(select('Class').selectedOptions[0]!.textContent).toBe('Please select a value');
    expect((screen.getByLabelText('Rate') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Rate') as HTMLInputElement).placeholder).toBe(
      'Please select or type in value',
    );
    expect(total()).toBe('270.38 m² · R 25,000.00');
    fireEvent.change(select('Class'), { target: { value: 'A-i' } });
    expect(document.querySelector('#rate-options option')?.getAttribute('value')).toBe('4500');
    fireEvent.change(screen.getByLabelText('Rate'), { target: { value: '4,500' } });
    // 270.375 × 4 500 + 25 000 = 1 241 687.50
    expect(total()).toBe('270.38 m² · R 1,241,687.50');
    fireEvent.change(select('Category'), { target: { value: 'outbuildings' } });
    expect([select('Type').value, select('Class').value]).toEqual(['', '']);
  });

  it('cuts the floors to the floor count and saves the building with the §5 warnings shown for 3 s', async () => {
    const server = reportServer({
      sections: {
        s1: section('Main', { buildings: [building('Shed', { constructionType: '', rate: null })] }),
      },
    });
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    renderRemote(at());
    const floors = await screen.findByLabelText('Number of floors');
    fireEvent.change(floors, { target: { value: '3' } });
    expect(screen.getByLabelText('Floor 3 size (m²)')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Floor 1 size (m²)'), { target: { value: '20' } });
    fireEvent.change(floors, { target: { value: '2' } });
    expect(screen.queryByLabelText('Floor 3 size (m²)')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const warnings = await screen.findByRole('alert', { name: 'Warnings' });
    expect(within(warnings).getByText(BUILDING_WARNING.noConstructionType)).toBeTruthy();
    expect(within(warnings).getByText(BUILDING_WARNING.floorWithoutSize)).toBeTruthy();
    expect(within(warnings).getByText(BUILDING_WARNING.noRate)).toBeTruthy();
    expect(await screen.findByText('Changes to the building saved.')).toBeTruthy();
    const saved = (server.state.bodies[0]!.body.sections as ReportSections).s1!.buildings[0]!;
    expect(saved.floors).toEqual([
      { size: 20, doubleVolume: false, location: '' },
      { size: null, doubleVolume: false, location: '' },
    ]);
    await waitFor(() => expect(screen.queryByRole('alert', { name: 'Warnings' })).toBeNull(), {
      timeout: 5000,
    });
  });

  it('refuses a name already used in the section', async () => {
    const server = reportServer();
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    renderRemote(at());
    const name = await screen.findByLabelText('Building name');
    fireEvent.change(name, { target: { value: ' GARAGE' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('A building or improvement with this name already exists in this section.'),
    ).toBeTruthy();
    expect(server.state.bodies).toEqual([]);
  });

  it('moves the building to another section: a new number there, the old section renumbered', async () => {
    const server = reportServer({ sections: workedSections() });
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    const { router } = renderRemote(at());
    fireEvent.change(await screen.findByLabelText('Move to section'), { target: { value: 's2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(router.state.location.search).toContain('sectionID=s2&buildingID=0'));
    const saved = server.state.bodies[0]!.body.sections as ReportSections;
    expect(saved.s1!.buildings.map((b) => [b.name, b.marker?.number])).toEqual([['Garage', 1]]);
    expect(saved.s2!.buildings.map((b) => [b.name, b.marker?.number])).toEqual([['House', 1]]);
    expect(await screen.findByRole('heading', { name: 'Building overview: House' })).toBeTruthy();
  });
});
