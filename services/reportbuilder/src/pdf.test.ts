import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { PORTAL_QUEUES, REPORTBUILDER_API, type ReportSectionsBody } from '@portal/contracts';
import { formatMoney } from '@portal/domain';
import { closeQueue, createStorage } from '@portal/server-kit';
import { createPdfQueue, ensureSubmittedPdfs, pdfText, recordSubmittedReport } from '@portal/pdf-jobs';
import { PdfTestWorkers } from '@portal/pdf-jobs/testing';
import { targetImageKey } from './images/keys';
import { SAVI_PDF_KIND, reportFileName, saviReportPdfKey } from './pdf/report';
import { saviPdfRenderer } from './pdf/renderer';
import {
  buildingBody as building,
  floorBody as floor,
  improvementBody as improvement,
  reportBuilderTestApp,
  sectionBody as section,
  USERS,
} from './testing';
import { PDF_TEXT, type GeneratePdfAnswer, type SaviReadyAnswer } from './routes/pdf';

// The report PDF on a throwaway seeded database, the real Redis (a queue prefix of this run) and Debian's
// Chromium: libs/domain's hand-worked report 1 (two sections, buildings, improvements, extra field, fee,
// VAT) generated, rendered by a worker and downloaded; its text, file name, the request's link and RVE
// total, the zip's key; who may ask; nothing to download before a PDF.

jest.setTimeout(120_000);

const prefix = `reportbuilder-test-${randomUUID().slice(0, 8)}`;
const WORKSPACE = resolve(__dirname, '../../..');
const rb = reportBuilderTestApp(
  'reportbuilder-pdf-test',
  { REPORTBUILDER_QUEUE_PREFIX: prefix, REPORTBUILDER_PDF_WAIT_MS: '30000' },
  () => pdfWorkers.close(),
);
const { owner: OWNER, other: OTHER, operator: OPERATOR, qc: QC, admin: ADMIN } = USERS;
const { redisUrl } = rb;

const storage = () => createStorage({ driver: 'local', dir: rb.config.storageDir });

const pdfWorkers = new PdfTestWorkers(() => ({
  queueName: PORTAL_QUEUES.reportbuilderPdf,
  redisUrl,
  prefix,
  db: rb.appDatabase,
  storage: storage(),
  renderers: {
    [SAVI_PDF_KIND]: saviPdfRenderer({ ds: rb.appDatabase, storage: storage(), defaultVat: 15 }),
  },
  lockDurationMs: 5000,
  stalledIntervalMs: 1000,
}));
const startWorker = () => pdfWorkers.start();

const call = (email: string | null, method: 'GET' | 'POST', url: string, payload?: object) =>
  rb.call(email, method, url, payload);

/** libs/domain's worked report 1's group (fee 12 %, VAT, double volume 15 %), named by `format`. */
async function group(format: string): Promise<string> {
  const [row] = (await rb.db.dataSource.query(
    `INSERT INTO identity.groups (name, code, include_vat, include_professional_fee, professional_fee_percentage,
                                  double_volume_percent, report_name_format, "references")
     VALUES ($1, $3, true, true, 12, 15, $2, '[["Policy Number", "POLICY_NUMBER", 0, true, "", ""]]')
     RETURNING id`,
    [`Worked Example ${randomUUID().slice(0, 6)}`, format, `W${randomUUID().slice(0, 5)}`],
  )) as { id: string }[];
  return row!.id;
}

async function request(groupId: string, status = 'In progress'): Promise<{ id: string; grip: string }> {
  const [row] = (await rb.db.dataSource.query(
    `INSERT INTO requests.requests (request_type, status, user_id, user_name, user_email, group_id, group_name,
                                    address, lat, lng, point, selected, reference)
     SELECT 'SAVI', $2, u.id, u.name, u.email, g.id, g.name, '12 Dorp Street, Stellenbosch',
            -33.9376, 18.8603, ST_SetSRID(ST_MakePoint(18.8603, -33.9376), 4326),
            '{"suburb": "Die Boord", "town": "Stellenbosch"}'::jsonb, '{"POLICY_NUMBER": "KM123456"}'::jsonb
       FROM identity.users u, identity.groups g
      WHERE u.email = $1 AND g.id = $3
     RETURNING id, grip_reference`,
    [OWNER, status, groupId],
  )) as { id: string; grip_reference: string }[];
  return { id: row!.id, grip: row!.grip_reference };
}

/** libs/domain reportBuilder.test.ts report 1: grand total 3 429 358.17. */
const REPORT_1: ReportSectionsBody = {
  s1: section('Main', {
    buildings: [
      building('House', {
        floors: [floor(120), floor(80, true), floor(45.5)],
        slope: true,
        slopePercentage: 5,
        rate: 8500,
        improvements: [improvement('Solar geyser', 2, 12500)],
      }),
      building('Garage', { floors: [floor(36)], rate: 4250.75, slopePercentage: 20 }),
    ],
    improvements: [improvement('Paving', 150, 385.4)],
  }),
  s2: section('Boundary', {
    type: 'perimeter',
    improvements: [improvement('Boundary wall', 84.5, '1,150'), improvement('Gate', 1, 18999.99)],
  }),
};
const GRAND_TOTAL = 3429358.17;

async function worked(format = '{ref}-{POLICY_NUMBER}') {
  const target = await request(await group(format));
  const save = await call(OPERATOR, 'POST', REPORTBUILDER_API.saveSections, {
    ID: target.id,
    sections: REPORT_1,
  });
  expect(save.statusCode).toBe(200);
  const post = (path: string, body: object) =>
    call(OPERATOR, 'POST', path, { requestID: target.id, ...body });
  expect((await post(REPORTBUILDER_API.extraFieldIncluded, { included: true })).statusCode).toBe(200);
  expect((await post(REPORTBUILDER_API.extraFieldValue, { value: '12,345.67' })).statusCode).toBe(200);
  await call(OPERATOR, 'POST', REPORTBUILDER_API.note, {
    ID: target.id,
    note: 'Roof inspected from the street.',
  });
  return target;
}

const generate = (email: string | null, id: string, wait?: number) =>
  call(
    email,
    'GET',
    `${REPORTBUILDER_API.report(id, 'Worked Example')}${wait === undefined ? '' : `?wait=${wait}`}`,
  );

it('generates report 1, renders it in the worker and serves it: GRiP reference, grand total, file name, request row, zip key', async () => {
  const { id, grip } = await worked();
  // The property's cropped image (what the images calls store) goes on the cover.
  const png = await sharp({ create: { width: 640, height: 320, channels: 3, background: '#4a7' } })
    .png()
    .toBuffer();
  await storage().put(targetImageKey(id, { kind: 'property' }, 'cropped'), png, { contentType: 'image/png' });

  // Nothing to download before a PDF; the poll says none.
  const before = await call(OWNER, 'GET', REPORTBUILDER_API.download(id));
  expect([before.statusCode, before.json().message]).toEqual([404, PDF_TEXT.notReady]);
  expect((await call(OWNER, 'GET', REPORTBUILDER_API.reportReady(id))).json<SaviReadyAnswer>()).toMatchObject(
    {
      state: 'none',
      pdfReady: false,
      pdfUrl: null,
      pdfVersion: null,
    },
  );

  // Without a worker the call answers the queued job after its wait.
  const queued = (await generate(OPERATOR, id, 0)).json<GeneratePdfAnswer>();
  expect(queued).toMatchObject({ success: true, url: null, ready: false, state: 'queued', version: 4 });

  startWorker();
  const generated = await generate(OPERATOR, id);
  expect(generated.statusCode).toBe(200);
  expect(generated.json<GeneratePdfAnswer>()).toMatchObject({
    success: true,
    url: REPORTBUILDER_API.download(id),
    ready: true,
    state: 'done',
    progress: 100,
    version: 4,
  });
  expect((await call(OWNER, 'GET', REPORTBUILDER_API.reportReady(id))).json<SaviReadyAnswer>()).toMatchObject(
    {
      pdfReady: true,
      pdfUrl: REPORTBUILDER_API.download(id),
      version: 4,
      pdfVersion: 4,
    },
  );

  const download = await call(OWNER, 'GET', REPORTBUILDER_API.download(id));
  expect(download.statusCode).toBe(200);
  expect(download.headers['content-type']).toBe('application/pdf');
  expect(download.headers['content-disposition']).toContain(`filename="${grip}-KM123456.pdf"`);
  const text = (await pdfText(download.rawPayload)).join(' ');
  expect(text).toContain(grip);
  expect(text).toContain(formatMoney(GRAND_TOTAL));
  expect(text).toContain('3,429,358.17');
  for (const figure of [2662545.16, 319505.42, 447307.59, 2298187.5, 116174.99])
    expect(text).toContain(formatMoney(figure));
  expect(text).toContain('Boundary Improvements');
  expect(text).toContain('Roof inspected from the street.');

  const [row] = (await rb.db.dataSource.query(
    'SELECT status, report_pdf_url, rve_total::float8 AS rve_total FROM requests.requests WHERE id = $1',
    [id],
  )) as { status: string; report_pdf_url: string; rve_total: number }[];
  expect(row).toEqual({
    status: 'In progress',
    report_pdf_url: saviReportPdfKey(id),
    rve_total: GRAND_TOTAL,
  });
  expect(row!.report_pdf_url).toContain('savi');
  const zipCopy = await storage().get(saviReportPdfKey(id));
  expect(zipCopy!.data.equals(download.rawPayload)).toBe(true);

  // Asking again for the same version queues nothing new.
  await generate(OPERATOR, id, 0);
  const [{ count }] = (await rb.db.dataSource.query(
    'SELECT count(*)::int AS count FROM pdf.jobs WHERE kind = $1 AND subject_id = $2',
    [SAVI_PDF_KIND, id],
  )) as { count: number }[];
  expect(count).toBe(1);
  await pdfWorkers.stop();
});

it('lets the owner and staff generate, poll and download; others 403, no session 401', async () => {
  const { id, grip } = await worked('');
  expect((await generate(OTHER, id, 0)).statusCode).toBe(403);
  expect((await call(OTHER, 'GET', REPORTBUILDER_API.reportReady(id))).statusCode).toBe(403);
  expect((await call(null, 'GET', REPORTBUILDER_API.download(id))).statusCode).toBe(401);
  expect((await call(OWNER, 'GET', '/api/v1.0/reportbuilder/savi/not-a-uuid/download')).statusCode).toBe(400);
  expect((await call(ADMIN, 'GET', REPORTBUILDER_API.download(randomUUID()))).statusCode).toBe(404);
  const elsewhere = await call(OWNER, 'GET', `/api/v1.0/reportbuilder/report/${id}/savi/namibia/x/full`);
  expect(elsewhere.statusCode).toBe(400);
  startWorker();
  expect((await generate(OWNER, id)).json<GeneratePdfAnswer>().state).toBe('done');
  for (const email of [OWNER, OPERATOR, QC, ADMIN]) {
    const answer = await call(email, 'GET', `${REPORTBUILDER_API.download(id)}/`);
    expect([email, answer.statusCode]).toEqual([email, 200]);
    // No report name format: SAVi-{GRiP}.pdf.
    expect(answer.headers['content-disposition']).toContain(`filename="SAVi-${grip}.pdf"`);
  }
  expect((await call(OTHER, 'GET', REPORTBUILDER_API.download(id))).statusCode).toBe(403);
  await pdfWorkers.stop();
});

async function until(id: string, state: string): Promise<SaviReadyAnswer> {
  for (let i = 0; i < 600; i++) {
    const ready = (await call(OWNER, 'GET', REPORTBUILDER_API.reportReady(id))).json<SaviReadyAnswer>();
    if (ready.state === state) return ready;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the PDF of ${id} never reached ${state}`);
}

it('the worker process (dist/worker.js) killed mid-job (SIGKILL) loses nothing: another takes the job, one PDF', async () => {
  const child = await pdfWorkers.spawnProcess(
    join(WORKSPACE, 'services/reportbuilder/dist/worker.js'),
    {
      DATABASE_URL: rb.db.url,
      REDIS_URL: redisUrl,
      REPORTBUILDER_QUEUE_PREFIX: prefix,
      STORAGE_DIR: rb.config.storageDir,
      REPORTBUILDER_PDF_LOCK_MS: '3000',
      REPORTBUILDER_PDF_STALLED_MS: '500',
      LOG_LEVEL: 'warn',
    },
    'npx nx build @portal/reportbuilder',
  );
  const { id } = await worked();
  await generate(OPERATOR, id, 0);
  await until(id, 'running');
  process.kill(-child.pid!, 'SIGKILL');
  // The poll answers from PostgreSQL meanwhile.
  expect((await call(OWNER, 'GET', REPORTBUILDER_API.reportReady(id))).json<SaviReadyAnswer>().pdfReady).toBe(
    false,
  );
  startWorker();
  expect((await until(id, 'done')).pdfReady).toBe(true);
  const folder = join(rb.config.storageDir, 'objects', 'pdfReports', SAVI_PDF_KIND, id);
  expect(readdirSync(folder).filter((name) => name.endsWith('.pdf'))).toEqual(['v4.pdf']);
  const [job] = (await rb.db.dataSource.query('SELECT state, attempts FROM pdf.jobs WHERE subject_id = $1', [
    id,
  ])) as { state: string; attempts: number }[];
  expect(job).toEqual({ state: 'done', attempts: 2 });
  // The request's copy is made by afterDone, just after the job is marked done.
  for (let i = 0; i < 100 && !(await storage().exists(saviReportPdfKey(id))); i++)
    await new Promise((r) => setTimeout(r, 100));
  expect(await storage().exists(saviReportPdfKey(id))).toBe(true);
  await pdfWorkers.stop();
});

it('a submitted report is made by the server: the PDF its submission queued is rendered, RVETotal set; a delivered report never answers "no PDF yet"', async () => {
  // services/requests' submit, as it runs: in its transaction the totals and the job row, queued after.
  const { id, grip } = await worked();
  const [operator] = (await rb.db.dataSource.query('SELECT id FROM identity.users WHERE email = $1', [
    OPERATOR,
  ])) as { id: string }[];
  await rb.appDatabase.transaction(async (em) => {
    const submitted = await recordSubmittedReport(em, id, { defaultVat: 15, userId: operator!.id });
    expect(submitted).toMatchObject({ rveTotal: GRAND_TOTAL, job: { version: 4, state: 'queued' } });
    await em.query(`UPDATE requests.requests SET status = 'QC check', rve_total = $2 WHERE id = $1`, [
      id,
      submitted!.rveTotal,
    ]);
  });
  const queue = createPdfQueue(PORTAL_QUEUES.reportbuilderPdf, { redisUrl, prefix });
  try {
    expect(
      await ensureSubmittedPdfs(rb.appDatabase, queue, [id], { defaultVat: 15, userId: operator!.id }),
    ).toHaveLength(1);
    startWorker();
    expect(await until(id, 'done')).toMatchObject({ pdfReady: true, version: 4, pdfVersion: 4 });
    const download = await call(OWNER, 'GET', REPORTBUILDER_API.download(id));
    expect(download.statusCode).toBe(200);
    const text = (await pdfText(download.rawPayload)).join(' ');
    expect(text).toContain(grip);
    expect(text).toContain(formatMoney(GRAND_TOTAL));
    for (let i = 0; i < 100 && !(await storage().exists(saviReportPdfKey(id))); i++)
      await new Promise((r) => setTimeout(r, 100));
    const [row] = (await rb.db.dataSource.query(
      'SELECT report_pdf_url, rve_total::float8 AS rve_total FROM requests.requests WHERE id = $1',
      [id],
    )) as { report_pdf_url: string; rve_total: number }[];
    expect(row).toEqual({ report_pdf_url: saviReportPdfKey(id), rve_total: GRAND_TOTAL });
    // Done: asking again queues nothing.
    expect(await ensureSubmittedPdfs(rb.appDatabase, queue, [id], { defaultVat: 15, userId: null })).toEqual(
      [],
    );
  } finally {
    await closeQueue(queue);
  }

  // A request delivered without a PDF (before the server made them): the poll queues it, the download
  // waits for it and serves it.
  const legacy = await worked();
  await rb.db.dataSource.query(`UPDATE requests.requests SET status = 'Delivered' WHERE id = $1`, [
    legacy.id,
  ]);
  const ready = (await call(OWNER, 'GET', REPORTBUILDER_API.reportReady(legacy.id))).json<SaviReadyAnswer>();
  expect(ready.state).not.toBe('none');
  const download = await call(OWNER, 'GET', REPORTBUILDER_API.download(legacy.id));
  expect(download.statusCode).toBe(200);
  expect((await pdfText(download.rawPayload)).join(' ')).toContain(legacy.grip);
  await pdfWorkers.stop();
});

describe('the file name from the group report name format', () => {
  const values = {
    gripReference: 'GRP-2511-000123',
    address: '12 Dorp Street, Stellenbosch',
    groupName: 'Karoo Mutual Insurance',
    groupCode: 'KMI',
    references: { POLICY_NUMBER: 'KM123456', BROKER_NAME: 'A/B "Brokers"' },
    date: '2025-11-25',
  };
  it.each([
    ['', 'SAVi-GRP-2511-000123.pdf'],
    ['   ', 'SAVi-GRP-2511-000123.pdf'],
    ['{ref}-{address}', 'GRP-2511-000123-12 Dorp Street, Stellenbosch.pdf'],
    ['{code} {POLICY_NUMBER} {date}', 'KMI KM123456 2025-11-25.pdf'],
    ['{Grip}_{policy_number}.pdf', 'GRP-2511-000123_KM123456.pdf'],
    ['{BROKER_NAME}', 'A-B -Brokers.pdf'],
    ['{unknown}', 'SAVi-GRP-2511-000123.pdf'],
    ['../../{ref}', 'GRP-2511-000123.pdf'],
  ])('%j → %j', (format, name) => {
    expect(reportFileName(format, values)).toBe(name);
  });
});
