import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { REQUEST_ADMIN_API } from '@portal/contracts';
import { answerFetch, json, meAnswer, plainUser, requestRow } from '../../../testing/fetchAnswers';
import { renderRemote } from '../../../testing/renderRemote';

// A notification's link (its mail, the header's bell: issue 24) opens the user's list on one request,
// /requests?grip_reference=…, as the console does; "show all" goes back to the whole list.

it('opens on the one request of ?grip_reference= and shows all again on request', async () => {
  const asked: (string | null)[] = [];
  answerFetch({
    ...meAnswer(plainUser),
    [`GET ${REQUEST_ADMIN_API.pager}`]: (request: Request) => {
      asked.push(new URL(request.url).searchParams.get('grip_reference'));
      return json(200, { total: 1, docs: [requestRow()] });
    },
  });
  renderRemote('/requests?grip_reference=GRP-2611-000001');
  const showAll = await screen.findByRole('button', {
    name: 'Showing GRP-2611-000001 only: show all my requests',
  });
  await waitFor(() => expect(asked).toContain('GRP-2611-000001'));
  await act(async () => fireEvent.click(showAll));
  await waitFor(() => expect(asked.at(-1)).toBeNull());
  expect(screen.queryByRole('button', { name: /show all my requests/ })).toBeNull();
});
