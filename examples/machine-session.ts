/* eslint-disable no-console -- a command-line example: it reports its progress on the terminal */
// A whole machine session with the portal's API and nothing but an API key (docs/api.md walks through it, and
// through the same calls with curl): validate an address, order an IRiS risk report and download its PDF,
// log a SAVi request and follow it to delivery. Type-checked by npm test against the client generated from
// the current OpenAPI document, so it cannot drift from the API.
//
// Run it (a portal at PORTAL_URL, a key of a group with the avs, iris and savi services, read-write):
//   node scripts/openapi.mjs --check
//   npx tsc -p examples/tsconfig.json --noEmit false --outDir var/examples
//   PORTAL_URL=http://localhost:8080 PORTAL_API_KEY=ppk_… node var/examples/examples/machine-session.js
import { writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { PortalError, portalClient } from './client/portalClient';

const baseUrl = process.env.PORTAL_URL ?? 'http://localhost:8080';
const apiKey = process.env.PORTAL_API_KEY ?? '';
const api = portalClient(baseUrl, apiKey);

/** Asks `poll` every `everyMs` until it answers something, at most `attempts` times. */
async function until<T>(poll: () => Promise<T | undefined>, everyMs = 2_000, attempts = 150): Promise<T> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const answer = await poll();
    if (answer !== undefined) return answer;
    await sleep(everyMs);
  }
  throw new Error('Gave up waiting.');
}

/** A request's id from the Location header of its 201 (`/api/v1.0/request/{id}/any`). */
const requestIdOf = (response: Response) =>
  /\/request\/([^/]+)\/any$/.exec(response.headers.get('location') ?? '')?.[1];

async function main() {
  // 1. Validate an address (AVS).
  const validation = await api.call('post', '/api/avs/validate', {
    body: { address: '12 Long Street, Cape Town, 8001' },
  });
  const { verdict, formatted_address, location } = validation.result;
  console.log(`validated: ${verdict} — ${formatted_address ?? 'no match'}`);
  if (!location) throw new Error('The address has no point: nothing to report on.');

  // 2. Order an IRiS report: an IRIS request at the point, its risk report, the PDF.
  const iris = await api.fetchRaw('put', '/api/v1.0/request/', {
    body: {
      requestType: 'IRIS',
      Searched_For: formatted_address ?? undefined,
      coordinates: location,
    },
    // A retry with the same key answers the same request instead of logging a second one.
    headers: { 'idempotency-key': `iris-${Date.now()}` },
  });
  const irisRequestId = requestIdOf(iris);
  if (!irisRequestId) throw new Error('No Location in the answer.');
  const created = await api.call('put', '/api/v1.0/iris', { body: { requestId: irisRequestId } });
  const reportId = created.report._id;
  // The imagery step (the IRiS screen's, while its user looks at the property): whether high-resolution
  // imagery covers the point (1: it does not), and the aerial picture the PDF shows — the portal's own
  // oblique of the point (the key needs the spatialkey service for it). Without it, generate answers 409
  // for the first 30 s and the PDF has no picture.
  await api.call('post', '/api/v1.0/iris/{reportId}/imagery/highres/{status}', {
    path: { reportId, status: 1 },
    body: { counts: { '0': 0, '1': 1, '2': 0 } },
  });
  const picture = await api.call('get', '/api/idanImageUrl', {
    query: { lat: location.lat, lng: location.lng, orientation: 'o' },
  });
  if (picture.url) {
    const headers = { authorization: `Bearer ${apiKey}` };
    const jpeg = await fetch(new URL(picture.url, baseUrl), { headers });
    const chosen = await fetch(new URL(`/api/v1.0/iris/${reportId}/aerial/o`, baseUrl), {
      method: 'POST',
      headers: { ...headers, 'content-type': 'image/jpeg' },
      body: Buffer.from(await jpeg.arrayBuffer()),
    });
    if (!chosen.ok) throw new Error(`The aerial picture was refused: ${chosen.status}`);
  }
  await api.call('get', '/api/v1.0/iris/{reportId}/{requestId}/pdf/generate', {
    path: { reportId, requestId: irisRequestId },
  });
  const pdfUrl = await until(async () => {
    const ready = await api.call('get', '/api/v1.0/iris/{reportId}/pdf/ready', { path: { reportId } });
    if (ready.state === 'failed') throw new Error(`The PDF failed: ${ready.error}`);
    return ready.pdfReady ? (ready.pdfUrl ?? undefined) : undefined;
  });
  const pdf = await api.fetchRaw('get', '/api/v1.0/iris/{reportId}/pdf/download', { path: { reportId } });
  await writeFile(`IRiS-${created.report.gripReference}.pdf`, Buffer.from(await pdf.arrayBuffer()));
  console.log(`IRiS report ${created.report.gripReference}: PDF saved (${pdfUrl})`);

  // 3. Log a SAVi request and follow it to delivery (the portal's operators do the report; a webhook
  //    endpoint of the group hears request.status_changed and report.ready instead of this poll).
  const savi = await api.fetchRaw('put', '/api/v1.0/request/', {
    body: {
      requestType: 'SAVI',
      requestSubType: 'Replacement Value Estimate',
      Searched_For: formatted_address ?? undefined,
      coordinates: location,
      reference: { Policy: 'POL-0001' },
    },
    headers: { 'idempotency-key': `savi-${Date.now()}` },
  });
  const saviId = requestIdOf(savi);
  if (!saviId) throw new Error('No Location in the answer.');
  console.log(`SAVi request ${savi.headers.get('x-grip-reference')} logged`);
  const delivered = await until(
    async () => {
      const request = await api.call('get', '/api/v1.0/request/{id}/any', { path: { id: saviId } });
      console.log(`  status: ${request.status}`);
      return request.status === 'Delivered' || request.status === 'Finalised' ? request : undefined;
    },
    60_000,
    24 * 60,
  );
  const report = await api.fetchRaw('get', '/api/v1.0/reportbuilder/savi/{requestID}/download', {
    path: { requestID: saviId },
  });
  await writeFile(`SAVi-${delivered.gripReference}.pdf`, Buffer.from(await report.arrayBuffer()));
  console.log(`SAVi request delivered: RVETotal ${delivered.RVETotal ?? 'n/a'}, report saved`);
}

main().catch((error: unknown) => {
  if (error instanceof PortalError)
    console.error(`${error.status}: ${error.message} (request id ${error.answer?.requestId ?? 'n/a'})`);
  else console.error(error);
  process.exitCode = 1;
});
