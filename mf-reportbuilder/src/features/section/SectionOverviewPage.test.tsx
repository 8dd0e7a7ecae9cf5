import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { REQUEST_ADMIN_API } from '@portal/contracts';
import type { ReportSections } from '@portal/domain';
import { storageKey } from '../../report/routeParams';
import { answerFetch, meAnswer, operatorUser, REQUEST_ID, reportServer } from '../../testing/fetchAnswers';
import { renderRemote } from '../../testing/renderRemote';

const at = `/reportbuilder/section-overview?requestID=${REQUEST_ID}&sectionID=s1`;

beforeEach(() => sessionStorage.clear());

describe('section-overview (spec 02 §2.1, §2.3, §5)', () => {
  it('lists the buildings with their numbers and totals, and the section subtotal of report 1', async () => {
    answerFetch({ ...meAnswer(operatorUser), ...reportServer().answers });
    renderRemote(at);
    const table = await screen.findByRole('table', { name: 'Buildings' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringMatching(/^1House.*270\.38.*2,323,187\.50/),
      expect.stringMatching(/^2Garage.*36.*153,027\.00/),
    ]);
    expect(await screen.findByText('Section subtotal: 2,534,024.50')).toBeTruthy();
    expect(sessionStorage.getItem(storageKey('sectionID'))).toBe('s1');
  });

  it('adds a group (required, unique), edits the comment and the include-image toggle, and saves them', async () => {
    const server = reportServer();
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    renderRemote(at);
    fireEvent.click(await screen.findByRole('button', { name: 'Add group' }));
    let dialog = await screen.findByRole('dialog', { name: 'Add group' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByText('Please enter a name for the group.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Group name'), { target: { value: 'main GROUP' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByText('A group with this name already exists in this section.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Group name'), { target: { value: 'Outbuildings' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(
      await within(screen.getByRole('list', { name: 'Groups' })).findByText('Outbuildings'),
    ).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add building' }));
    dialog = await screen.findByRole('dialog', { name: 'Add building' });
    fireEvent.change(within(dialog).getByLabelText('Building name'), { target: { value: 'paving' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(
      within(dialog).getByText('A building or improvement with this name already exists in this section.'),
    ).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Building name'), { target: { value: 'Cottage' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('link', { name: 'Cottage' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Comment' }));
    dialog = await screen.findByRole('dialog', { name: 'Section comment' });
    fireEvent.change(within(dialog).getByLabelText('Comment'), { target: { value: 'Seen on site' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    fireEvent.click(screen.getByLabelText('Include image'));
    expect(screen.getByText('Unsaved changes')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Changes saved.')).toBeTruthy();
    const saved = (server.state.bodies[0]!.body.sections as ReportSections).s1!;
    expect(saved.groups).toEqual([{ name: 'Main group' }, { name: 'Outbuildings' }]);
    expect(saved.comment).toBe('Seen on site');
    expect(saved.includeImage).toBe(false);
    expect(saved.buildings.map((b) => [b.name, b.marker?.number])).toEqual([
      ['House', 1],
      ['Garage', 2],
      ['Cottage', 3],
    ]);
  });

  it('submit report sends the request to QC check with its point, then goes to /requests/admin', async () => {
    const server = reportServer();
    answerFetch({ ...meAnswer(operatorUser), ...server.answers });
    const { router } = renderRemote(at);
    fireEvent.click(await screen.findByRole('button', { name: 'Submit report' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/requests/admin'));
    expect(server.state.bodies).toEqual([
      {
        path: REQUEST_ADMIN_API.submit,
        body: { _id: REQUEST_ID, lat: -33.9321, lng: 18.8602, status: 'QC check' },
      },
    ]);
  });
});
