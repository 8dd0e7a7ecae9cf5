import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { demoAccount } from '../support/auth';
import { harness } from '../support/env';
import { groupIdOf, startWebhookReceiver, withKey } from '../support/machine';
import { locatedAddress, saviRequestForm } from '../support/requests';

/**
 * The portal without a browser (issue 22): what an insurer's system does with nothing but API keys,
 * through the gateway, as docs/api.md tells it. The group's admin makes the keys and a webhook endpoint
 * (the only calls made with a session); from then on every call carries `Authorization: Bearer ppk_…`:
 * the client's key logs a SAVi request and follows it, the operations team's staff keys move it through QS,
 * the report, QC and delivery, and the client downloads the PDF the server made on submit; an IRiS report
 * from creation to PDF. At each step a key with the wrong service or a read-only scope gets 403. The
 * webhook receiver (started here) checks each callback's Standard Webhooks signature.
 */

/** A request context with a session of a demo account (the admin who makes keys and endpoints). */
async function sessionOf(email: string): Promise<APIRequestContext> {
  const context = await playwrightRequest.newContext({ baseURL: harness().baseURL });
  const { password } = demoAccount(email);
  const login = await context.post('/api/v1.0/login', { data: { email, password } });
  expect(login.status(), await login.text()).toBe(200);
  return context;
}

async function createKey(
  admin: APIRequestContext,
  groupCode: string,
  body: { name: string; services: string[]; scope: 'read' | 'write'; roles?: string[] },
): Promise<APIRequestContext> {
  const answer = await admin.post(`/api/v1.0/group/${await groupIdOf(groupCode)}/api-keys`, { data: body });
  expect(answer.status(), await answer.text()).toBe(201);
  const { key } = (await answer.json()) as { key: string };
  expect(key).toMatch(/^ppk_[A-Za-z0-9_-]{43}$/);
  return withKey(key);
}

const expectRefused = async (
  answer: Promise<{ status(): number; text(): Promise<string> }>,
  step: string,
) => {
  const refused = await answer;
  expect(refused.status(), `${step}: ${await refused.text()}`).toBe(403);
};

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

test('a machine runs a SAVi request’s whole life with API keys, with signed callbacks', async () => {
  test.setTimeout(180_000);
  const admin = await sessionOf('admin@portal.test');
  const receiver = startWebhookReceiver<{ _id: string; status: string }>();
  const hookUrl = await receiver.listen();
  try {
    // The group's admin: keys for the insurer's system, the operations team's own automation, and a hook.
    const client = await createKey(admin, 'KMI', {
      name: 'policy system',
      services: ['avs', 'savi', 'iris'],
      scope: 'write',
    });
    const readOnly = await createKey(admin, 'KMI', {
      name: 'reporting',
      services: ['savi', 'avs'],
      scope: 'read',
    });
    const avsOnly = await createKey(admin, 'KMI', {
      name: 'address checks',
      services: ['avs'],
      scope: 'write',
    });
    const operator = await createKey(admin, 'OPS', {
      name: 'ops robot',
      services: ['savi'],
      scope: 'write',
      roles: ['saviOperator'],
    });
    const qc = await createKey(admin, 'OPS', {
      name: 'qc robot',
      services: ['savi'],
      scope: 'write',
      roles: ['saviOperator', 'saviQC'],
    });
    const endpoint = await admin.post(`/api/v1.0/group/${await groupIdOf('KMI')}/webhooks`, {
      data: { url: hookUrl, events: ['request.created', 'request.status_changed', 'report.ready'] },
    });
    expect(endpoint.status(), await endpoint.text()).toBe(201);
    receiver.useSecret(((await endpoint.json()) as { secret: string }).secret);

    // A key never reaches the accounts or the administration.
    await expectRefused(client.get('/api/v1.0/users/me'), 'users/me');
    await expectRefused(client.get('/api/v1.0/groups'), 'groups');

    // Validate the address, then log the request at its parcel.
    const point = await locatedAddress(41);
    const form = await saviRequestForm(avsOnly, point, 'KM424242');
    const validated = await client.post('/api/avs/validate', {
      data: { address: form.Searched_For },
    });
    expect(validated.status(), await validated.text()).toBe(200);
    // A read-only key reads (validation is a look-up); a key without avs may not.
    const readValidate = await readOnly.post('/api/avs/validate', {
      data: { address: form.Searched_For },
    });
    expect(readValidate.status(), await readValidate.text()).toBe(200);
    await expectRefused(
      operator.post('/api/avs/validate', { data: { address: 'x' } }),
      'validate without avs',
    );

    await expectRefused(readOnly.put('/api/v1.0/request/', { data: form }), 'create with a read-only key');
    await expectRefused(avsOnly.put('/api/v1.0/request/', { data: form }), 'create without savi');
    const created = await client.put('/api/v1.0/request/', { data: form });
    expect(created.status(), await created.text()).toBe(201);
    const id = created.headers()['location'].match(/\/request\/([^/]+)\/any/)![1];
    const status = async () =>
      ((await (await client.get(`/api/v1.0/request/${id}/any`)).json()) as { status: string }).status;
    expect(await status()).toBe('New');

    // QS, the spec's body (spec 02 §7.2); the client's key may not.
    const qsBody = { _id: id, status: 'Ready for QS', firstUser: 'ops robot', priority: false };
    await expectRefused(
      client.post('/api/v1.0/request/update_qs_checklist', { data: qsBody }),
      'QS by client',
    );
    const qs = await operator.post('/api/v1.0/request/update_qs_checklist', { data: qsBody });
    expect(qs.status(), await qs.text()).toBe(200);
    expect(await status()).toBe('Ready for QS');

    const start = await operator.post('/api/v1.0/request/update_status', {
      data: { _id: id, status: 'In progress' },
    });
    expect(start.status(), await start.text()).toBe(200);

    // The report: one dwelling of 180 m² at R 7 500 per m².
    const sections = {
      ID: id,
      sections: {
        main: {
          name: 'Main house',
          type: 'residential',
          includeImage: false,
          comment: '',
          marker: null,
          improvements: [],
          groups: [],
          buildings: [
            {
              name: 'Dwelling',
              improvements: [],
              category: 'buildings',
              type: 'dwelling',
              class: 'A-s',
              constructionType: 'Brick and Plaster',
              rate: 7500,
              unit: 'no',
              numberOfUnits: null,
              floors: [{ size: 180, doubleVolume: false, location: '' }],
              group: '',
              slope: false,
              slopePercentage: null,
              comment: '',
            },
          ],
        },
      },
    };
    await expectRefused(
      client.post('/api/v1.0/reportbuilder/section', { data: sections }),
      'report by client',
    );
    const saved = await operator.post('/api/v1.0/reportbuilder/section', { data: sections });
    expect(saved.status(), await saved.text()).toBe(200);

    // Submitting makes the server queue the PDF and set the RVE (spec 02 §4.4); nobody asks for the PDF.
    await expectRefused(
      readOnly.post('/api/v1.0/request/submit', { data: { _id: id, lat: point.lat, lng: point.lng } }),
      'submit with a read-only key',
    );
    const submitted = await operator.post('/api/v1.0/request/submit', {
      data: { _id: id, lat: point.lat, lng: point.lng },
    });
    expect(submitted.status(), await submitted.text()).toBe(200);
    expect(await status()).toBe('QC check');

    const qcBody = {
      _id: id,
      status: 'Dispatch',
      propertyType: 'RESIDENTIAL',
      numberOfBuildings: 1,
      price: 1750,
    };
    await expectRefused(
      operator.post('/api/v1.0/request/update_qc_checklist', { data: qcBody }),
      'QC approval without saviQC',
    );
    const approved = await qc.post('/api/v1.0/request/update_qc_checklist', { data: qcBody });
    expect(approved.status(), await approved.text()).toBe(200);
    expect(await status()).toBe('Dispatch');

    const delivered = await operator.post('/api/v1.0/request/all_to_delivered', { data: { ids: [id] } });
    expect(delivered.status(), await delivered.text()).toBe(200);
    const row = (await (await client.get(`/api/v1.0/request/${id}/any`)).json()) as {
      status: string;
      RVETotal?: number;
    };
    expect(row.status).toBe('Delivered');
    expect(row.RVETotal).toBeGreaterThan(0);

    // The PDF the server made on submit: ready by now or shortly, and the client's to download.
    await until('the SAVi PDF', async () => {
      const ready = await client.get(`/api/v1.0/reportbuilder/report/${id}/pdf/ready`);
      const answer = (await ready.json()) as { state?: string; ready?: boolean };
      return answer.state === 'done' || answer.ready === true ? answer : undefined;
    });
    await expectRefused(avsOnly.get(`/api/v1.0/reportbuilder/savi/${id}/download`), 'PDF without savi');
    const pdf = await client.get(`/api/v1.0/reportbuilder/savi/${id}/download`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

    // The callbacks: created, each status change, the report — each signed, each once.
    const expected = ['Ready for QS', 'In progress', 'QC check', 'Dispatch', 'Delivered'];
    const events = await until('the webhooks', async () => {
      const mine = receiver.received.filter((event) => event.data._id === id);
      const statuses = mine
        .filter((event) => event.type === 'request.status_changed')
        .map((e) => e.data.status);
      const done =
        mine.some((event) => event.type === 'request.created') &&
        mine.some((event) => event.type === 'report.ready') &&
        expected.every((one) => statuses.includes(one));
      return done ? mine : undefined;
    });
    expect(receiver.problems).toEqual([]);
    expect(events.filter((event) => event.type === 'request.created')).toHaveLength(1);
  } finally {
    await receiver.close();
  }
});

test('a machine orders an IRiS report and downloads its PDF with a key; other keys are refused', async () => {
  test.setTimeout(180_000);
  const admin = await sessionOf('admin@portal.test');
  const client = await createKey(admin, 'KMI', {
    name: 'quotes',
    services: ['iris', 'spatialkey'],
    scope: 'write',
  });
  const noIris = await createKey(admin, 'KMI', { name: 'no iris', services: ['savi'], scope: 'write' });
  const readOnly = await createKey(admin, 'KMI', { name: 'iris reader', services: ['iris'], scope: 'read' });

  const point = await locatedAddress(43);
  const requestForm = {
    requestType: 'IRIS',
    requestSubType: null,
    Searched_For: `${point.lat}, ${point.lng}`,
    mode: 'gps',
    coordinates: { lat: point.lat, lng: point.lng },
    parcel: null,
    reference: { POLICY_NUMBER: 'KM434343' },
  };
  const logged = await client.put('/api/v1.0/request/', { data: requestForm });
  expect(logged.status(), await logged.text()).toBe(201);
  const requestId = logged.headers()['location'].match(/\/request\/([^/]+)\/any/)![1];

  await expectRefused(noIris.put('/api/v1.0/iris', { data: { requestId } }), 'IRiS without iris');
  await expectRefused(readOnly.put('/api/v1.0/iris', { data: { requestId } }), 'IRiS read-only');
  const created = await client.put('/api/v1.0/iris', { data: { requestId } });
  expect(created.status(), await created.text()).toBe(201);
  const reportId = ((await created.json()) as { report: { _id: string } }).report._id;

  // The imagery step a screen does: the high-resolution status, and the aerial picture chosen.
  const highres = await client.post(`/api/v1.0/iris/${reportId}/imagery/highres/1`, {
    data: { counts: { 0: 0, 1: 1, 2: 0 } },
  });
  expect(highres.status(), await highres.text()).toBe(200);
  const picture = await client.get(`/api/idanImageUrl?lat=${point.lat}&lng=${point.lng}&orientation=o`);
  expect(picture.status(), await picture.text()).toBe(200);
  const { url } = (await picture.json()) as { url: string };
  const jpeg = await client.get(url);
  expect(jpeg.status()).toBe(200);
  const aerial = await client.post(`/api/v1.0/iris/${reportId}/aerial/o`, {
    data: await jpeg.body(),
    headers: { 'content-type': 'image/jpeg' },
  });
  expect(aerial.status(), await aerial.text()).toBe(200);

  await expectRefused(
    readOnly.get(`/api/v1.0/iris/${reportId}/${requestId}/pdf/generate`),
    'generate with a read-only key',
  );
  const generate = await client.get(`/api/v1.0/iris/${reportId}/${requestId}/pdf/generate`);
  expect(generate.status(), await generate.text()).toBe(200);
  await until('the IRiS PDF', async () => {
    const ready = (await (await client.get(`/api/v1.0/iris/${reportId}/pdf/ready`)).json()) as {
      state: string;
    };
    if (ready.state === 'failed') throw new Error('the IRiS PDF failed');
    return ready.state === 'done' ? ready : undefined;
  });
  await expectRefused(noIris.get(`/api/v1.0/iris/${reportId}/pdf/download`), 'download without iris');
  const pdf = await client.get(`/api/v1.0/iris/${reportId}/pdf/download`);
  expect(pdf.status()).toBe(200);
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
});
