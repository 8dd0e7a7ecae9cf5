import { screen, within } from '@testing-library/react';
import { REQUEST_ADMIN_API } from '@portal/contracts';
import { answerFetch, json, meAnswer, operatorUser, plainUser, requestRow } from '../testing/fetchAnswers';
import { renderRemote } from '../testing/renderRemote';

// Issue 22: the console and the user's own list show a request's client references as "Label: value",
// never the stored JSON — as the service labels them, and an older answer's JSON read under its keys.

const rows = [
  requestRow({ clientReference: 'Policy Number: KM123456, Broker: Acme Brokers' }),
  requestRow({
    requestID: 'r2',
    gripReference: 'GRP-2611-000002',
    clientReference: '{"POLICY_NUMBER":"KM654321","CLAIM":""}',
  }),
];

const answers = (user: typeof plainUser) =>
  answerFetch({
    ...meAnswer(user),
    [`GET ${REQUEST_ADMIN_API.pager}`]: () => json(200, { total: rows.length, docs: rows }),
    [`GET ${REQUEST_ADMIN_API.statusCounts}`]: () => json(200, { total: 2, counts: { New: 2 } }),
    [`GET ${REQUEST_ADMIN_API.settings}`]: () =>
      json(200, { ageingTargets: { New: 4 }, statuses: [], pageSizes: [10, 20, 50, 100, 500, 1000] }),
    [`GET ${REQUEST_ADMIN_API.views}`]: () => json(200, { views: [] }),
  });

async function expectReadableReferences(gridName: string) {
  const grid = await screen.findByRole('grid', { name: gridName });
  expect(await within(grid).findByText('Policy Number: KM123456, Broker: Acme Brokers')).toBeTruthy();
  expect(within(grid).getByText('POLICY_NUMBER: KM654321')).toBeTruthy();
  expect(within(grid).getByRole('columnheader', { name: 'Client reference' })).toBeTruthy();
  expect(grid.textContent).not.toMatch(/[{}"]/);
}

it('the user’s own list (/requests) shows each reference as "Label: value"', async () => {
  answers(plainUser);
  renderRemote('/requests');
  await expectReadableReferences('My requests');
});

it('the request console (/requests/admin) shows each reference as "Label: value"', async () => {
  answers(operatorUser);
  renderRemote('/requests/admin');
  await expectReadableReferences('Requests');
});
