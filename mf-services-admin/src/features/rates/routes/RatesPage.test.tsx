import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ADMIN_API, NEW_RATE_ROW, type RateRow } from '@portal/contracts';
import { adminUser, answerFetch, callsTo, json, meAnswer } from '../../../testing/fetchAnswers';
import { renderRemote } from '../../../testing/renderRemote';
import { ADMIN_TEXT } from '../../../texts';

const dwelling: RateRow = {
  report: 'Main building',
  category: 'Residential',
  type: 'Dwelling',
  class: 'Standard',
  quantity: 'm2',
  increase: 6,
  standard: 9800,
  inbetween: 12500,
  expensive: 17400,
  slope: false,
  fee: true,
  vat: true,
};

function answerRates() {
  return answerFetch({
    ...meAnswer(adminUser),
    [`GET ${ADMIN_API.groups}`]: () => json(200, { success: true, groups: [], total: 0 }),
    [`GET ${ADMIN_API.rates('g1')}`]: () => json(200, { success: true, groupID: 'g1', rates: [dwelling] }),
    [`POST ${ADMIN_API.saveRates}`]: async (request) => {
      const { rates } = (await request.clone().json()) as { rates: RateRow[] };
      return json(200, { success: true, groupID: 'g1', rates });
    },
  });
}

const cell = (container: HTMLElement, rowId: number, field: string) =>
  container.querySelector<HTMLElement>(`[data-id="${rowId}"] [data-field="${field}"]`)!;

async function typeIntoCell(container: HTMLElement, rowId: number, field: string, text: string) {
  await act(async () => fireEvent.doubleClick(cell(container, rowId, field)));
  const input = within(cell(container, rowId, field)).getByRole('textbox');
  await act(async () => fireEvent.change(input, { target: { value: text } }));
  await act(async () => fireEvent.keyDown(input, { key: 'Enter' }));
}

describe('rates editor (spec 03 "Rates editor")', () => {
  it('adds a row with the spec’s defaults and saves the table, with the saved notice', async () => {
    const calls = answerRates();
    const { container } = renderRemote('/services/admin/rates/?groupID=g1');
    expect(await screen.findByText('Main building')).toBeTruthy();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add row' })));
    // The new row opens for editing; leave its first cell as it is.
    const firstCell = await waitFor(() => within(cell(container, 1, 'report')).getByRole('textbox'));
    await act(async () => fireEvent.keyDown(firstCell, { key: 'Escape' }));

    expect(cell(container, 1, 'quantity').textContent).toBe('no');
    for (const field of ['increase', 'standard', 'inbetween', 'expensive'])
      expect(cell(container, 1, field).textContent).toBe('0');
    for (const header of ['Slope(%)', 'Prof. fee (Y/N)', 'VAT (Y/N)'])
      expect((screen.getByRole('checkbox', { name: `${header}, row 2` }) as HTMLInputElement).checked).toBe(
        true,
      );
    expect(screen.getByText('Unsaved changes')).toBeTruthy();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));

    expect(await screen.findByText(ADMIN_TEXT.ratesSaved)).toBeTruthy();
    const [save] = callsTo(calls, 'POST', ADMIN_API.saveRates);
    expect(await save.json()).toEqual({ groupID: 'g1', rates: [dwelling, NEW_RATE_ROW] });
    expect(screen.queryByText('Unsaved changes')).toBeNull();
  });

  it('converts a typed increase to a number', async () => {
    const calls = answerRates();
    const { container } = renderRemote('/services/admin/rates/?groupID=g1');
    await screen.findByText('Main building');

    await typeIntoCell(container, 0, 'increase', '7,5');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));

    await screen.findByText(ADMIN_TEXT.ratesSaved);
    const [save] = callsTo(calls, 'POST', ADMIN_API.saveRates);
    expect(((await save.json()) as { rates: RateRow[] }).rates[0].increase).toBe(7.5);
  });

  it('blocks saving while a rate is not a number of 0 or more, and says where', async () => {
    answerRates();
    const { container } = renderRemote('/services/admin/rates/?groupID=g1');
    await screen.findByText('Main building');

    await typeIntoCell(container, 0, 'standard', '-5');

    expect(await screen.findByText('Row 1: Standard rate must be 0 or more.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);

    await typeIntoCell(container, 0, 'standard', '9900');
    await waitFor(() => expect(screen.queryByText('Row 1: Standard rate must be 0 or more.')).toBeNull());
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('says so when no group is given', async () => {
    answerFetch(meAnswer(adminUser));
    renderRemote('/services/admin/rates/');
    expect(await screen.findByText(ADMIN_TEXT.noGroupChosen)).toBeTruthy();
  });
});
