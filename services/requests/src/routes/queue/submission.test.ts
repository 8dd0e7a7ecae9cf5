import { randomUUID } from 'node:crypto';
import {
  PORTAL_QUEUES,
  REQUEST_ADMIN_API,
  REQUEST_API,
  type RequestChangeAnswer,
  type RequestRecord,
} from '@portal/contracts';
import { building, floor, section } from '@portal/domain/testing';
import { closeQueue } from '@portal/server-kit';
import { createPdfQueue, pdfJobId, readPdfJob, SAVI_PDF_KIND } from '@portal/pdf-jobs';
import {
  ADMIN,
  OPERATOR,
  PLAIN,
  QC,
  call,
  env,
  redisUrl,
  reportQueuePrefix,
  useRequestsApp,
} from '../../testing/harness';
import { seedRequest, statusOf } from '../../testing/queueRequests';

// Issue 22 "The request's life is the server's", on a throwaway database and the real Redis: submitting
// with exactly spec 02 §7.2's body sets the request's RVETotal from its report's totals and queues the
// report's PDF (its pdf.jobs row and its BullMQ job in 'reportbuilder-pdf'; the report builder's worker
// renders it: services/reportbuilder/src/pdf.test.ts); a status change into QC check or later does the
// same; the QS and QC checklists take the spec's bodies, and refuse ticks sent unticked; GET …/any carries
// spec 02 §3's server fields.

useRequestsApp();

const pdfQueue = createPdfQueue(PORTAL_QUEUES.reportbuilderPdf, {
  redisUrl,
  prefix: reportQueuePrefix,
});
afterAll(() => closeQueue(pdfQueue));

/**
 * A SAVI request of the demo user, priced by a group of its own, with a saved report at version 3:
 * one 100 m² house at R 1 000 / m² = 100 000.00; professional fee 10 % = 10 000.00; VAT 15 % of 110 000.00
 * = 16 500.00; grand total 126 500.00.
 */
const GRAND_TOTAL = 126_500;
async function reportedRequest(status = 'In progress'): Promise<string> {
  const id = await seedRequest(PLAIN, { status });
  const [group] = (await env.db.dataSource.query(
    `INSERT INTO identity.groups (name, code, include_vat, include_professional_fee, professional_fee_percentage,
                                  double_volume_percent)
     VALUES ($1, $2, true, true, 10, 0) RETURNING id`,
    [`Submission ${randomUUID().slice(0, 6)}`, `S${randomUUID().slice(0, 5)}`],
  )) as { id: string }[];
  await env.db.dataSource.query('UPDATE requests.requests SET group_id = $2 WHERE id = $1', [id, group.id]);
  const sections = [
    ['s1', section('Main', { buildings: [building('House', { floors: [floor(100)], rate: 1000 })] })],
  ];
  await env.db.dataSource.query(
    `INSERT INTO reportbuilder.reports (request_id, sections, details, version)
     VALUES ($1, $2::jsonb, '{"vatPercentage": 15}'::jsonb, 3)`,
    [id, JSON.stringify(sections)],
  );
  return id;
}

const record = async (id: string) => (await call(OPERATOR, 'GET', REQUEST_API.any(id))).json<RequestRecord>();

/** The report's PDF job: its row in pdf.jobs and its BullMQ job, under one id. */
async function pdfJob(id: string, version: number) {
  const jobId = pdfJobId(SAVI_PDF_KIND, id, version);
  const queued = await pdfQueue.getJob(jobId);
  return {
    row: await readPdfJob(env.appDatabase, jobId),
    queued: queued ? await queued.getState() : null,
  };
}

describe('submitting a report (spec 02 §4.4: it generates the report)', () => {
  it('with exactly the spec body: QC check, RVETotal from the report totals, its PDF queued', async () => {
    const id = await reportedRequest();
    const submitted = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.submit, {
      _id: id,
      lat: -33.93,
      lng: 18.86,
      status: 'QC check',
    });
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json<RequestChangeAnswer>().request).toMatchObject({
      status: 'QC check',
      rve: GRAND_TOTAL,
    });
    expect((await record(id)).RVETotal).toBe(GRAND_TOTAL);

    const { row, queued } = await pdfJob(id, 3);
    expect(row).toMatchObject({ kind: 'savi', subject_id: id, version: 3, state: 'queued' });
    // The job renders the submitted version: its row is kept in the payload.
    expect((row!.payload as { row: { version: number } }).row.version).toBe(3);
    expect(['waiting', 'prioritized', 'active', 'delayed']).toContain(queued);
  });

  it('a report never saved is submitted too: RVETotal 0, the PDF of its empty version queued', async () => {
    const id = await seedRequest(PLAIN, { status: 'In progress' });
    const submitted = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.submit, {
      _id: id,
      lat: -33.9,
      lng: 18.8,
    });
    expect(submitted.json<RequestChangeAnswer>().request.rve).toBe(0);
    expect((await pdfJob(id, 0)).row?.state).toBe('queued');
  });

  it('a status change into QC check or later (the grid, an admin) does what submission does', async () => {
    const id = await reportedRequest();
    const delivered = await call(ADMIN, 'POST', REQUEST_ADMIN_API.updateStatus, {
      _id: id,
      status: 'Delivered',
    });
    expect(delivered.statusCode).toBe(200);
    expect(delivered.json<RequestChangeAnswer>().request.rve).toBe(GRAND_TOTAL);
    expect((await pdfJob(id, 3)).row?.state).toBe('queued');
  });

  it('a submitted request whose PDF went missing gets it queued again by its next change', async () => {
    const id = await reportedRequest('Dispatch');
    expect((await pdfJob(id, 3)).row).toBeNull();
    const delivered = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.allToDelivered, { ids: [id] });
    expect(delivered.statusCode).toBe(200);
    const { row, queued } = await pdfJob(id, 3);
    expect(row?.state).toBe('queued');
    expect(queued).not.toBeNull();
  });

  it('an IRIS request has no report: its changes queue no PDF and leave its RVETotal', async () => {
    const id = await seedRequest(PLAIN, { status: 'In progress', request_type: 'IRIS' });
    const submitted = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.submit, {
      _id: id,
      lat: -33.9,
      lng: 18.8,
    });
    expect(submitted.json<RequestChangeAnswer>().request).toMatchObject({ status: 'QC check', rve: null });
    expect((await pdfJob(id, 0)).row).toBeNull();
  });
});

describe('the checklists take spec 02 §7.2 bodies', () => {
  it('QS {_id, status, firstUser, priority} and QC {_id, status, propertyType, numberOfBuildings, price}', async () => {
    const id = await seedRequest(PLAIN);
    const qs = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.qsChecklist, {
      _id: id,
      status: 'Ready for QS',
      firstUser: 'Pieter van der Merwe',
      priority: 'Yes',
    });
    expect(qs.statusCode).toBe(200);
    expect(qs.json<RequestChangeAnswer>().request).toMatchObject({
      status: 'Ready for QS',
      priority: 'Yes',
      firstQS: 'Pieter van der Merwe',
    });
    await env.db.dataSource.query(`UPDATE requests.requests SET status = 'QC check' WHERE id = $1`, [id]);
    const qc = await call(QC, 'POST', REQUEST_ADMIN_API.qcChecklist, {
      _id: id,
      status: 'Dispatch',
      propertyType: 'RESIDENTIAL',
      numberOfBuildings: 2,
      price: 1750,
    });
    expect(qc.statusCode).toBe(200);
    expect(qc.json<RequestChangeAnswer>().request).toMatchObject({
      status: 'Dispatch',
      numberOfBuildings: 2,
      unitPrice: 1750,
      reportFee: 3500,
    });
  });

  it('checks, when sent, must all be ticked: a 400 that says so, and nothing changes', async () => {
    const id = await seedRequest(PLAIN);
    const qs = await call(OPERATOR, 'POST', REQUEST_ADMIN_API.qsChecklist, {
      _id: id,
      status: 'Ready for QS',
      priority: 'No',
      checks: [true, false, true],
    });
    expect(qs.statusCode).toBe(400);
    expect(qs.json().message).toBe('All 3 QS checks must be ticked.');
    expect(await statusOf(id)).toBe('New');

    await env.db.dataSource.query(`UPDATE requests.requests SET status = 'QC check' WHERE id = $1`, [id]);
    const qc = await call(QC, 'POST', REQUEST_ADMIN_API.qcChecklist, {
      _id: id,
      status: 'Dispatch',
      propertyType: 'RESIDENTIAL',
      numberOfBuildings: 1,
      price: 900,
      checks: [true, true, true],
    });
    expect(qc.statusCode).toBe(400);
    expect(qc.json().message).toBe('All 7 QC checks must be ticked to approve.');
    expect(await statusOf(id)).toBe('QC check');
  });
});

describe('GET request/{id}/any', () => {
  it("carries spec 02 §3's server fields", async () => {
    const id = await seedRequest(PLAIN, { status: 'Delivered', lat: -33.9321, lng: 18.8602 });
    await env.db.dataSource.query(
      `UPDATE requests.requests SET first_user_name = 'Pieter van der Merwe', report_invoice_number = 'INV-7',
              report_disputed = true, report_pdf_downloaded = true, unit_price = 1750,
              report_pdf_url = 'reports/savi/' || id || '.pdf'
        WHERE id = $1`,
      [id],
    );
    const answer = await record(id);
    expect(answer).toMatchObject({
      email: 'user@portal.test',
      firstUser: 'Pieter van der Merwe',
      reportInvoiceNumber: 'INV-7',
      reportDisputed: true,
      reportPdfDownloaded: true,
      reportPdfUrl: `reports/savi/${id}.pdf`,
      price: 1750,
      reference: { POLICY_NUMBER: 'KM123456' },
      location: { type: 'Point', coordinates: [18.8602, -33.9321] },
    });
  });

  it('a request not yet priced or placed answers nulls, not absent fields', async () => {
    const id = await seedRequest(PLAIN);
    await env.db.dataSource.query(
      'UPDATE requests.requests SET lat = NULL, lng = NULL, point = NULL WHERE id = $1',
      [id],
    );
    expect(await record(id)).toMatchObject({
      firstUser: null,
      reportInvoiceNumber: null,
      reportDisputed: false,
      reportPdfDownloaded: false,
      price: null,
      location: null,
    });
  });
});
