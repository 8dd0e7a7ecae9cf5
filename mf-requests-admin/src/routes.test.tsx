import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { REPORTBUILDER_API, REQUEST_ADMIN_API, REQUEST_API, type VersionChanges } from '@portal/contracts';
import { QC_CHECKS } from '@portal/domain';
import {
  answerFetch,
  callsTo,
  errorAnswer,
  json,
  meAnswer,
  operatorUser,
  plainUser,
  qcUser,
  requestRow,
} from './testing/fetchAnswers';
import { renderRemote } from './testing/renderRemote';

const pager = (rows = [requestRow()]) => ({
  [`GET ${REQUEST_ADMIN_API.pager}`]: () => json(200, { total: rows.length, docs: rows }),
  [`GET ${REQUEST_ADMIN_API.statusCounts}`]: () =>
    json(200, { total: rows.length, counts: { New: rows.length } }),
  [`GET ${REQUEST_ADMIN_API.settings}`]: () =>
    json(200, { ageingTargets: { New: 4 }, statuses: [], pageSizes: [10, 20, 50, 100, 500, 1000] }),
  [`GET ${REQUEST_ADMIN_API.views}`]: () => json(200, { views: [] }),
});

describe('/requests (spec 03 "User\'s request list")', () => {
  it('lists the user’s own requests oldest first, with the status display rule', async () => {
    const fetch = answerFetch({
      ...meAnswer(plainUser),
      ...pager([
        requestRow({ status: 'Finalised', rve: 1_250_000 }),
        requestRow({
          requestID: 'r2',
          gripReference: 'GRP-2611-000002',
          status: 'QC check',
          preliminaryRve: 900_000,
        }),
        requestRow({ requestID: 'r3', gripReference: 'GRP-2611-000003' }),
      ]),
    });
    renderRemote('/requests');
    expect(await screen.findByText('Finalised (final RVE R 1 250 000.00)')).toBeTruthy();
    expect(screen.getByText('QC check (preliminary RVE R 900 000.00)')).toBeTruthy();
    expect(screen.getByText('New (no RVE)')).toBeTruthy();
    const [call] = callsTo(fetch, 'GET', REQUEST_ADMIN_API.pager);
    const query = new URL(call.url).searchParams;
    expect(query.get('sort_object')).toBe('{"created":1}');
    expect(query.get('limit')).toBe('20');
  });
});

describe('/requests/admin (spec 02 §2.2, §4)', () => {
  it('sends a plain user home', async () => {
    answerFetch({ ...meAnswer(plainUser), ...pager() });
    const { router } = renderRemote('/requests/admin');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('shows each status’s action, colours priority rows red and query rows orange, with the default filters', async () => {
    const fetch = answerFetch({
      ...meAnswer(operatorUser),
      ...pager([
        requestRow({ priority: 'Yes' }),
        requestRow({ requestID: 'r2', gripReference: 'GRP-2611-000002', status: 'Query' }),
        requestRow({
          requestID: 'r3',
          gripReference: 'GRP-2611-000003',
          status: 'Finalised',
          priority: 'Yes',
        }),
      ]),
    });
    renderRemote('/requests/admin');
    const grid = await screen.findByRole('grid', { name: 'Requests' });
    await within(grid).findByText('GRP-2611-000001');
    expect(within(grid).getByRole('button', { name: 'QS check' })).toBeTruthy();
    expect(within(grid).getByRole('button', { name: 'Revisit report' })).toBeTruthy();
    expect(within(grid).getByRole('button', { name: 'Dispute' })).toBeTruthy();
    const rowOf = (text: string) => within(grid).getByText(text).closest('[role="row"]')!;
    expect(rowOf('GRP-2611-000001').className).toContain('request-row-red');
    expect(rowOf('GRP-2611-000002').className).toContain('request-row-orange');
    expect(rowOf('GRP-2611-000003').className).not.toMatch(/request-row-/);
    const query = new URL(callsTo(fetch, 'GET', REQUEST_ADMIN_API.pager)[0].url).searchParams;
    expect([query.get('request_type'), query.get('cantlocate')]).toEqual(['SAVI', 'No']);
  });

  it('shows the requests a refused "All to Delivered" names', async () => {
    answerFetch({
      ...meAnswer(operatorUser),
      ...pager(),
      [`POST ${REQUEST_ADMIN_API.allToDelivered}`]: () =>
        errorAnswer(409, '1 of the selected requests is not in Dispatch: nothing was changed.', [
          'GRP-2611-000001 (New)',
        ]),
    });
    renderRemote('/requests/admin');
    const grid = await screen.findByRole('grid', { name: 'Requests' });
    await within(grid).findByText('GRP-2611-000001');
    fireEvent.click(within(grid).getAllByRole('checkbox')[1]);
    fireEvent.click(screen.getByRole('button', { name: 'All to Delivered' }));
    expect(
      await screen.findByText('Nothing was changed. Not in Dispatch: GRP-2611-000001 (New)'),
    ).toBeTruthy();
  });

  it('replaces a row in place when update_request arrives on the socket', async () => {
    answerFetch({ ...meAnswer(operatorUser), ...pager() });
    renderRemote('/requests/admin');
    const grid = await screen.findByRole('grid', { name: 'Requests' });
    await within(grid).findByText('GRP-2611-000001');
    const { __sockets } = jest.requireMock('socket.io-client') as {
      __sockets: { emit: (e: string, p: unknown) => void }[];
    };
    act(() => {
      for (const socket of __sockets)
        socket.emit('update_request', { row: requestRow({ status: 'Ready for QS', version: 2 }) });
    });
    expect(await within(grid).findByRole('button', { name: 'Start report' })).toBeTruthy();
  });

  it('exports the filter matches and shows the job’s progress, then its download link', async () => {
    let polls = 0;
    const job = {
      id: 'j1',
      kind: 'xlsx',
      state: 'queued',
      progress: 0,
      rows: null,
      error: null,
      downloadUrl: null,
      createdAt: '2026-11-25T08:00:00Z',
      finishedAt: null,
    };
    const fetch = answerFetch({
      ...meAnswer(operatorUser),
      ...pager(),
      [`POST ${REQUEST_ADMIN_API.exportToExcel}`]: () => json(202, job),
      [`GET ${REQUEST_ADMIN_API.job('j1')}`]: () =>
        json(
          200,
          ++polls < 2
            ? { ...job, state: 'running', progress: 40 }
            : {
                ...job,
                state: 'done',
                progress: 100,
                rows: 1,
                downloadUrl: REQUEST_ADMIN_API.downloadXlsx('j1'),
              },
        ),
    });
    renderRemote('/requests/admin');
    await screen.findByText('GRP-2611-000001');
    fireEvent.click(screen.getByRole('button', { name: 'Export all matches to Excel' }));
    expect(await screen.findByRole('link', { name: 'Download' }, { timeout: 8000 })).toBeTruthy();
    const [call] = callsTo(fetch, 'POST', REQUEST_ADMIN_API.exportToExcel);
    expect(await call.json()).toEqual({ filters: { request_type: 'SAVI', cantlocate: 'No' } });
  });
});

describe('the checklists (spec 02 §2.2, §5, §6)', () => {
  const record = {
    gripReference: 'GRP-2611-000001',
    status: 'QC check',
    coordinates: { lat: -33.93, lng: 18.86 },
  };
  const at = (path: string) => `${path}?requestID=r1&lat=-33.93&lng=18.86`;

  it('enables QC approval only for saviQC and only with all 7 checks ticked', async () => {
    const fetch = answerFetch({
      ...meAnswer(qcUser),
      [`GET ${REQUEST_API.any('r1')}`]: () => json(200, record),
      [`POST ${REQUEST_ADMIN_API.qcChecklist}`]: () =>
        json(200, { success: true, request: requestRow({ status: 'Dispatch' }) }),
    });
    renderRemote(at('/requests/admin/qc-checklist'));
    await screen.findByText('GRP-2611-000001');
    fireEvent.change(screen.getByLabelText('Unit price (R)'), { target: { value: '1500' } });
    const approve = screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement;
    const boxes = within(screen.getByRole('group', { name: 'QC checks' })).getAllByRole('checkbox');
    expect(boxes).toHaveLength(QC_CHECKS.length);
    for (const box of boxes.slice(0, -1)) fireEvent.click(box);
    expect(approve.disabled).toBe(true);
    fireEvent.click(boxes[boxes.length - 1]);
    expect(approve.disabled).toBe(false);
    fireEvent.click(approve);
    await waitFor(() => expect(callsTo(fetch, 'POST', REQUEST_ADMIN_API.qcChecklist)).toHaveLength(1));
    expect(await callsTo(fetch, 'POST', REQUEST_ADMIN_API.qcChecklist)[0].json()).toMatchObject({
      _id: 'r1',
      status: 'Dispatch',
      propertyType: 'RESIDENTIAL',
      numberOfBuildings: 1,
      price: 1500,
    });
  });

  it('tells an operator without saviQC that only QC approves, and a query needs a comment', async () => {
    const fetch = answerFetch({
      ...meAnswer(operatorUser),
      [`GET ${REQUEST_API.any('r1')}`]: () => json(200, record),
    });
    renderRemote(at('/requests/admin/qc-checklist'));
    expect(await screen.findByText('Only QC staff (saviQC) can approve.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Query' }));
    expect(await screen.findByText('A comment is required.')).toBeTruthy();
    expect(callsTo(fetch, 'POST', REQUEST_ADMIN_API.query)).toHaveLength(0);
  });
});

describe('the QC checklist: changes since the last submitted version (issue 13)', () => {
  const record = { gripReference: 'GRP-2611-000001', status: 'QC check', coordinates: null };
  const at = '/requests/admin/qc-checklist?requestID=r1&lat=-33.93&lng=18.86';
  const none: VersionChanges = {
    sectionsAdded: [],
    sectionsRemoved: [],
    sectionsChanged: [],
    detailsChanged: [],
    grandTotalBefore: null,
    grandTotalAfter: null,
  };
  const version = (number: number, changes: Partial<VersionChanges>) => ({
    number,
    reportVersion: number * 3,
    submittedAt: '2026-11-20T08:00:00.000Z',
    submittedBy: { id: 'u2', name: 'Pieter van der Merwe' },
    sections: [],
    totals: null,
    changes: { ...none, ...changes },
  });
  const answering = (versions: () => Response) =>
    answerFetch({
      ...meAnswer(qcUser),
      [`GET ${REQUEST_API.any('r1')}`]: () => json(200, record),
      [`GET ${REPORTBUILDER_API.versions('r1')}`]: versions,
    });
  const panel = async () =>
    (await screen.findByRole('heading', { name: 'Changes since the last submitted version' })).closest(
      'section',
    ) as HTMLElement;

  it('lists the sections added, removed and changed, the details and the grand total before → after', async () => {
    const fetch = answering(() =>
      json(200, {
        ID: 'r1',
        versions: [
          version(2, {
            sectionsAdded: ['Cottage'],
            sectionsRemoved: ['Shed'],
            sectionsChanged: ['Main house'],
            detailsChanged: ['note', 'extraField'],
            grandTotalBefore: 1_234_567.8,
            grandTotalAfter: 1_300_000,
          }),
          version(1, { sectionsAdded: ['Main house', 'Shed'], grandTotalAfter: 1_234_567.8 }),
        ],
        sinceLast: { ...none, grandTotalBefore: 1_300_000, grandTotalAfter: 1_300_000 },
      }),
    );
    renderRemote(at);
    const section = await panel();
    const list = await within(section).findByRole('list', { name: 'Changes in version 2' });
    expect(within(section).getByText('Version 2 against version 1')).toBeTruthy();
    expect(within(list).getByText('Sections added: Cottage')).toBeTruthy();
    expect(within(list).getByText('Sections removed: Shed')).toBeTruthy();
    expect(within(list).getByText('Sections changed: Main house')).toBeTruthy();
    expect(within(list).getByText('Details changed: Note, Extra field')).toBeTruthy();
    expect(within(list).getByText('Grand total: R 1,234,567.80 → R 1,300,000.00')).toBeTruthy();
    // Nothing edited since version 2 was submitted: no second list.
    expect(within(section).queryByText(/Edited since/)).toBeNull();
    expect(callsTo(fetch, 'GET', REPORTBUILDER_API.versions('r1'))).toHaveLength(1);
  });

  it('says "First submission" for a single version, and shows edits made since it', async () => {
    answering(() =>
      json(200, {
        ID: 'r1',
        versions: [version(1, { sectionsAdded: ['Main house'], grandTotalAfter: 500_000 })],
        sinceLast: {
          ...none,
          sectionsChanged: ['Main house'],
          grandTotalBefore: 500_000,
          grandTotalAfter: 510_000,
        },
      }),
    );
    renderRemote(at);
    const section = await panel();
    expect(await within(section).findByText('First submission')).toBeTruthy();
    expect(within(section).getByText('Edited since version 1 was submitted')).toBeTruthy();
    const list = within(section).getByRole('list', { name: 'Changes since version 1' });
    expect(within(list).getByText('Sections changed: Main house')).toBeTruthy();
    expect(within(list).getByText('Grand total: R 500,000.00 → R 510,000.00')).toBeTruthy();
  });

  it('says "First submission" when no version was kept', async () => {
    answering(() => json(200, { ID: 'r1', versions: [], sinceLast: null }));
    renderRemote(at);
    expect(await within(await panel()).findByText('First submission')).toBeTruthy();
  });

  it('only logs a failed load; the panel says nothing is known and the checklist still works', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      answering(() => errorAnswer(500, 'Internal Server Error'));
      renderRemote(at);
      const section = await panel();
      expect(await within(section).findByText('Nothing is known about earlier versions.')).toBeTruthy();
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.getByRole('group', { name: 'QC checks' })).toBeTruthy();
      await waitFor(() =>
        expect(logged).toHaveBeenCalledWith(
          '[requests-admin] the report versions could not be loaded',
          'r1',
          expect.anything(),
        ),
      );
    } finally {
      logged.mockRestore();
    }
  });
});

describe('the duplicate check (spec 03)', () => {
  it('lists the requests nearby and shows a popup with the spec’s fields', async () => {
    const near = (id: string, overrides: object) => ({
      requestID: id,
      gripReference: `GRP-${id}`,
      location: `${id} Main Road`,
      lat: -25.7,
      lng: 28.2,
      client: 'Karoo Mutual Insurance',
      reference: 'KM123456',
      status: 'New',
      date: '2026-11-20T08:00:00Z',
      dateKind: 'created',
      finalRve: null,
      preliminaryRve: null,
      distance: 0,
      ...overrides,
    });
    answerFetch({
      ...meAnswer(operatorUser),
      [`GET ${REQUEST_ADMIN_API.near('c1', 100000)}`]: () =>
        json(200, {
          centre: near('c1', {}),
          requests: [
            near('n1', { distance: 40, status: 'Finalised', dateKind: 'finalised', finalRve: 2_000_000 }),
            near('n2', { distance: 90 }),
          ],
          radius: 100000,
          truncated: false,
        }),
    });
    renderRemote('/requests/admin/duplicate-check?requestID=c1');
    const list = await screen.findByRole('list', { name: 'Requests nearby' });
    fireEvent.click(within(list).getByText('GRP-n1 · 40 m'));
    const popup = await screen.findByRole('dialog', { name: 'Request GRP-n1' });
    expect(popup.textContent).toContain('Final RVE: R 2 000 000.00');
    expect(popup.textContent).toContain('Finalised');
    fireEvent.click(within(list).getByText('GRP-n2 · 90 m'));
    expect((await screen.findByRole('dialog', { name: 'Request GRP-n2' })).textContent).toContain(
      'Insufficient Data',
    );
  });
});
