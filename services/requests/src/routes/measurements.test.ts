// Over 500 lines on purpose: every case of one route family (a request's measurements) against one throwaway
// database and its two surveys; split, each part would repeat that set-up.
import { randomUUID } from 'node:crypto';
import {
  MAX_MEASUREMENT_VERTICES,
  MEASUREMENT_API,
  type Measurement,
  type MeasurementInput,
} from '@portal/contracts';
import { ROUTE_REFUSALS, builtinCamera, pictureOffsetOfHeight } from '@portal/domain';
import { OPERATOR, PLAIN, QC, RATES, call, env, useRequestsApp, userByEmail } from '../testing/harness';
import { countRows, create, idFrom, rveForm } from '../testing/requestForms';

// A request's measurements (issue 21) on a throwaway seeded database with two surveys of our own: the
// figures against PostGIS geography computed here independently, heights from oblique picks, who may
// read and write, every bad input (a 400 that says why, nothing saved), and measurements sent with a new
// request, written in its transaction.

/** The request forms' point (Stellenbosch, requestForms.ts). */
const LAT = -33.9321;
const LNG = 18.8602;

/** A square of side 2d degrees around a point, as WKT (the surveys' coverage). */
const squareWkt = (lat: number, lng: number, d: number) =>
  `MULTIPOLYGON(((${lng - d} ${lat - d}, ${lng + d} ${lat - d}, ${lng + d} ${lat + d}, ${lng - d} ${lat + d}, ${lng - d} ${lat - d})))`;

const surveys = { stellenbosch: 0, elsewhere: 0 };

useRequestsApp({
  seed: async (db) => {
    const insert = async (name: string, capturedOn: string, wkt: string, sourceId: string) =>
      Number(
        (
          await db.dataSource.query(
            `INSERT INTO geo.imagery_coverage (kind, name, captured_on, geom, source, source_id, provider)
             VALUES ('high_resolution', $1, $2, ST_GeomFromText($3, 4326), 'test', $4, 'Test imagery')
             RETURNING id`,
            [name, capturedOn, wkt, sourceId],
          )
        )[0].id,
      );
    surveys.stellenbosch = await insert('Stellenbosch flight', '2025-11-14', squareWkt(LAT, LNG, 0.01), 's1');
    surveys.elsewhere = await insert('Paarl flight', '2019-05-02', squareWkt(-33.73, 18.97, 0.005), 's2');
  },
});

/** A house-sized outline near the point: [lng, lat] pairs, not closed. */
const HOUSE: [number, number][] = [
  [LNG - 0.0001, LAT - 0.00008],
  [LNG + 0.00012, LAT - 0.00008],
  [LNG + 0.00012, LAT + 0.00005],
  [LNG + 0.00002, LAT + 0.00009],
  [LNG - 0.0001, LAT + 0.00005],
];

const area = (overrides: Partial<MeasurementInput> = {}): MeasurementInput => ({
  kind: 'area',
  surveyId: surveys.stellenbosch,
  geometry: { type: 'Polygon', coordinates: [HOUSE] },
  label: 'Main house',
  ...overrides,
});

/** A line; its positions may be anything, for the bad-input cases. */
const line = (kind: 'distance' | 'length', coordinates: unknown[][]): MeasurementInput => ({
  kind,
  surveyId: surveys.stellenbosch,
  geometry: { type: 'LineString', coordinates: coordinates as number[][] },
});

const POSITION = 'Every position is two numbers, [longitude, latitude], within ±180 and ±90.';

const CAMERA = builtinCamera('n', 1000, 750);

/** A wall's height read off the north oblique: base and top picked heightM apart (the camera's model). */
const height = (heightM: number, overrides: Partial<MeasurementInput> = {}): MeasurementInput => ({
  kind: 'height',
  surveyId: surveys.stellenbosch,
  geometry: { type: 'Point', coordinates: [LNG, LAT] },
  oblique: { camera: CAMERA, base: [480, 600], top: [482, 600 - pictureOffsetOfHeight(CAMERA, heightM)] },
  ...overrides,
});

const wkt = (positions: number[][]) => positions.map(([x, y]) => `${x} ${y}`).join(', ');

/** PostGIS's own figures for a ring or a line, from WKT (not the service's GeoJSON path). */
async function postgis(sql: string, text: string): Promise<number> {
  const [row] = (await env.db.dataSource.query(
    `SELECT ${sql} AS v FROM (SELECT ST_GeomFromText($1, 4326) AS g) x`,
    [text],
  )) as { v: number }[];
  return row.v;
}

const measurementCount = async () =>
  Number((await env.db.dataSource.query('SELECT count(*) FROM requests.measurements'))[0].count);

const post = (email: string, requestId: string, body: unknown) =>
  call(email, 'POST', MEASUREMENT_API.list(requestId), body as object);

let requestId: string;
beforeAll(async () => {
  const answer = await create(PLAIN, rveForm());
  expect(answer.statusCode).toBe(201);
  requestId = idFrom(answer.headers.location);
});

describe('POST /api/v1.0/request/{id}/measurements', () => {
  it('measures an area and its perimeter on the spheroid, as PostGIS geography does, and keeps who and when', async () => {
    const answer = await post(OPERATOR, requestId, area());
    expect(answer.statusCode).toBe(201);
    const { success, measurement } = answer.json() as { success: boolean; measurement: Measurement };
    const ring = wkt([...HOUSE, HOUSE[0]]);
    const areaM2 = await postgis('ST_Area(g::geography)', `POLYGON((${ring}))`);
    const perimeterM = await postgis('ST_Perimeter(g::geography)', `POLYGON((${ring}))`);
    const operator = await userByEmail(OPERATOR);
    expect(success).toBe(true);
    expect(measurement).toMatchObject({
      requestId,
      kind: 'area',
      label: 'Main house',
      surveyId: surveys.stellenbosch,
      capturedOn: '2025-11-14',
      unit: 'm²',
      oblique: null,
      createdBy: { id: operator.id, email: OPERATOR },
    });
    expect(measurement.value).toBeCloseTo(areaM2, 6);
    expect(measurement.perimeterM).toBeCloseTo(perimeterM, 6);
    // A house: a few hundred square metres (a guard against a figure in square degrees).
    expect(areaM2).toBeGreaterThan(200);
    expect(areaM2).toBeLessThan(400);
    // The ring is stored closed.
    expect(measurement.geometry).toMatchObject({ type: 'Polygon' });
    const stored = (measurement.geometry as { coordinates: number[][][] }).coordinates[0];
    expect(stored).toHaveLength(HOUSE.length + 1);
    expect(stored[0]).toEqual(stored[stored.length - 1]);
  });

  it('measures a distance and a polyline length as ST_Length(geography)', async () => {
    const ends = [HOUSE[0], HOUSE[2]];
    const distance = await post(QC, requestId, line('distance', ends));
    expect(distance.statusCode).toBe(201);
    expect(distance.json().measurement).toMatchObject({ kind: 'distance', unit: 'm', perimeterM: null });
    expect(distance.json().measurement.value).toBeCloseTo(
      await postgis('ST_Length(g::geography)', `LINESTRING(${wkt(ends)})`),
      6,
    );
    const length = await post(OPERATOR, requestId, line('length', HOUSE));
    expect(length.statusCode).toBe(201);
    expect(length.json().measurement.value).toBeCloseTo(
      await postgis('ST_Length(g::geography)', `LINESTRING(${wkt(HOUSE)})`),
      6,
    );
  });

  it('reads a height off the oblique picks with the camera model, and keeps the picks', async () => {
    const answer = await post(OPERATOR, requestId, height(6.4, { label: 'Gable' }));
    expect(answer.statusCode).toBe(201);
    const measurement: Measurement = answer.json().measurement;
    expect(measurement).toMatchObject({
      kind: 'height',
      unit: 'm',
      label: 'Gable',
      capturedOn: '2025-11-14',
    });
    expect(measurement.value).toBeCloseTo(6.4, 2);
    expect(measurement.oblique).toEqual(height(6.4).oblique);
    expect(measurement.geometry).toEqual({ type: 'Point', coordinates: [LNG, LAT] });
  });

  it('refuses the requester (staff write): the gate’s 403', async () => {
    const before = await measurementCount();
    const answer = await post(PLAIN, requestId, area());
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toBe(ROUTE_REFUSALS.requestStaff);
    expect(await measurementCount()).toBe(before);
  });

  it('answers 404 for a request that does not exist, 400 for an id that is no UUID', async () => {
    expect((await post(OPERATOR, randomUUID(), area())).statusCode).toBe(404);
    expect((await post(OPERATOR, 'GRP-1', area())).statusCode).toBe(400);
  });
});

describe('bad measurements: a 400 that says why, nothing saved', () => {
  /** [what, body, the message (or a part of it)] */
  const bowTie = [
    [LNG - 0.0001, LAT - 0.0001],
    [LNG + 0.0001, LAT + 0.0001],
    [LNG + 0.0001, LAT - 0.0001],
    [LNG - 0.0001, LAT + 0.0001],
  ];
  const ringOf = (count: number) =>
    Array.from({ length: count }, (_, i) => {
      const angle = (2 * Math.PI * i) / count;
      return [LNG + 0.0002 * Math.cos(angle), LAT + 0.0002 * Math.sin(angle)];
    });
  const cases: [string, () => unknown, string | RegExp][] = [
    [
      'a polygon that crosses itself',
      () => area({ geometry: { type: 'Polygon', coordinates: [bowTie] } }),
      'The outline crosses itself.',
    ],
    [
      `more than ${MAX_MEASUREMENT_VERTICES} vertices (an outline)`,
      () => area({ geometry: { type: 'Polygon', coordinates: [ringOf(MAX_MEASUREMENT_VERTICES + 1)] } }),
      `A measurement may have at most ${MAX_MEASUREMENT_VERTICES} vertices; this one has ${MAX_MEASUREMENT_VERTICES + 1}.`,
    ],
    [
      `more than ${MAX_MEASUREMENT_VERTICES} vertices (a line)`,
      () => line('length', ringOf(MAX_MEASUREMENT_VERTICES + 1)),
      `A measurement may have at most ${MAX_MEASUREMENT_VERTICES} vertices; this one has ${MAX_MEASUREMENT_VERTICES + 1}.`,
    ],
    [
      'an outline of fewer than 3 corners',
      () => area({ geometry: { type: 'Polygon', coordinates: [[HOUSE[0], HOUSE[1], HOUSE[0]]] } }),
      'An outline needs at least 3 different corners.',
    ],
    [
      'an area traced as a line',
      () => area({ geometry: { type: 'LineString', coordinates: HOUSE } }),
      'An area is measured inside an outline: a Polygon.',
    ],
    [
      'a distance of 3 points',
      () => line('distance', HOUSE.slice(0, 3)),
      'A distance is measured between exactly 2 points: a LineString of 2 positions.',
    ],
    [
      'a length as a polygon',
      () => ({ ...area(), kind: 'length' }),
      'A length is measured along a line: a LineString.',
    ],
    ['a height without picks', () => ({ ...height(5), oblique: undefined }), /needs its picks/],
    ['a height on a polygon', () => ({ ...area(), kind: 'height', oblique: height(5).oblique }), /a Point/],
    ['picks on a non-height', () => ({ ...area(), oblique: height(5).oblique }), /Only a height carries/],
    [
      'a height whose top is not above its base',
      () => height(5, { oblique: { camera: CAMERA, base: [480, 300], top: [480, 500] } }),
      'The top must be above the base on the picture.',
    ],
    [
      'a height picked off the picture',
      () => height(5, { oblique: { camera: CAMERA, base: [480, 900], top: [480, 500] } }),
      /must lie on the picture \(1000 × 750 pixels\)/,
    ],
    [
      'a height on the ortho',
      () =>
        height(5, { oblique: { camera: builtinCamera('o', 1000, 750), base: [480, 600], top: [480, 500] } }),
      'Heights are read off an oblique picture, not the ortho.',
    ],
    ['a survey that does not exist', () => area({ surveyId: 999_999 }), 'There is no survey 999999.'],
    [
      'a survey that does not cover the measurement',
      () => area({ surveyId: surveys.elsewhere }),
      /^Survey \d+ \(Paarl flight\), captured on 2 May 2019, does not cover the whole measurement\.$/,
    ],
    [
      'an outline reaching out of the survey',
      () =>
        area({
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [LNG, LAT],
                [LNG + 0.02, LAT],
                [LNG + 0.02, LAT + 0.001],
                [LNG, LAT + 0.001],
              ],
            ],
          },
        }),
      /captured on 14 November 2025, does not cover the whole measurement/,
    ],
    ['a distance of one point twice', () => line('distance', [HOUSE[0], HOUSE[0]]), /has no length/],
    [
      'a latitude beyond 90°',
      () =>
        line('distance', [
          [LNG, LAT],
          [LNG, 95],
        ]),
      POSITION,
    ],
    [
      'non-numbers',
      () =>
        line('distance', [
          ['east', 'south'],
          [LNG, LAT],
        ]),
      POSITION,
    ],
    [
      "the text 'NaN'",
      () =>
        line('distance', [
          ['NaN', LAT],
          [LNG, LAT],
        ]),
      POSITION,
    ],
    [
      'a number as text',
      () =>
        line('distance', [
          ['18.86', LAT],
          [LNG, LAT],
        ]),
      POSITION,
    ],
    [
      'a null coordinate',
      () =>
        line('distance', [
          [null, LAT],
          [LNG, LAT],
        ]),
      POSITION,
    ],
    [
      'a point of three numbers',
      () => ({ ...height(5), geometry: { type: 'Point', coordinates: [LNG, LAT, 12] } }),
      POSITION,
    ],
    [
      'another GeoJSON type',
      () => ({ ...area(), geometry: { type: 'MultiPolygon', coordinates: [[HOUSE]] } }),
      "The geometry is a GeoJSON 'Point', 'LineString' or 'Polygon'.",
    ],
    [
      'a polygon of two rings',
      () => area({ geometry: { type: 'Polygon', coordinates: [HOUSE, HOUSE] } }),
      'An outline is one ring of at least 3 positions: coordinates [[[lng, lat], …]].',
    ],
    [
      'a line of one point',
      () => ({ ...line('length', HOUSE), geometry: { type: 'LineString', coordinates: [HOUSE[0]] } }),
      'A line is a list of at least 2 positions: coordinates [[lng, lat], …].',
    ],
    ['a survey id that is no number', () => area({ surveyId: 'first' as unknown as number }), /surveyId/],
    ['an unknown kind', () => ({ ...area(), kind: 'volume' }), /kind/],
  ];

  it.each(cases)('%s', async (_what, body, message) => {
    const before = await measurementCount();
    const answer = await post(OPERATOR, requestId, body());
    expect(answer.statusCode).toBe(400);
    const text: string = answer.json().message;
    if (typeof message === 'string') expect(text).toBe(message);
    else expect(text).toMatch(message);
    expect(await measurementCount()).toBe(before);
  });

  it.each(['NaN', 'Infinity'])('refuses a body with %s in it (not JSON)', async (word) => {
    const before = await measurementCount();
    const answer = await call(
      OPERATOR,
      'POST',
      MEASUREMENT_API.list(requestId),
      `{"kind":"distance","surveyId":${surveys.stellenbosch},"geometry":{"type":"LineString","coordinates":[[${word},${LAT}],[${LNG},${LAT}]]}}`,
      { 'content-type': 'application/json' },
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toBeTruthy();
    expect(await measurementCount()).toBe(before);
  });
});

describe('GET /api/v1.0/request/{id}/measurements', () => {
  it('lists them oldest first to the requester and to staff, with and without the trailing slash', async () => {
    const mine = await call(PLAIN, 'GET', MEASUREMENT_API.list(requestId));
    expect(mine.statusCode).toBe(200);
    const { success, measurements } = mine.json() as { success: boolean; measurements: Measurement[] };
    expect(success).toBe(true);
    expect(measurements.map((m) => m.kind)).toEqual(['area', 'distance', 'length', 'height']);
    const times = measurements.map((m) => m.createdAt);
    expect([...times].sort()).toEqual(times);
    const staff = await call(QC, 'GET', `${MEASUREMENT_API.list(requestId)}/`);
    expect(staff.statusCode).toBe(200);
    expect(staff.json().measurements).toEqual(measurements);
  });

  it('answers another user 404, as for a request that does not exist', async () => {
    const other = await call(RATES, 'GET', MEASUREMENT_API.list(requestId));
    expect(other.statusCode).toBe(404);
    const none = await call(RATES, 'GET', MEASUREMENT_API.list(randomUUID()));
    expect(none.statusCode).toBe(404);
    expect(other.json().message).toBe(none.json().message);
    expect((await call(PLAIN, 'GET', MEASUREMENT_API.list('not-an-id'))).statusCode).toBe(400);
  });

  it('answers 401 without a session', async () => {
    expect((await call(null, 'GET', MEASUREMENT_API.list(requestId))).statusCode).toBe(401);
  });
});

describe('DELETE /api/v1.0/request/{id}/measurements/{measurementId}', () => {
  it('deletes one measurement for staff; the requester is refused; a second delete is a 404', async () => {
    const created = await post(OPERATOR, requestId, line('distance', [HOUSE[1], HOUSE[3]]));
    const id: string = created.json().measurement.id;
    const refused = await call(PLAIN, 'DELETE', MEASUREMENT_API.one(requestId, id));
    expect(refused.statusCode).toBe(403);

    const deleted = await call(OPERATOR, 'DELETE', `${MEASUREMENT_API.one(requestId, id)}/`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ success: true });
    const list = (await call(PLAIN, 'GET', MEASUREMENT_API.list(requestId))).json()
      .measurements as Measurement[];
    expect(list.map((m) => m.id)).not.toContain(id);
    expect((await call(OPERATOR, 'DELETE', MEASUREMENT_API.one(requestId, id))).statusCode).toBe(404);
  });

  it('does not delete another request’s measurement through this one', async () => {
    const other = idFrom((await create(PLAIN, rveForm())).headers.location);
    const id: string = (await post(OPERATOR, other, area())).json().measurement.id;
    expect((await call(OPERATOR, 'DELETE', MEASUREMENT_API.one(requestId, id))).statusCode).toBe(404);
    expect((await call(OPERATOR, 'DELETE', MEASUREMENT_API.one(randomUUID(), id))).statusCode).toBe(404);
    expect((await call(OPERATOR, 'DELETE', MEASUREMENT_API.one(other, 'x1'))).statusCode).toBe(400);
    expect((await call(OPERATOR, 'GET', MEASUREMENT_API.list(other))).json().measurements).toHaveLength(1);
  });
});

describe('measurements sent with a new request (PUT /api/v1.0/request/)', () => {
  const requestMeasurements = async (id: string) =>
    (await call(PLAIN, 'GET', MEASUREMENT_API.list(id))).json().measurements as Measurement[];

  it('writes them with the request, created by the requester, in the order sent', async () => {
    const answer = await create(PLAIN, rveForm({ measurements: [area(), height(3.2)] }));
    expect(answer.statusCode).toBe(201);
    const id = idFrom(answer.headers.location);
    const measurements = await requestMeasurements(id);
    const requester = await userByEmail(PLAIN);
    expect(measurements.map((m) => [m.kind, m.createdBy])).toEqual([
      ['area', { id: requester.id, email: PLAIN }],
      ['height', { id: requester.id, email: PLAIN }],
    ]);
    expect(measurements[0].value).toBeCloseTo(
      await postgis('ST_Area(g::geography)', `POLYGON((${wkt([...HOUSE, HOUSE[0]])}))`),
      6,
    );
    expect(measurements[1].value).toBeCloseTo(3.2, 2);
  });

  it('refuses the whole request for one bad measurement, naming it, and writes nothing', async () => {
    const requests = await countRows();
    const measurements = await measurementCount();
    const answer = await create(
      PLAIN,
      rveForm({ measurements: [area(), area({ surveyId: surveys.elsewhere }), line('distance', HOUSE)] }),
    );
    expect(answer.statusCode).toBe(400);
    // The shape problem is found before the database is asked: the third measurement alone is named.
    expect(answer.json().messages).toEqual([
      'Measurement 3: A distance is measured between exactly 2 points: a LineString of 2 positions.',
    ]);
    const shape = await create(
      PLAIN,
      rveForm({
        measurements: [
          area(),
          line('length', [
            [LNG, 'x'],
            [LNG, LAT],
          ]),
        ],
      }),
    );
    expect(shape.statusCode).toBe(400);
    expect(shape.json().messages).toEqual([`Measurement 2: ${POSITION}`]);
    const coverage = await create(
      PLAIN,
      rveForm({ measurements: [area(), area({ surveyId: surveys.elsewhere })] }),
    );
    expect(coverage.statusCode).toBe(400);
    expect(coverage.json().messages).toEqual([
      expect.stringMatching(
        /^Measurement 2: Survey \d+ \(Paarl flight\), captured on 2 May 2019, does not cover/,
      ),
    ]);
    const crossing = await create(
      PLAIN,
      rveForm({
        measurements: [
          area({ geometry: { type: 'Polygon', coordinates: [[HOUSE[0], HOUSE[2], HOUSE[1], HOUSE[3]]] } }),
        ],
      }),
    );
    expect(crossing.statusCode).toBe(400);
    expect(crossing.json().message).toBe('Measurement 1: The outline crosses itself.');
    expect(await countRows()).toBe(requests);
    expect(await measurementCount()).toBe(measurements);
  });

  it('writes nothing twice when the same submission is replayed', async () => {
    const key = `measure-${randomUUID()}`;
    const form = rveForm({ measurements: [area(), line('length', HOUSE)] });
    const first = await create(PLAIN, form, { 'idempotency-key': key });
    const before = await measurementCount();
    const retry = await create(PLAIN, form, { 'idempotency-key': key });
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers.location).toBe(first.headers.location);
    expect(await measurementCount()).toBe(before);
    expect(await requestMeasurements(idFrom(first.headers.location))).toHaveLength(2);
  });

  it('answers a request without measurements as before, with none listed', async () => {
    const answer = await create(PLAIN, rveForm());
    expect(await requestMeasurements(idFrom(answer.headers.location))).toEqual([]);
  });
});
