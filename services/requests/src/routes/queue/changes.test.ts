import {
  REQUEST_ADMIN_API,
  requestUpdatedChannel,
  type ConflictAnswer,
  type RequestChangeAnswer,
  type RequestHistoryAnswer,
  type RequestUpdatedEvent,
} from '@portal/contracts';
import { OVERRIDE_QUERY_COMMENT, QC_CHECKS, QS_CHECKS } from '@portal/domain';
import { ADMIN, CLAIMS, OPERATOR, PLAIN, QC, call, redis, useRequestsApp } from '../../testing/harness';
import { allChecks, historyOf, pager, seedRequest, statusOf } from '../../testing/queueRequests';

// The console's change calls, one request at a time and in bulk (spec 02 §7.2), on a throwaway
// PostgreSQL/PostGIS database and the real Redis: roles, transitions, versions and concurrency, history and
// the announcements. One file: every change here is announced on the one Redis channel the bulk test
// listens to, so no other file's changes run beside it.

useRequestsApp();

describe('the workflow', () => {
  it('QS checklist → start report → submit → QC approval → Delivered, each recorded in the history', async () => {
    const id = await seedRequest(PLAIN);
    const qs = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.qsChecklist, {
      _id: id,
      priority: 'Yes',
      checks: allChecks(QS_CHECKS.length),
      version: 1,
    });
    expect(qs.statusCode).toBe(200);
    expect(qs.json<RequestChangeAnswer>().request).toMatchObject({
      status: 'Ready for QS',
      priority: 'Yes',
      firstQS: 'Pieter van der Merwe',
      version: 2,
    });
    const started = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.updateStatus, {
      _id: id,
      status: 'In progress',
    });
    expect(started.json<RequestChangeAnswer>().request.status).toBe('In progress');
    const submitted = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.submit, {
      _id: id,
      lat: -33.93,
      lng: 18.86,
    });
    expect(submitted.json<RequestChangeAnswer>().request).toMatchObject({
      status: 'QC check',
      coordinates: { lat: -33.93, lng: 18.86 },
    });

    // Approval: the 7 checks, buildings and price; only saviQC.
    const qc = { _id: id, propertyType: 'RESIDENTIAL', numberOfBuildings: 2, price: 1750 };
    const operator = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.qcChecklist, {
      ...qc,
      checks: allChecks(QC_CHECKS.length),
    });
    expect(operator.statusCode).toBe(403);
    expect(operator.json().message).toBe('QC approval needs the saviQC role.');
    const six = await call(QC, 'POST', REQUEST_ADMIN_API.qcChecklist, {
      ...qc,
      checks: [...allChecks(QC_CHECKS.length - 1), false],
    });
    expect(six.statusCode).toBe(400);
    expect(await statusOf(id)).toBe('QC check');
    const approved = await call(QC, 'POST', REQUEST_ADMIN_API.qcChecklist, {
      ...qc,
      checks: allChecks(QC_CHECKS.length),
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json<RequestChangeAnswer>().request).toMatchObject({
      status: 'Dispatch',
      rveType: 'RESIDENTIAL',
      numberOfBuildings: 2,
      unitPrice: 1750,
      reportFee: 3500,
    });

    const delivered = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.allToDelivered, { ids: [id] });
    expect(delivered.json()).toEqual({ success: true, updated: 1 });
    expect(await statusOf(id)).toBe('Delivered');

    const history = (await call(PLAIN, 'GET', REQUEST_ADMIN_API.history(id))).json<RequestHistoryAnswer>();
    const statuses = history.history
      .filter((line) => line.field === 'status')
      .map((line) => `${line.from}→${line.to}`);
    expect(statuses.reverse()).toEqual([
      'New→Ready for QS',
      'Ready for QS→In progress',
      'In progress→QC check',
      'QC check→Dispatch',
      'Dispatch→Delivered',
    ]);
    expect(history.history.find((line) => line.field === 'unitPrice')).toMatchObject({
      user: 'Ayesha Patel',
      from: null,
      to: 'R 1 750.00',
    });
  });

  it('refuses transitions the status machine does not allow with 409 and the row as it is', async () => {
    const id = await seedRequest(PLAIN);
    const answer = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.submit, { _id: id, lat: -33.9, lng: 18.8 });
    expect(answer.statusCode).toBe(409);
    expect(answer.json<ConflictAnswer>()).toMatchObject({
      message: "A request in 'New' cannot move to 'QC check'.",
      current: { requestID: id, status: 'New' },
    });
    const jump = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.updateStatus, {
      _id: id,
      status: 'Delivered',
    });
    expect(jump.statusCode).toBe(409);
    expect(await historyOf(id)).toEqual([]);
  });

  it("lets an admin override the status; Query set so records 'Override from Request Admin page'", async () => {
    const id = await seedRequest(PLAIN);
    const answer = await call(ADMIN, 'POST', REQUEST_ADMIN_API.updateStatus, { _id: id, status: 'Query' });
    expect(answer.statusCode).toBe(200);
    expect(await historyOf(id)).toEqual([
      {
        user_name: 'Thandiwe Nkosi',
        field: 'status',
        from_value: 'New',
        to_value: 'Query',
        comment: OVERRIDE_QUERY_COMMENT,
      },
    ]);
  });

  it('needs a comment for a query and a dispute; a dispute marks the request disputed', async () => {
    const id = await seedRequest(PLAIN, { status: 'Delivered' });
    const empty = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.query, { _id: id, comment: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('A comment is required.');
    const other = await call(CLAIMS, 'POST', REQUEST_ADMIN_API.dispute, { _id: id, comment: 'Wrong house' });
    expect(other.statusCode).toBe(403);
    const disputed = await call(PLAIN, 'POST', REQUEST_ADMIN_API.dispute, {
      _id: id,
      comment: 'Wrong house',
    });
    expect(disputed.json<RequestChangeAnswer>().request).toMatchObject({ status: 'Query', disputed: 'Yes' });
    expect((await historyOf(id)).at(-1)).toMatchObject({ field: 'dispute', comment: 'Wrong house' });
  });

  it('keeps every console call from plain users (403) and unknown ids answer 404, bad ids 400', async () => {
    const id = await seedRequest(PLAIN);
    for (const [url, body] of [
      [REQUEST_ADMIN_API.updateStatus, { _id: id, status: 'Ready for QS' }],
      [REQUEST_ADMIN_API.priority, { id, priority: true }],
      [REQUEST_ADMIN_API.unitPrice, { id, unitPrice: 1 }],
      [REQUEST_ADMIN_API.allToDelivered, { ids: [id] }],
      [REQUEST_ADMIN_API.markInvoiced, { requestids: [id], invoiceNumber: 'INV-1' }],
      [REQUEST_ADMIN_API.qsChecklist, { _id: id, priority: false, checks: allChecks(3) }],
    ] as const) {
      const answer = await call(PLAIN, 'POST', url, body);
      expect([url, answer.statusCode]).toEqual([url, 403]);
    }
    expect(await statusOf(id)).toBe('New');
    const missing = await call(ADMIN, 'POST', REQUEST_ADMIN_API.priority, {
      id: '00000000-0000-4000-8000-000000000000',
      priority: true,
    });
    expect(missing.statusCode).toBe(404);
    const bad = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.priority, {
      id: 'x; DROP TABLE',
      priority: true,
    });
    expect(bad.statusCode).toBe(400);
    const negative = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.unitPrice, { id, unitPrice: -1 });
    expect(negative.statusCode).toBe(400);
  });
});

describe('edits, versions and bulk changes', () => {
  it('saves each inline edit with its own call and refuses a stale version with the latest row', async () => {
    const id = await seedRequest(PLAIN);
    const first = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.numberOfBuildings, {
      id,
      numberOfBuildings: 3,
      version: 1,
    });
    expect(first.json<RequestChangeAnswer>().request).toMatchObject({ numberOfBuildings: 3, version: 2 });
    const stale = await call(QC, 'POST', REQUEST_ADMIN_API.unitPrice, { id, unitPrice: 2000, version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<ConflictAnswer>().current).toMatchObject({
      numberOfBuildings: 3,
      unitPrice: null,
      version: 2,
    });
    const type = await call(QC, 'POST', REQUEST_ADMIN_API.propertyType, {
      id,
      propertyType: 'COMMERCIAL',
      version: 2,
    });
    expect(type.json<RequestChangeAnswer>().request.rveType).toBe('COMMERCIAL');
  });

  it('of two operators saving the same row at once, one wins and the other gets 409', async () => {
    const id = await seedRequest(PLAIN);
    const answers = await Promise.all([
      call(OPERATOR, 'POST', REQUEST_ADMIN_API.unitPrice, { id, unitPrice: 1000, version: 1 }),
      call(QC, 'POST', REQUEST_ADMIN_API.unitPrice, { id, unitPrice: 2000, version: 1 }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((answer) => answer.statusCode === 200)!.json<RequestChangeAnswer>().request;
    const loser = answers.find((answer) => answer.statusCode === 409)!.json<ConflictAnswer>();
    expect(loser.current).toMatchObject({ unitPrice: winner.unitPrice, version: 2 });
    expect((await historyOf(id)).length).toBe(1);
  });

  it('refuses "all to Delivered" whole when one request is not dispatched, listing it', async () => {
    const dispatched = await seedRequest(PLAIN, { status: 'Dispatch' });
    const fresh = await seedRequest(PLAIN);
    const answer = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.allToDelivered, {
      ids: [dispatched, fresh],
    });
    expect(answer.statusCode).toBe(409);
    expect(answer.json<ConflictAnswer>().refused).toEqual([
      expect.objectContaining({ id: fresh, status: 'New' }),
    ]);
    expect(await statusOf(dispatched)).toBe('Dispatch');
  });

  it('prioritises, prices and invoices a selection, announcing the change on Redis', async () => {
    const ids = [await seedRequest(PLAIN), await seedRequest(CLAIMS)];
    const subscriber = redis.duplicate();
    const heard: RequestUpdatedEvent[] = [];
    await subscriber.subscribe(requestUpdatedChannel('portal'));
    subscriber.on('message', (_channel, message) => heard.push(JSON.parse(message)));
    try {
      expect((await call(OPERATOR, 'POST', REQUEST_ADMIN_API.prioritiseAll, { ids })).statusCode).toBe(403);
      expect((await call(ADMIN, 'POST', REQUEST_ADMIN_API.prioritiseAll, { ids })).json()).toEqual({
        success: true,
        updated: 2,
      });
      const fees = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.updateAllFees, {
        ids,
        type: 'AGRICULTURAL',
        buildings: 4,
        price: 1250.5,
      });
      expect(fees.statusCode).toBe(200);
      const invoiced = await call(OPERATOR, 'POST', `${REQUEST_ADMIN_API.markInvoiced}/`, {
        requestids: ids,
        invoiceNumber: 'INV-2026-001',
      });
      expect(invoiced.statusCode).toBe(200);
      const rows = (await pager(ADMIN, { invoiceNumber: 'INV-2026-001' })).docs;
      expect(rows.map((row) => [row.priority, row.rveType, row.reportFee])).toEqual([
        ['Yes', 'AGRICULTURAL', 5002],
        ['Yes', 'AGRICULTURAL', 5002],
      ]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(heard.length).toBe(3);
      expect(heard[0].ids.sort()).toEqual([...ids].sort());
      expect(heard[0].userIds.length).toBe(2);
      expect(heard[0].row).toBeUndefined();
    } finally {
      await subscriber.quit();
    }
  });
});

describe('client references', () => {
  it('reads and edits client references with the group’s labels and rules', async () => {
    const id = await seedRequest(PLAIN);
    const read = (await call(PLAIN, 'GET', REQUEST_ADMIN_API.referencesOf(id))).json();
    expect(read.clientReferences).toEqual({ POLICY_NUMBER: 'KM123456' });
    expect(read.fields.map((field: { label: string }) => field.label)).toContain('Policy Number');
    const bad = await call(PLAIN, 'POST', REQUEST_ADMIN_API.references, {
      _id: id,
      clientReferences: { POLICY_NUMBER: 'nope' },
    });
    expect(bad.statusCode).toBe(400);
    const saved = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.references, {
      _id: id,
      clientReferences: { POLICY_NUMBER: 'KM654321' },
    });
    expect(saved.json<RequestChangeAnswer>().request.clientReference).toBe('Policy Number: KM654321');
    expect((await historyOf(id)).map((line) => line.field)).toEqual(['references']);
    expect((await call(CLAIMS, 'GET', REQUEST_ADMIN_API.referencesOf(id))).statusCode).toBe(403);
  });
});
