import { randomUUID } from 'node:crypto';
import { requestCreatedChannel, type RequestCreatedEvent, type RequestForm } from '@portal/contracts';
import { GroupEntity, UserEntity } from '@portal/db';
import { createRedis } from '@portal/server-kit';
import { CLAIMS, PLAIN, RATES, env, redisUrl, useRequestsApp, userByEmail } from '../testing/harness';
import { countRows, create, idFrom, rowOf, rveForm, square } from '../testing/requestForms';

// Request creation (PUT /api/v1.0/request/, spec 01 §7) on a throwaway seeded database and the real Redis:
// the form as the request tool and the can't-locate screen send it, references, idempotency and the
// request-created event.

/** A user of Highveld Valuers, whose group has savi and iris but not avs. */
const HVV_USER = 'valuer@hvv.test';

useRequestsApp({
  seed: async (db) => {
    const hvv = await db.dataSource.getRepository(GroupEntity).findOneByOrFail({ code: 'HVV' });
    await db.dataSource.getRepository(UserEntity).insert({
      name: 'Karin Smit',
      email: HVV_USER,
      passwordHash: 'not-a-hash',
      groupId: hvv.id,
    });
  },
});

describe('PUT /api/v1.0/request/', () => {
  it("writes the request with every field and answers 'created' with its id and GRiP reference", async () => {
    const before = await countRows();
    const answer = await create(PLAIN, rveForm());
    expect(answer.statusCode).toBe(201);
    expect(answer.body).toBe('created');
    expect(answer.headers['content-type']).toMatch(/^text\/plain/);
    expect(answer.headers.location).toMatch(/^\/api\/v1\.0\/request\/[0-9a-f-]{36}\/any$/);
    const grip = answer.headers['x-grip-reference'];
    expect(grip).toMatch(/^GRP-\d{4}-\d{6}$/);
    expect(await countRows()).toBe(before + 1);

    const user = await userByEmail(PLAIN);
    const row = await rowOf(idFrom(answer.headers.location));
    expect(row).toMatchObject({
      grip_reference: grip,
      request_type: 'SAVI',
      request_sub_type: 'Replacement Value Estimate',
      status: 'New',
      user_id: user.id,
      user_name: 'Johan Botha',
      user_email: PLAIN,
      group_id: user.groupId,
      group_name: 'Karoo Mutual Insurance',
      group_code: 'KMI',
      for_group_id: user.groupId,
      claims_user: false,
      address: '12 Church Street, Stellenbosch Central, Stellenbosch, 7600',
      searched_for: '12 Church Street Stellenbosch',
      mode: 'address',
      lat: -33.9321,
      lng: 18.8602,
      x: 18.8602,
      y: -33.9321,
      coordinate_array: [-33.9321, 18.8602],
      cant_locate: false,
      map_view: { lat: -33.9321, lng: 18.8602, zoom: 18 },
      reference: { POLICY_NUMBER: 'KM123456', BROKER_NAME: 'Acme Brokers' },
      reference_string: JSON.stringify({ POLICY_NUMBER: 'KM123456', BROKER_NAME: 'Acme Brokers' }),
      additional: 'Gate code 1234',
      needs_update: false,
      parcel_id: '9001',
      parcel_type: 'MULTIPOLYGON',
      parcel_srid: 4326,
      used_idan: true,
      image_urls: { n: '/api/imagery/images/n.jpg', e: null, s: '/api/imagery/images/s.jpg', o: '/o.jpg' },
      query: '12 CHURCH STREET STELLENBOSCH',
      priority: false,
      report_pdf_url: null,
      report_id: null,
      date_finalised: null,
      rve_total: null,
      property_type: null,
      idempotency_key: null,
    });
    expect(row.selected).toMatchObject({
      suburb: 'Stellenbosch Central',
      streetcode: '7600',
      boxcode: '7599',
    });
    expect(row.selected_address).toMatchObject({ id: '42', type: 'address' });
    expect(row.alternative_addresses).toEqual([
      '12A Church Street, Stellenbosch Central, Stellenbosch, 7600',
    ]);
    expect(row.parcel).toEqual({
      id: '9001',
      formatted_address: '12 Church Street, Stellenbosch Central, Stellenbosch, 7600',
      addresses: [{ id: '42', short_formatted_address: '12 Church Street' }],
    });
    expect(Date.now() - new Date(row.created_at).getTime()).toBeLessThan(60_000);
  });

  it('numbers GRiP references in order, unique', async () => {
    const grips: string[] = [];
    for (let i = 0; i < 3; i++)
      grips.push(String((await create(PLAIN, rveForm())).headers['x-grip-reference']));
    expect(new Set(grips).size).toBe(3);
    expect([...grips].sort()).toEqual(grips);
  });

  it('takes the form as the request tool builds it (locator result items and parcels as answered)', async () => {
    const lat = -33.9321;
    const lng = 18.8602;
    const item = {
      id: '42',
      type: 'address',
      formatted_address: '12 Church Street, Stellenbosch Central, Stellenbosch, 7600',
      short_formatted_address: '12 Church Street',
      location: { lat, lng },
      confidence: 0.97,
      parcelId: '9001',
      suburb: 'Stellenbosch Central',
      town: 'Stellenbosch',
      postalCode: '7600',
    };
    const parcel = {
      id: '9001',
      formatted_address: item.formatted_address,
      addresses: [{ id: '42', short_formatted_address: '12 Church Street' }],
      geometry: { type: 'MultiPolygon', coordinates: [square(lat, lng).coordinates] },
      parcelNumber: '1234',
      portion: 0,
      sgKey: null,
      parcelTypeId: 1,
      dataQualityId: 60,
    };
    const answer = await create(PLAIN, {
      Searched_For: '12 Church Street Stellenbosch',
      mode: 'address',
      Selected_Address: item.formatted_address,
      Alternative_Addresses: [],
      coordinates: { lat, lng },
      coordinateArray: [lat, lng],
      cantlocate: false,
      geojson: parcel.geometry,
      map: { lat, lng },
      requestType: 'SAVI',
      requestSubType: 'Building Size Calculation',
      reference: { POLICY_NUMBER: 'KM123456' },
      referenceString: '{"POLICY_NUMBER":"KM123456"}',
      additional: '',
      type: 'SAVI',
      needsUpdate: false,
      selected: item,
      parcel,
      query: '12 CHURCH STREET STELLENBOSCH',
      usedIdan: false,
      imageUrls: {},
      comments: '',
    });
    expect(answer.statusCode).toBe(201);
    const row = await rowOf(idFrom(answer.headers.location));
    expect(row).toMatchObject({
      address: item.formatted_address,
      selected: { id: '42', suburb: 'Stellenbosch Central', confidence: 0.97 },
      parcel: { id: '9001', sgKey: null, parcelNumber: '1234' },
      parcel_type: 'MULTIPOLYGON',
      geojson: { type: 'MultiPolygon' },
      form_type: 'SAVI',
    });

    const cantLocate = await create(PLAIN, {
      requestType: 'SAVI',
      requestSubType: "Can't Locate",
      mode: 'cantlocate',
      Searched_For: '',
      Selected_Address: '',
      coordinates: { lat, lng },
      cantlocate: true,
      reference: { POLICY_NUMBER: 'KM123456' },
    });
    expect(cantLocate.statusCode).toBe(201);
  });

  it('takes a detailed parcel outline beyond the default 1 MB body limit', async () => {
    const lat = -33.95;
    const lng = 18.86;
    // A circle of 60 000 vertices: about 2.3 MB of GeoJSON.
    const ring = Array.from({ length: 60_000 }, (_, i) => {
      const angle = (2 * Math.PI * i) / 60_000;
      return [lng + 0.01 * Math.cos(angle), lat + 0.01 * Math.sin(angle)];
    });
    ring.push(ring[0]);
    const answer = await create(
      PLAIN,
      rveForm({ parcel: { id: '77', geometry: { type: 'Polygon', coordinates: [ring] } } }),
    );
    expect(answer.statusCode).toBe(201);
    const [row] = await env.db.dataSource.query(
      'SELECT ST_NPoints(parcel_geom) AS points FROM requests.requests WHERE id = $1',
      [idFrom(answer.headers.location)],
    );
    expect(row.points).toBe(60_001);
  });

  it('makes a SAVI request without a subtype a Report (the earlier reading)', async () => {
    const answer = await create(PLAIN, rveForm({ requestSubType: undefined }));
    expect(answer.statusCode).toBe(201);
    expect((await rowOf(idFrom(answer.headers.location))).request_sub_type).toBe('Report');
  });

  it('refuses wrong type and subtype combinations', async () => {
    for (const [requestType, requestSubType, message] of [
      [
        'IRIS',
        'Replacement Value Estimate',
        "A IRIS request cannot have the subtype 'Replacement Value Estimate'.",
      ],
      [
        'AVS',
        'Building Size Calculation',
        "A AVS request cannot have the subtype 'Building Size Calculation'.",
      ],
    ] as const) {
      const answer = await create(PLAIN, rveForm({ requestType, requestSubType }));
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toBe(message);
    }
  });

  it('refuses unknown types, subtypes and malformed fields, listing every problem', async () => {
    const answer = await create(PLAIN, {
      ...rveForm(),
      requestType: 'VALUATION',
      coordinates: { lat: 'south', lng: 18.8 },
      imageUrls: { n: 5 },
    });
    expect(answer.statusCode).toBe(400);
    const { messages } = answer.json();
    expect(messages.length).toBeGreaterThanOrEqual(3);
    expect(messages.join('\n')).toMatch(/requestType/);
    expect(messages.join('\n')).toMatch(/coordinates\/lat/);
  });

  it('needs coordinates, inside South Africa, unless the property could not be located', async () => {
    const missing = await create(PLAIN, rveForm({ coordinates: undefined }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().messages).toEqual(['The location (coordinates) of the property is required.']);

    const london = await create(PLAIN, rveForm({ coordinates: { lat: 51.5, lng: -0.12 } }));
    expect(london.statusCode).toBe(400);
    expect(london.json().messages).toEqual(['The location 51.5, -0.12 is outside South Africa.']);
  });

  it('collects form problems together for the form to show', async () => {
    const answer = await create(
      PLAIN,
      rveForm({ coordinates: null, cantlocate: true, reference: { BROKER_NAME: 'x' } }),
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      messages: [
        "cantlocate may only be set on a Can't Locate request.",
        'The location (coordinates) of the property is required.',
        'Policy number must be two letters followed by six digits, e.g. KM123456',
      ],
    });
  });

  it('refuses a parcel outline that is not a closed polygon', async () => {
    const open = square(-33.9, 18.8);
    open.coordinates[0].pop();
    for (const geometry of [open, { type: 'Point', coordinates: [18.8, -33.9] }]) {
      const parcel = { id: '1', geometry };
      const answer = await create(PLAIN, rveForm({ parcel }));
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toBe(
        'The parcel geometry must be a GeoJSON Polygon or MultiPolygon of closed rings.',
      );
    }
  });

  it("refuses a request type whose service is not active for the user's account", async () => {
    const answer = await create(HVV_USER, {
      requestType: 'AVS',
      query: '12 Church Street',
      reference: { VALUATION_REFERENCE: 'HV-12345' },
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toBe('The avs service is not active for your account.');
  });
});

describe('references', () => {
  const withReference = (reference: RequestForm['reference']) => rveForm({ reference });

  it("checks a required reference against its pattern with the group's own message", async () => {
    for (const reference of [{}, { POLICY_NUMBER: '   ' }, { POLICY_NUMBER: 'KM12' }] as Record<
      string,
      string
    >[]) {
      const answer = await create(PLAIN, withReference(reference));
      expect(answer.statusCode).toBe(400);
      expect(answer.json().messages).toEqual([
        'Policy number must be two letters followed by six digits, e.g. KM123456',
      ]);
    }
  });

  it('leaves optional references optional and keeps only what was filled in', async () => {
    const answer = await create(PLAIN, withReference({ POLICY_NUMBER: ' KM654321 ', BROKER_NAME: '' }));
    expect(answer.statusCode).toBe(201);
    expect((await rowOf(idFrom(answer.headers.location))).reference).toEqual({ POLICY_NUMBER: 'KM654321' });
  });

  it('refuses hidden and unknown references', async () => {
    const answer = await create(
      PLAIN,
      withReference({ POLICY_NUMBER: 'KM123456', UNDERWRITING_BATCH: 'B7', NOT_A_REFERENCE: 'x' }),
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.json().messages).toEqual([
      "'UNDERWRITING_BATCH' is not a reference of your group.",
      "'NOT_A_REFERENCE' is not a reference of your group.",
    ]);
  });

  it('takes a plain text reference as the first reference', async () => {
    const answer = await create(PLAIN, withReference('KM111222'));
    expect(answer.statusCode).toBe(201);
    expect((await rowOf(idFrom(answer.headers.location))).reference).toEqual({ POLICY_NUMBER: 'KM111222' });
    expect((await create(PLAIN, withReference('nope'))).json().messages).toEqual([
      'Policy number must be two letters followed by six digits, e.g. KM123456',
    ]);
  });

  it("checks a claims user's form against the group's claims references", async () => {
    const policy = await create(CLAIMS, withReference({ POLICY_NUMBER: 'KM123456' }));
    expect(policy.statusCode).toBe(400);
    expect(policy.json().messages).toEqual([
      "'POLICY_NUMBER' is not a reference of your group.",
      'Claim number must look like CLM123456',
    ]);

    const claim = await create(CLAIMS, withReference({ CLAIM_NUMBER: 'CLM000777' }));
    expect(claim.statusCode).toBe(201);
    const row = await rowOf(idFrom(claim.headers.location));
    expect(row).toMatchObject({ claims_user: true, reference: { CLAIM_NUMBER: 'CLM000777' } });
  });
});

describe('idempotency', () => {
  it('writes a retried submission once and answers created again', async () => {
    const key = randomUUID();
    const before = await countRows();
    const first = await create(PLAIN, rveForm(), { 'idempotency-key': key });
    const retry = await create(PLAIN, rveForm(), { 'idempotency-key': key });
    expect([first.statusCode, first.body, retry.statusCode, retry.body]).toEqual([
      201,
      'created',
      201,
      'created',
    ]);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['x-grip-reference']).toBe(first.headers['x-grip-reference']);
    expect(retry.headers.location).toBe(first.headers.location);
    expect(await countRows()).toBe(before + 1);
  });

  it('takes the key from the form too, and writes once under concurrent retries', async () => {
    const form = rveForm({ idempotencyKey: randomUUID() });
    const before = await countRows();
    const answers = await Promise.all([1, 2, 3, 4].map(() => create(PLAIN, form)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.headers['x-grip-reference'])).size).toBe(1);
    expect(await countRows()).toBe(before + 1);
  });

  it('keeps keys apart per user and refuses a key reused for a different request', async () => {
    const key = randomUUID();
    const mine = await create(PLAIN, rveForm(), { 'idempotency-key': key });
    const theirs = await create(RATES, rveForm(), { 'idempotency-key': key });
    expect([mine.statusCode, theirs.statusCode]).toEqual([201, 201]);
    expect(theirs.headers['x-grip-reference']).not.toBe(mine.headers['x-grip-reference']);

    const other = await create(PLAIN, rveForm({ additional: 'Another house' }), { 'idempotency-key': key });
    expect(other.statusCode).toBe(409);
    expect(other.json().message).toMatch(/already used for a different request/);
  });

  it('refuses a malformed key', async () => {
    const answer = await create(PLAIN, rveForm(), { 'idempotency-key': 'short' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toBe('The Idempotency-Key header must be 8 to 200 visible characters.');
  });
});

describe("Can't Locate", () => {
  it('needs no coordinates or address from the request tool (SAVI) or the can’t-locate screen (AVS)', async () => {
    const fromTool = await create(PLAIN, {
      requestType: 'SAVI',
      requestSubType: "Can't Locate",
      Searched_For: 'Plot 7 Vlakfontein',
      cantlocate: true,
      reference: { POLICY_NUMBER: 'KM123456' },
    });
    expect(fromTool.statusCode).toBe(201);
    expect(await rowOf(idFrom(fromTool.headers.location))).toMatchObject({
      request_type: 'SAVI',
      request_sub_type: "Can't Locate",
      cant_locate: true,
      lat: null,
      point: null,
      address: 'Plot 7 Vlakfontein',
    });

    const fromAvs = await create(PLAIN, {
      requestType: 'AVS',
      requestSubType: "Can't Locate",
      query: 'PLOT 7 VLAKFONTEIN',
      additional: 'Near the dam',
      reference: { POLICY_NUMBER: 'KM123456' },
    });
    expect(fromAvs.statusCode).toBe(201);
    expect(await rowOf(idFrom(fromAvs.headers.location))).toMatchObject({
      request_type: 'AVS',
      request_sub_type: "Can't Locate",
      cant_locate: true,
      query: 'PLOT 7 VLAKFONTEIN',
    });
  });

  it('needs something that describes the property', async () => {
    const answer = await create(PLAIN, {
      requestType: 'AVS',
      requestSubType: "Can't Locate",
      reference: { POLICY_NUMBER: 'KM123456' },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().messages).toEqual([
      "A Can't Locate request needs a description of the property: what was searched for, the address, a comment or a location.",
    ]);
  });
});

describe('request-created event', () => {
  it('is published on Redis after the request is written, once per request', async () => {
    const subscriber = createRedis(redisUrl, 'requests-test-subscriber');
    const events: RequestCreatedEvent[] = [];
    try {
      await subscriber.subscribe(requestCreatedChannel('portal'));
      subscriber.on('message', (_channel, message) => events.push(JSON.parse(message)));
      const key = randomUUID();
      const answer = await create(PLAIN, rveForm(), { 'idempotency-key': key });
      await create(PLAIN, rveForm(), { 'idempotency-key': key });
      const id = idFrom(answer.headers.location);
      for (let waited = 0; waited < 2000 && !events.some((event) => event.id === id); waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      const mine = events.filter((event) => event.id === id);
      const user = await userByEmail(PLAIN);
      const row = await rowOf(id);
      expect(mine).toEqual([
        {
          id,
          gripReference: answer.headers['x-grip-reference'],
          requestType: 'SAVI',
          requestSubType: 'Replacement Value Estimate',
          status: 'New',
          userId: user.id,
          groupId: user.groupId,
          createdAt: new Date(row.created_at).toISOString(),
        },
      ]);
    } finally {
      await subscriber.quit();
    }
  });
});
