import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AVS_API, IMAGERY_API, REQUEST_API } from '@portal/contracts';
import { answerFetch, callsTo, json, plainUser, sessionAnswers } from '../../../testing/fetchAnswers';
import { churchStreetItem, churchStreetParcel, reverseAnswer } from '../../../testing/places';
import { renderRemote } from '../../../testing/renderRemote';
import { LOCATE_TEXT } from '../../../texts';

const item = churchStreetItem({
  formatted_address: '12 Church Street, Stellenbosch Central, Stellenbosch, 7600',
});

const reverse = reverseAnswer(
  item,
  churchStreetParcel({
    formatted_address: item.formatted_address,
    addresses: [
      { id: '42', short_formatted_address: '12 Church Street' },
      { id: '43', short_formatted_address: 'Unit 2, 12 Church Street' },
    ],
    portion: 2,
  }),
);

describe('/locate', () => {
  it('finds an address, and shows its parcel and the addresses on it, with no request to log', async () => {
    const calls = answerFetch({
      ...sessionAnswers(plainUser, ['avs']),
      [`POST ${AVS_API.geocode}`]: () => json(200, { success: true, result: [item] }),
      [`POST ${AVS_API.search}`]: () => json(200, { success: true, result: [item] }),
      [`POST ${AVS_API.reverse}`]: () => json(200, reverse),
      [`GET ${IMAGERY_API.coverage}`]: () => json(200, { success: true, covered: true, ortho: true }),
    });
    renderRemote('/locate');
    expect(await screen.findByRole('heading', { name: LOCATE_TEXT.title })).toBeTruthy();

    await act(async () => fireEvent.click(await screen.findByText('Search by Street Address')));
    const box = screen.getByRole('textbox', { name: 'Search by Street Address' });
    fireEvent.change(box, { target: { value: '12 church street' } });
    await act(async () => fireEvent.keyDown(box, { key: 'Enter' }));
    const results = await screen.findAllByText(item.formatted_address);
    await act(async () => fireEvent.click(results[0]));

    const summary = await screen.findByTestId('locate-summary');
    await waitFor(() =>
      expect(within(summary).getByTestId('locate-parcel').textContent).toBe('Parcel: Erf 1234/2'),
    );
    const list = within(summary).getByRole('list', { name: LOCATE_TEXT.addressesOnParcel });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['12 Church Street', 'Unit 2, 12 Church Street']);
    expect(within(summary).getByTestId('locate-address').textContent).toBe(item.formatted_address);
    const [asked] = callsTo(calls, 'POST', AVS_API.reverse);
    expect(await asked.json()).toMatchObject({ lat: item.location.lat, lng: item.location.lng });
    expect(callsTo(calls, 'PUT', REQUEST_API.create)).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /request/i })).toBeNull();
  });

  it('is open to avs or savi users only', async () => {
    answerFetch(sessionAnswers(plainUser, ['spatialkey']));
    renderRemote('/locate');
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
  });
});
