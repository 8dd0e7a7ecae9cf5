// The report builder (issue 13):
//  - section save: POST /api/v1.0/reportbuilder/section of a report of 6 sections × 5 buildings (3 floors,
//    an improvement each) with its version, one after the other: p50/p95.
//  - image upload: a 5 MB PNG (noise, so it does not compress away) through POST upload, then cropped to
//    both variants (POST image/crop: the cropped PNG and its compressed JPEG): time of each, p50/p95.
//  - report PDF from the generate call to ready with a warm worker (polled every 50 ms): p50/p95.
//    Target p95 ≤ 3 s.
// Its own throwaway-free database `portal_bench_reportbuilder` (migrated, seeded, made once); the service and
// worker run as `npm start` runs them (config/services.json), on free ports.
// Usage: node bench/reportbuilder.mjs [--saves 50] [--uploads 10] [--pdfs 20]
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from 'pg';
import {
  freePortsForAll,
  portalProcesses,
  startProcess,
  stopProcesses,
  waitUntilReady,
} from '../scripts/lib/processes.mjs';
import { databaseUrl } from '../scripts/lib/settings.mjs';
import { ROOT, sleep } from '../scripts/lib/system.mjs';
import { reportHouse, reportImprovement } from './lib/reports.mjs';
import { benchSessionCookie, buildProject } from './lib/services.mjs';
import { round, timingSummary } from './stats.mjs';
import { numberOption, benchLog } from './lib/cli.mjs';

const require = createRequire(import.meta.url);
const log = benchLog('reportbuilder');

export const REPORTBUILDER_BENCH_DATABASE = 'portal_bench_reportbuilder';
export const REPORTBUILDER_TARGETS = { pdfP95Ms: 3000 };

async function ensureDatabase() {
  await buildProject('@portal/reportbuilder');
  const db = require(join(ROOT, 'libs/db/dist/index.js'));
  const url = db.withDatabase(databaseUrl(), REPORTBUILDER_BENCH_DATABASE);
  const created = await db.ensureDatabase(url);
  await db.runMigrations(url);
  if (created) {
    const ds = db.createDataSource(url);
    await ds.initialize();
    await db.seed(ds);
    await ds.destroy();
  }
  return url;
}

/** New SAVI requests in progress (editable), the operator's, at a Stellenbosch point. */
async function newRequests(url, count) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `INSERT INTO requests.requests (request_type, request_sub_type, status, user_id, user_name, user_email,
                                      group_id, for_group_id, address, point)
       SELECT 'SAVI', 'Replacement Value Estimate', 'In progress', u.id, u.name, u.email, u.group_id, u.group_id,
              'bench ' || i, ST_SetSRID(ST_MakePoint(18.86, -33.93), 4326)
         FROM identity.users u, generate_series(1, $1) AS i WHERE u.email = 'operator@portal.test'
       RETURNING id`,
      [count],
    );
    return rows.map((row) => row.id);
  } finally {
    await client.end();
  }
}

/** A report of `sections` sections of `buildings` buildings (3 floors, one improvement each). */
function bigSections(sections, buildings) {
  const marker = (n) => ({ lat: -33.93, lng: 18.86, number: n });
  return Object.fromEntries(
    Array.from({ length: sections }, (_, s) => [
      `s${s + 1}`,
      {
        name: `Section ${s + 1}`,
        type: 'Residential',
        includeImage: true,
        comment: '',
        marker: marker(s + 1),
        groups: [{ name: 'Main' }],
        improvements: [],
        buildings: Array.from({ length: buildings }, (_, b) =>
          reportHouse({
            name: `Building ${b + 1}`,
            marker: marker(b + 1),
            floors: [
              [120, false, 'Ground'],
              [80, true, 'First'],
              [45.5, false, 'Second'],
            ],
            slopePercentage: 5,
            improvements: [reportImprovement('Paving', 150, marker(1))],
          }),
        ),
      },
    ]),
  );
}

async function call(base, cookie, method, path, body, headers = {}) {
  const started = performance.now();
  const answer = await fetch(`${base}${path}`, {
    method,
    headers: {
      cookie,
      ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
  });
  const text = await answer.text();
  const ms = performance.now() - started;
  if (answer.status >= 300)
    throw new Error(`${method} ${path} answered ${answer.status}: ${text.slice(0, 300)}`);
  return { ms, json: text ? JSON.parse(text) : null };
}

/** A 1800 × 1000 PNG of noise: about 5 MB (noise does not compress), as a large photo of a plan can be. */
async function noisePng() {
  const sharp = require('sharp');
  const { randomBytes } = await import('node:crypto');
  const [width, height] = [1800, 1000];
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

export async function measureReportBuilder({ saves = 50, uploads = 10, pdfs = 20 } = {}) {
  const url = await ensureDatabase();
  const db = require(join(ROOT, 'libs/db/dist/index.js'));
  const ds = db.createDataSource(url);
  await ds.initialize();
  const operator = await ds.getRepository(db.UserEntity).findOneByOrFail({ email: 'operator@portal.test' });
  await ds.destroy();
  const cookie = benchSessionCookie({
    sub: operator.id,
    email: operator.email,
    roles: ['authenticated', 'saviOperator'],
  });
  const ports = await freePortsForAll();
  const specs = portalProcesses({
    databaseUrl: url,
    ports,
    only: ['reportbuilder', 'reportbuilder-worker'],
    varDir: join(ROOT, 'var', 'bench'),
    env: { LOG_LEVEL: 'warn', REPORTBUILDER_QUEUE_PREFIX: `bench-rb-${Date.now()}` },
  });
  const running = specs.map((spec) =>
    startProcess(spec, { logFile: join(ROOT, 'var', 'bench', `reportbuilder-${spec.name}.log`) }),
  );
  try {
    await Promise.all(running.map((process) => waitUntilReady(process)));
    const base = `http://127.0.0.1:${ports.reportbuilder}`;
    const api = '/api/v1.0/reportbuilder';

    // 1. Section saves (the whole sections object, as the screens save it).
    const [saveRequest] = await newRequests(url, 1);
    const sections = bigSections(6, 5);
    let version = 0;
    const saveTimes = [];
    for (let i = 0; i < saves + 3; i++) {
      sections.s1.comment = `save ${i}`;
      const { ms, json } = await call(base, cookie, 'POST', `${api}/section`, {
        ID: saveRequest,
        sections,
        version,
      });
      version = json.version;
      if (i >= 3) saveTimes.push(ms);
    }
    const sectionSave = {
      ...timingSummary(saveTimes),
      buildings: 30,
      bodyKb: round(JSON.stringify(sections).length / 1024),
    };
    log(`section save: ${JSON.stringify(sectionSave)}`);

    // 2. A 5 MB PNG uploaded, then cropped to both variants.
    const png = await noisePng();
    const uploadTimes = [];
    const cropTimes = [];
    const [imageRequest] = await newRequests(url, 1);
    for (let i = 0; i < uploads + 1; i++) {
      const form = new FormData();
      form.set('requestID', imageRequest);
      form.set('file', new Blob([png], { type: 'image/png' }), 'plan.png');
      const upload = await call(base, cookie, 'POST', `${api}/upload`, form);
      const thumbnails = (await call(base, cookie, 'GET', `${api}/image/thumbnails/${imageRequest}`)).json;
      const latest = thumbnails.images.at(-1);
      const crop = await call(base, cookie, 'POST', `${api}/image/crop`, {
        requestID: imageRequest,
        image: latest.name,
        type: 'property',
        sectionID: 'property',
        x: 0,
        y: 0,
        width: 1800,
        height: 900,
      });
      if (i >= 1) {
        uploadTimes.push(upload.ms);
        cropTimes.push(crop.ms);
      }
    }
    const imageUpload = {
      pngMb: round(png.length / 1024 / 1024),
      upload: timingSummary(uploadTimes),
      crop: timingSummary(cropTimes),
    };
    log(`image: ${JSON.stringify(imageUpload)}`);

    // 3. Report PDFs, warm worker (3 warm-ups), one at a time.
    const pdfRequests = await newRequests(url, pdfs + 3);
    const pdfTimes = [];
    for (const [i, requestID] of pdfRequests.entries()) {
      await call(base, cookie, 'POST', `${api}/section`, {
        ID: requestID,
        sections: bigSections(2, 3),
        version: 0,
      });
      const started = performance.now();
      await call(base, cookie, 'GET', `${api}/report/${requestID}/savi/south%20africa/group/full?wait=0`);
      for (;;) {
        const { json } = await call(base, cookie, 'GET', `${api}/report/${requestID}/pdf/ready`);
        if (json.pdfReady) break;
        if (json.state === 'failed') throw new Error(`PDF failed: ${json.error}`);
        await sleep(50);
      }
      if (i >= 3) pdfTimes.push(performance.now() - started);
    }
    const pdf = timingSummary(pdfTimes);
    log(`report PDF generate → ready, warm worker: ${JSON.stringify(pdf)}`);
    return { sectionSave, imageUpload, pdf, targets: REPORTBUILDER_TARGETS };
  } finally {
    await stopProcesses(running);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await measureReportBuilder({
    saves: numberOption('saves', 50),
    uploads: numberOption('uploads', 10),
    pdfs: numberOption('pdfs', 20),
  });
  writeFileSync(join(ROOT, 'bench/results/reportbuilder.json'), JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(result, null, 2));
}
