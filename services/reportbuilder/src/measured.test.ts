import sharp from 'sharp';
import {
  REPORTBUILDER_API,
  type ImageInfoAnswer,
  type ReportSectionsBody,
  type SectionsAnswer,
  type TotalsAnswer,
} from '@portal/contracts';
import type { PdfJobRow } from '@portal/pdf-jobs';
import { createStorage } from '@portal/server-kit';
import { CONFIRM_TEXT, FOOTPRINT_TEXT } from './footprints';
import { MEASURED_TEXT } from './measured';
import { saviPdfRenderer } from './pdf/renderer';
import { SURVEY_TEXT } from './surveys';
import {
  buildingBody as building,
  floorBody as floor,
  reportBuilderTestApp,
  sectionBody as section,
  USERS,
} from './testing';

// Issue 21 in the report builder, on a throwaway seeded database with its own piece of imagery (two surveys,
// two parcels, four buildings with dates): measured floor sizes saved with the facts of their measurement,
// flagged when typed over, totals following; the footprints of the parcel's buildings at a survey confirmed
// as buildings in one save (bad input a 400 with nothing saved); a picture captured from the imagery keeping
// its survey's capture date through its crop; the PDF's HTML printing both.

jest.setTimeout(60_000);

const rb = reportBuilderTestApp('reportbuilder-measured-test');
const { owner: OWNER, operator: OPERATOR } = USERS;
const call = (email: string | null, method: 'GET' | 'POST', url: string, payload?: object) =>
  rb.call(email, method, url, payload);

/** The property: a point in the Karoo, far from any other test's data. */
const POINT = { lat: -30.2, lng: 24.1 };
const square = (lng: number, lat: number, half: number) =>
  `POLYGON((${lng - half} ${lat - half}, ${lng + half} ${lat - half}, ${lng + half} ${lat + half}, ${lng - half} ${lat + half}, ${lng - half} ${lat - half}))`;
const rectangle = (lng: number, lat: number, halfLng: number, halfLat: number) =>
  `POLYGON((${lng - halfLng} ${lat - halfLat}, ${lng + halfLng} ${lat - halfLat}, ${lng + halfLng} ${lat + halfLat}, ${lng - halfLng} ${lat + halfLat}, ${lng - halfLng} ${lat - halfLat}))`;

const geo = {
  survey2019: 0,
  surveyElsewhere: 0,
  house: '',
  garage: '',
  cottage: '',
  pool: '',
  neighbour: '',
};

async function insertId(sql: string, params: unknown[]): Promise<string> {
  const [row] = (await rb.db.dataSource.query(sql, params)) as { id: string }[];
  return String(row!.id);
}

beforeAll(async () => {
  const survey = (name: string, capturedOn: string, wkt: string) =>
    insertId(
      `INSERT INTO geo.imagery_coverage (kind, name, captured_on, geom, source, source_id)
       VALUES ('high_resolution', $1, $2, ST_Multi(ST_GeomFromText($3, 4326)), 'test', $1) RETURNING id`,
      [name, capturedOn, wkt],
    );
  geo.survey2019 = Number(await survey('Karoo 2019', '2019-03-14', square(POINT.lng, POINT.lat, 0.01)));
  geo.surveyElsewhere = Number(await survey('Elsewhere 2020', '2020-01-01', square(25, -31, 0.01)));
  const parcel = (number: string, lng: number) =>
    insertId(
      `INSERT INTO geo.parcels (parcel_number, geom, source, source_id)
       VALUES ($1, ST_Multi(ST_GeomFromText($2, 4326)), 'test', $1) RETURNING id`,
      [number, square(lng, POINT.lat, 0.0005)],
    );
  const home = await parcel('K-1', POINT.lng);
  const nextDoor = await parcel('K-2', POINT.lng + 0.001);
  const buildingRow = (
    name: string,
    parcelId: string,
    kind: string,
    heightM: number,
    wkt: string,
    life: { built?: string; extended?: string; before?: string } = {},
  ) =>
    insertId(
      `INSERT INTO geo.buildings (parcel_id, kind, height_m, geom, source, source_id, built_on, extended_on,
                                  geom_before_extension)
       VALUES ($1, $2, $3, ST_GeomFromText($4, 4326), 'test', $5, $6, $7,
               CASE WHEN $8::text IS NULL THEN NULL ELSE ST_GeomFromText($8, 4326) END) RETURNING id`,
      [parcelId, kind, heightM, wkt, name, life.built ?? null, life.extended ?? null, life.before ?? null],
    );
  // The house was extended in 2021: at the 2019 survey it stood without the extension.
  geo.house = await buildingRow(
    'house',
    home,
    'house',
    6.5,
    rectangle(POINT.lng, POINT.lat, 0.00012, 0.00006),
    { extended: '2021-06-01', before: rectangle(POINT.lng, POINT.lat, 0.00008, 0.00006) },
  );
  geo.garage = await buildingRow(
    'garage',
    home,
    'garage',
    2.8,
    square(POINT.lng + 0.0003, POINT.lat + 0.0003, 0.00003),
    { built: '2015-01-01' },
  );
  geo.cottage = await buildingRow(
    'cottage',
    home,
    'outbuilding',
    3,
    square(POINT.lng - 0.0003, POINT.lat - 0.0003, 0.00003),
    { built: '2022-01-01' },
  );
  // A pool on the parcel: on the survey, but not a building with floors.
  geo.pool = await buildingRow(
    'pool',
    home,
    'pool',
    0.3,
    square(POINT.lng - 0.0003, POINT.lat + 0.0003, 0.00003),
  );
  geo.neighbour = await buildingRow(
    'neighbour',
    nextDoor,
    'house',
    3,
    square(POINT.lng + 0.001, POINT.lat, 0.00005),
  );
});

async function request(status = 'In progress'): Promise<string> {
  return insertId(
    `INSERT INTO requests.requests (request_type, request_sub_type, status, user_id, user_name, user_email,
                                    group_id, group_name, address, lat, lng, point)
     SELECT 'SAVI', 'Building Size Calculation', $2, u.id, u.name, u.email, u.group_id, g.name, '1 Karoo Road',
            $3, $4, ST_SetSRID(ST_MakePoint($4, $3), 4326)
       FROM identity.users u LEFT JOIN identity.groups g ON g.id = u.group_id
      WHERE u.email = $1
     RETURNING id`,
    [OWNER, status, POINT.lat, POINT.lng],
  );
}

/** An area measurement of the request (as services/requests stores one). */
const measurement = (requestId: string, kind: 'area' | 'height', value: number, capturedOn = '2019-03-14') =>
  insertId(
    `INSERT INTO requests.measurements (request_id, kind, label, survey_id, captured_on, geom, value,
                                        created_by, created_by_email)
     SELECT $1, $2, 'Main house', $3, $4, ST_GeomFromText($5, 4326), $6, u.id, u.email
       FROM identity.users u WHERE u.email = $7
     RETURNING id`,
    [requestId, kind, geo.survey2019, capturedOn, square(POINT.lng, POINT.lat, 0.0001), value, OPERATOR],
  );

const save = (id: string, sections: ReportSectionsBody, version?: number) =>
  call(OPERATOR, 'POST', REPORTBUILDER_API.saveSections, { ID: id, sections, version });
const sectionsOf = async (id: string) =>
  (await call(OPERATOR, 'GET', REPORTBUILDER_API.sections(id))).json<SectionsAnswer>();

const measuredHouse = (measurementId: string, size: number, claims: object = {}) =>
  building('House', {
    floors: [
      {
        ...floor(size),
        measured: { measurementId, value: 1, surveyId: 999, capturedOn: '2000-01-01', ...claims },
      },
      floor(20),
    ],
    rate: 1000,
  });

describe('measured floor sizes', () => {
  it('saves a measured floor with the facts of its measurement, not the client’s; totals follow', async () => {
    const id = await request();
    const measured = await measurement(id, 'area', 182.4049);
    const answer = await save(id, { s1: section('Main', { buildings: [measuredHouse(measured, 182.4)] }) });
    expect(answer.statusCode).toBe(200);
    const [first, second] = answer.json<SectionsAnswer>().sections.s1!.buildings[0]!.floors;
    expect(first).toEqual({
      size: 182.4,
      doubleVolume: false,
      location: '',
      measured: { measurementId: measured, value: 182.4, surveyId: geo.survey2019, capturedOn: '2019-03-14' },
    });
    expect(second).toEqual(floor(20));
    const totals = (await call(OWNER, 'GET', REPORTBUILDER_API.totals(id))).json<TotalsAnswer>();
    expect(totals.totals.sections.s1!.buildings[0]).toMatchObject({ area: 202.4, value: 202400 });
  });

  it('flags a measured size typed over as edited (kept, still editable), unflags it when typed back', async () => {
    const id = await request();
    const measured = await measurement(id, 'area', 150);
    const first = await save(id, { s1: section('Main', { buildings: [measuredHouse(measured, 150)] }) });
    expect(first.statusCode).toBe(200);
    // The client forgets the flag; the service sets it from the size.
    const typed = await save(id, { s1: section('Main', { buildings: [measuredHouse(measured, 160)] }) }, 1);
    expect(typed.statusCode).toBe(200);
    expect(typed.json<SectionsAnswer>().sections.s1!.buildings[0]!.floors[0]).toMatchObject({
      size: 160,
      measured: { measurementId: measured, value: 150, edited: true },
    });
    const totals = (await call(OWNER, 'GET', REPORTBUILDER_API.totals(id))).json<TotalsAnswer>();
    expect(totals.totals.sections.s1!.buildings[0]!.area).toBe(180);
    const back = await save(
      id,
      { s1: section('Main', { buildings: [measuredHouse(measured, 150, { edited: true })] }) },
      2,
    );
    expect(back.json<SectionsAnswer>().sections.s1!.buildings[0]!.floors[0]!.measured).toEqual({
      measurementId: measured,
      value: 150,
      surveyId: geo.survey2019,
      capturedOn: '2019-03-14',
    });
    // A measurement deleted later leaves the saved facts in place; the report still saves.
    await rb.db.dataSource.query('DELETE FROM requests.measurements WHERE id = $1', [measured]);
    const again = await save(id, { s1: section('Main', { buildings: [measuredHouse(measured, 150)] }) }, 3);
    expect(again.statusCode).toBe(200);
    expect(again.json<SectionsAnswer>().sections.s1!.buildings[0]!.floors[0]!.measured).toMatchObject({
      value: 150,
      capturedOn: '2019-03-14',
    });
  });

  it('refuses (400, every problem, nothing saved) unknown, foreign and height measurements and new footprints', async () => {
    const id = await request();
    const other = await request();
    const foreign = await measurement(other, 'area', 90);
    const height = await measurement(id, 'height', 6.2);
    const unknown = '0b9a3c2e-8d0f-4c44-a2d2-5b0e1c7d9f10';
    const floorOf = (measured: object) => ({
      ...floor(50),
      measured: { value: 50, surveyId: 1, capturedOn: '2019-03-14', ...measured },
    });
    const answer = await save(id, {
      s1: section('Main', {
        buildings: [
          building('House', {
            floors: [
              floorOf({ measurementId: unknown }),
              floorOf({ measurementId: foreign }),
              floorOf({ measurementId: height }),
              floorOf({ measurementId: 'not-a-uuid' }),
              floorOf({ footprintId: '12' }),
              floorOf({}),
            ],
          }),
        ],
      }),
    });
    expect(answer.statusCode).toBe(400);
    const where = (n: number) => `Section 'Main', building 1 'House', floor ${n}`;
    expect(answer.json().messages).toEqual([
      MEASURED_TEXT.badMeasurementId(where(4), 'not-a-uuid'),
      MEASURED_TEXT.newFootprint(where(5)),
      MEASURED_TEXT.noSource(where(6)),
      MEASURED_TEXT.unknownMeasurement(where(1), unknown),
      MEASURED_TEXT.unknownMeasurement(where(2), foreign),
      MEASURED_TEXT.notArea(where(3), 'height'),
    ]);
    expect(await sectionsOf(id)).toMatchObject({ version: 0, sections: {} });
  });
});

describe('footprints of a Building Size Calculation', () => {
  const confirm = (id: string, buildingIds: string[], fields: object = {}, who: string = OPERATOR) =>
    call(who, 'POST', REPORTBUILDER_API.confirmFootprints, {
      requestID: id,
      sectionID: 's1',
      surveyId: geo.survey2019,
      buildingIds,
      ...fields,
    });
  const withSection = async () => {
    const id = await request();
    const saved = await save(id, {
      s1: section('Main', { buildings: [building('House', { floors: [floor(10)] })] }),
    });
    expect(saved.statusCode).toBe(200);
    return id;
  };

  it('adds the confirmed footprints as buildings in one save: storeys from the height, the area at the survey', async () => {
    const id = await withSection();
    const answer = await confirm(id, [geo.house, geo.garage], { version: 1 });
    expect(answer.statusCode).toBe(200);
    const body = answer.json<SectionsAnswer>();
    expect(body.version).toBe(2);
    const [, house, garage] = body.sections.s1!.buildings;
    // PostGIS's own figures: the house as it stood in 2019 (before its 2021 extension).
    const [truth] = (await rb.db.dataSource.query(
      `SELECT round(ST_Area(geom_before_extension::geography)::numeric, 2)::float8 AS house,
              (SELECT round(ST_Area(geom::geography)::numeric, 2)::float8 FROM geo.buildings WHERE id = $2) AS garage
         FROM geo.buildings WHERE id = $1`,
      [geo.house, geo.garage],
    )) as { house: number; garage: number }[];
    expect(house!.name).toBe('House 2');
    expect(house!.floors).toHaveLength(2); // round(6.5 / 3)
    expect(house!.floors.map((f) => f.size)).toEqual([truth!.house, truth!.house]);
    expect(house!.floors[0]!.measured).toEqual({
      footprintId: geo.house,
      value: truth!.house,
      surveyId: geo.survey2019,
      capturedOn: '2019-03-14',
    });
    expect(house!.marker).toMatchObject({ number: 2 });
    expect(garage).toMatchObject({ name: 'Garage', marker: { number: 3 } });
    expect(garage!.floors.map((f) => f.size)).toEqual([truth!.garage]); // max(1, round(2.8 / 3))
    const [edit] = (await rb.db.dataSource.query(
      `SELECT count(*)::int AS edits FROM reportbuilder.report_edits WHERE request_id = $1 AND what = 'footprints'`,
      [id],
    )) as { edits: number }[];
    expect(edit!.edits).toBe(1);
    // Confirmed footprints save like any measured floor afterwards, and cannot be confirmed twice.
    expect((await save(id, body.sections, 2)).statusCode).toBe(200);
    const twice = await confirm(id, [geo.garage]);
    expect([twice.statusCode, twice.json().message]).toEqual([400, CONFIRM_TEXT.alreadyIn(geo.garage)]);
  });

  it('refuses bad input with a 400 and saves nothing', async () => {
    const id = await withSection();
    const cases: [object, string][] = [
      [{ buildingIds: [geo.house, geo.cottage] }, FOOTPRINT_TEXT.notOnParcel(geo.cottage, '2019-03-14')],
      [{ buildingIds: [geo.neighbour] }, FOOTPRINT_TEXT.notOnParcel(geo.neighbour, '2019-03-14')],
      [{ buildingIds: ['abc'] }, FOOTPRINT_TEXT.badBuildingId('abc')],
      [{ buildingIds: [geo.pool] }, FOOTPRINT_TEXT.notABuilding(geo.pool, 'pool')],
      [{ buildingIds: [geo.house, geo.house] }, FOOTPRINT_TEXT.repeated(geo.house)],
      [{ surveyId: geo.surveyElsewhere }, SURVEY_TEXT.surveyMissesPoint(geo.surveyElsewhere)],
      [{ surveyId: 99999 }, SURVEY_TEXT.noSurvey(99999)],
      [{ sectionID: 'nope' }, CONFIRM_TEXT.noSection('nope')],
    ];
    for (const [fields, message] of cases) {
      const answer = await confirm(id, [geo.house], fields);
      expect([fields, answer.statusCode, answer.json().message]).toEqual([fields, 400, message]);
    }
    for (const body of [{ buildingIds: [] }, { surveyId: 'x' }, { buildingIds: 'x' }]) {
      expect((await confirm(id, [geo.house], body)).statusCode).toBe(400);
    }
    expect((await confirm(id, [geo.house], {}, OWNER)).statusCode).toBe(403);
    const after = await sectionsOf(id);
    expect(after.version).toBe(1);
    expect(after.sections.s1!.buildings).toHaveLength(1);
  });
});

describe('pictures from the imagery and the PDF', () => {
  const storage = () => createStorage({ driver: 'local', dir: rb.config.storageDir });
  const jpegDataUrl = async () =>
    `data:image/jpeg;base64,${(
      await sharp({ create: { width: 1024, height: 768, channels: 3, background: '#6a5' } })
        .jpeg()
        .toBuffer()
    ).toString('base64')}`;
  const info = async (id: string) =>
    (
      await call(OWNER, 'GET', REPORTBUILDER_API.imageInfo(id, 'property', '-', '-', '-'))
    ).json<ImageInfoAnswer>();

  it('keeps the survey’s capture date with a picture captured from the imagery and its crop; a paste drops it', async () => {
    const id = await request();
    expect(await info(id)).toEqual({ exists: false, imagery: null });
    const base64Data = await jpegDataUrl();
    const pasted = await call(OPERATOR, 'POST', REPORTBUILDER_API.image, {
      requestID: id,
      base64Data,
      type: 'property',
      surveyId: geo.survey2019,
    });
    expect(pasted.statusCode).toBe(200);
    expect(pasted.json()).toMatchObject({
      image: { name: 'property-base-image.png', width: 1024, height: 768 },
      imagery: { surveyId: geo.survey2019, capturedOn: '2019-03-14' },
    });
    const crop = {
      requestID: id,
      image: 'property-base-image.png',
      type: 'property',
      x: 0,
      y: 0,
      width: 1024,
      height: 512,
    };
    const cropped = await call(OPERATOR, 'POST', REPORTBUILDER_API.imageCrop, crop);
    expect(cropped.json()).toMatchObject({ imagery: { capturedOn: '2019-03-14' } });
    expect(await info(id)).toEqual({
      exists: true,
      imagery: { surveyId: geo.survey2019, capturedOn: '2019-03-14' },
    });

    // A survey that does not cover the point, and a JPEG without a survey, are refused; nothing changes.
    const elsewhere = await call(OPERATOR, 'POST', REPORTBUILDER_API.image, {
      requestID: id,
      base64Data,
      type: 'property',
      surveyId: geo.surveyElsewhere,
    });
    expect([elsewhere.statusCode, elsewhere.json().message]).toEqual([
      400,
      SURVEY_TEXT.surveyMissesPoint(geo.surveyElsewhere),
    ]);
    const jpegPaste = await call(OPERATOR, 'POST', REPORTBUILDER_API.image, {
      requestID: id,
      base64Data,
      type: 'property',
    });
    expect(jpegPaste.statusCode).toBe(400);
    expect((await info(id)).imagery).toEqual({ surveyId: geo.survey2019, capturedOn: '2019-03-14' });

    // A pasted PNG cropped over it is not the imagery any more.
    const png = await sharp({ create: { width: 1024, height: 512, channels: 3, background: '#333' } })
      .png()
      .toBuffer();
    const paste = await call(OPERATOR, 'POST', REPORTBUILDER_API.image, {
      requestID: id,
      base64Data: png.toString('base64'),
      type: 'property',
    });
    expect(paste.json()).toMatchObject({ imagery: null });
    await call(OPERATOR, 'POST', REPORTBUILDER_API.imageCrop, crop);
    expect(await info(id)).toEqual({ exists: true, imagery: null });
  });

  it('prints measured floor sizes with their survey’s capture date, and the picture’s capture date', async () => {
    const id = await request();
    const measured = await measurement(id, 'area', 182.4);
    const saved = await save(id, {
      s1: section('Main', {
        buildings: [
          building('House', {
            floors: [
              {
                ...floor(182.4),
                location: 'Ground',
                measured: { measurementId: measured, value: 0, surveyId: 1, capturedOn: '2019-03-14' },
              },
              floor(40),
            ],
          }),
          building('Shed', { floors: [floor(12)] }),
        ],
      }),
    });
    expect(saved.statusCode).toBe(200);
    await call(OPERATOR, 'POST', REPORTBUILDER_API.image, {
      requestID: id,
      base64Data: await jpegDataUrl(),
      type: 'property',
      surveyId: geo.survey2019,
    });
    await call(OPERATOR, 'POST', REPORTBUILDER_API.imageCrop, {
      requestID: id,
      image: 'property-base-image.png',
      type: 'property',
      x: 0,
      y: 0,
      width: 1024,
      height: 512,
    });
    const renderer = saviPdfRenderer({ ds: rb.appDatabase, storage: storage(), defaultVat: 15 });
    const job = { subject_id: id, payload: {} } as unknown as PdfJobRow;
    const html = await renderer.html(job);
    expect(html).toContain('Ground: 182.40 m² (measured on the 14 Mar 2019 survey)');
    expect(html).toContain('Floor 2: 40.00 m²');
    expect(html).toContain('Imagery captured 14 Mar 2019');
    // A building without a measured floor gets no floors line.
    expect(html.match(/Floors: /g)).toHaveLength(1);

    // Typed over: the PDF says so.
    const typed = saved.json<SectionsAnswer>().sections;
    typed.s1!.buildings[0]!.floors[0]!.size = 190;
    expect((await save(id, typed, 1)).statusCode).toBe(200);
    expect(await renderer.html(job)).toContain(
      'Ground: 190.00 m² (edited by hand (measured 182.4 m² on the 14 Mar 2019 survey))',
    );
  });
});
