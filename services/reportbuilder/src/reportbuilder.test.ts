import {
  REPORTBUILDER_API,
  type CommentsAnswer,
  type NoteAnswer,
  type ReportDetails,
  type ReportSectionBody,
  type ReportSectionsBody,
  type SectionsAnswer,
  type TotalsAnswer,
  type VersionsAnswer,
} from '@portal/contracts';
import { BUILDING_WARNING, REPORT_BUILDER_ERROR } from '@portal/domain';
import { UserEntity } from '@portal/db';
import { trailingSlashProblems } from '@portal/server-kit/testing';
import { loadReportBuilderConfig } from './config';
import { REPORT_TEXT } from './store';
import {
  buildingBody as building,
  improvementBody as improvement,
  reportBuilderTestApp,
  sectionBody,
  USERS,
} from './testing';
import { SECTION_TEXT } from './validation';

// The report builder's calls on a throwaway seeded database and the real Redis: roles (anonymous, the
// request's owner, another user, staff), statuses, bad input listed whole, stale versions, atomic saves,
// totals against libs/domain's hand-worked report 1, both path spellings, the versions kept at submission.
// One file over 500 lines: every case drives the one app and database through the request and report
// builders below (images.test.ts and pdf.test.ts have theirs), and they read as one walk through the calls.

jest.setTimeout(60_000);

const rb = reportBuilderTestApp('reportbuilder-test');
const { owner: OWNER, other: OTHER, operator: OPERATOR, qc: QC, admin: ADMIN } = USERS;
const call = (email: string | null, method: 'GET' | 'POST', url: string, payload?: object) =>
  rb.call(email, method, url, payload);

/** A request of OWNER (as PUT /api/v1.0/request/ stores it) in `status`, of the owner's group or `groupId`. */
async function request(status = 'Ready for QS', type = 'SAVI', groupId?: string): Promise<string> {
  const [row] = (await rb.db.dataSource.query(
    `INSERT INTO requests.requests (request_type, status, user_id, user_name, user_email, group_id, group_name,
                                    address, lat, lng, point, selected)
     SELECT $2, $3, u.id, u.name, u.email, COALESCE($4::uuid, u.group_id), g.name, '12 Dorp Street, Stellenbosch',
            -33.9376, 18.8603, ST_SetSRID(ST_MakePoint(18.8603, -33.9376), 4326),
            '{"suburb": "Die Boord", "town": "Stellenbosch"}'::jsonb
       FROM identity.users u LEFT JOIN identity.groups g ON g.id = COALESCE($4::uuid, u.group_id)
      WHERE u.email = $1
     RETURNING id`,
    [OWNER, type, status, groupId ?? null],
  )) as { id: string }[];
  return row!.id;
}

const setStatus = (id: string, status: string) =>
  rb.db.dataSource.query('UPDATE requests.requests SET status = $2 WHERE id = $1', [id, status]);

/** The sections of these tests carry a marker on the property's image. */
const section = (name: string, fields: Partial<ReportSectionBody> = {}): ReportSectionBody =>
  sectionBody(name, { marker: { lat: -33.9376, lng: 18.8603, number: 1 }, ...fields });

const saveSections = (email: string | null, id: string, sections: ReportSectionsBody, version?: number) =>
  call(email, 'POST', REPORTBUILDER_API.saveSections, { ID: id, sections, version });

describe('who may read and edit', () => {
  it('asks for a session (401)', async () => {
    const id = await request();
    expect((await call(null, 'GET', REPORTBUILDER_API.sections(id))).statusCode).toBe(401);
    expect((await saveSections(null, id, {})).statusCode).toBe(401);
    expect((await call(null, 'GET', REPORTBUILDER_API.totals(id))).statusCode).toBe(401);
  });

  it('lets the owner and staff read in every status, others not (403)', async () => {
    const id = await request('Dispatch');
    for (const email of [OWNER, OPERATOR, QC, ADMIN]) {
      const answer = await call(email, 'GET', REPORTBUILDER_API.sections(id));
      expect([email, answer.statusCode]).toEqual([email, 200]);
      expect(answer.json<SectionsAnswer>()).toMatchObject({
        ID: id,
        sections: {},
        version: 0,
        editable: false,
      });
    }
    const other = await call(OTHER, 'GET', REPORTBUILDER_API.details(id));
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe(REPORT_TEXT.notYours);
  });

  it('lets staff edit (admin, saviOperator, saviQC), never a plain user, not even the owner (403)', async () => {
    const id = await request();
    for (const email of [OWNER, OTHER]) {
      const answer = await saveSections(email, id, { a: section('Main') });
      expect(answer.statusCode).toBe(403);
      expect(answer.json().message).toBe(REPORT_TEXT.staffOnly);
      expect(
        (await call(email, 'POST', REPORTBUILDER_API.comments, { ID: id, comment: 'x' })).statusCode,
      ).toBe(403);
    }
    let version = 0;
    for (const email of [OPERATOR, QC, ADMIN]) {
      const answer = await saveSections(email, id, { a: section('Main') }, version);
      expect([email, answer.statusCode]).toEqual([email, 200]);
      const body = answer.json<SectionsAnswer>();
      expect(body.version).toBe(version + 1);
      expect(body.editable).toBe(true);
      version = body.version;
    }
    const read = (await call(OWNER, 'GET', REPORTBUILDER_API.sections(id))).json<SectionsAnswer>();
    expect(read).toMatchObject({ version: 3, editable: false, updatedBy: { name: 'Thandiwe Nkosi' } });
    expect(read.sections.a!.name).toBe('Main');
  });

  it('edits only in Ready for QS, In progress, Pending and Query (409 otherwise, reading allowed)', async () => {
    for (const status of ['Ready for QS', 'In progress', 'Pending', 'Query']) {
      const id = await request(status);
      expect([status, (await saveSections(OPERATOR, id, { a: section('Main') })).statusCode]).toEqual([
        status,
        200,
      ]);
    }
    for (const status of ['New', 'Cancelled_rejected', 'QC check', 'Dispatch', 'Delivered', 'Finalised']) {
      const id = await request(status);
      const answer = await saveSections(OPERATOR, id, { a: section('Main') });
      expect([status, answer.statusCode]).toEqual([status, 409]);
      expect(answer.json().message).toBe(REPORT_TEXT.notEditable(status));
      expect(answer.json().current).toMatchObject({ ID: id, status, editable: false });
      const note = await call(OPERATOR, 'POST', REPORTBUILDER_API.noteOf(id), { note: 'n' });
      expect(note.statusCode).toBe(409);
      expect((await call(OPERATOR, 'GET', REPORTBUILDER_API.sections(id))).statusCode).toBe(200);
    }
  });

  it('answers 404 for an unknown request, 400 for a malformed id, 409 for a request that is not SAVI', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await call(OPERATOR, 'GET', REPORTBUILDER_API.sections(unknown))).statusCode).toBe(404);
    expect((await saveSections(OPERATOR, unknown, {})).statusCode).toBe(404);
    const bad = await call(OPERATOR, 'GET', REPORTBUILDER_API.details('not-a-uuid'));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(REPORT_TEXT.badId('not-a-uuid'));
    const iris = await request('In progress', 'IRIS');
    const answer = await saveSections(OPERATOR, iris, {});
    expect(answer.statusCode).toBe(409);
    expect(answer.json().message).toBe(REPORT_TEXT.notSavi('IRIS'));
  });
});

describe('sections', () => {
  it('lists every problem of a save at once (400) and saves nothing', async () => {
    const id = await request();
    const answer = await saveSections(OPERATOR, id, {
      a: section('Main', {
        buildings: [building('House'), building('house'), building(' ')],
        groups: [{ name: 'Block A' }, { name: 'BLOCK A' }, { name: '' }],
        improvements: [improvement('', 1, 10)],
      }),
      b: section('MAIN', { type: '' }),
      'bad id!': section('Other'),
    });
    expect(answer.statusCode).toBe(400);
    const { messages } = answer.json<{ messages: string[] }>();
    expect(messages).toEqual(
      expect.arrayContaining([
        `Section 'Main': ${REPORT_BUILDER_ERROR.sectionNameTaken}`,
        `Section 'Main', building 2 'house': ${REPORT_BUILDER_ERROR.buildingNameTaken}`,
        `Section 'Main', building 3: ${REPORT_BUILDER_ERROR.buildingNameRequired}`,
        `Section 'Main', group 2: ${REPORT_BUILDER_ERROR.groupNameTaken}`,
        `Section 'Main', group 3: ${REPORT_BUILDER_ERROR.groupNameRequired}`,
        `Section 'Main', improvement 1: ${REPORT_BUILDER_ERROR.improvementNameRequired}`,
        `Section 'MAIN': ${REPORT_BUILDER_ERROR.sectionTypeRequired}`,
        SECTION_TEXT.badSectionId('bad id!'),
      ]),
    );
    expect(messages).toHaveLength(11);
    const read = (await call(OPERATOR, 'GET', REPORTBUILDER_API.sections(id))).json<SectionsAnswer>();
    expect(read).toMatchObject({ version: 0, sections: {} });
  });

  it('refuses bodies that break the schema (400 naming the field)', async () => {
    const id = await request();
    const answer = await call(OPERATOR, 'POST', REPORTBUILDER_API.saveSections, {
      ID: id,
      sections: { a: { ...section('Main'), buildings: [{ ...building('House'), floors: 'two' }] } },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toMatch(/floors/);
    expect((await call(OPERATOR, 'POST', REPORTBUILDER_API.saveSections, { sections: {} })).statusCode).toBe(
      400,
    );
  });

  it('keeps the sections in their order, warns about buildings without blocking, saves the comment with them', async () => {
    const id = await request();
    const sections = {
      zeta: section('Zeta', {
        buildings: [building('Shed', { category: 'buildings', constructionType: '' })],
      }),
      alpha: section('Alpha'),
    };
    const answer = await call(OPERATOR, 'POST', REPORTBUILDER_API.saveSections, {
      ID: id,
      sections,
      comment: 'Two sections',
      version: 0,
    });
    expect(answer.statusCode).toBe(200);
    const body = answer.json<SectionsAnswer>();
    expect(Object.keys(body.sections)).toEqual(['zeta', 'alpha']);
    expect(body.warnings).toEqual([
      `Section 'Zeta' / Building 'Shed': ${BUILDING_WARNING.noConstructionType}`,
      `Section 'Zeta' / Building 'Shed': ${BUILDING_WARNING.noFloors}`,
      `Section 'Zeta' / Building 'Shed': ${BUILDING_WARNING.noRate}`,
    ]);
    const read = (await call(OWNER, 'GET', REPORTBUILDER_API.sections(id))).json<SectionsAnswer>();
    expect(Object.keys(read.sections)).toEqual(['zeta', 'alpha']);
    expect(read.sections.zeta!.buildings[0]!.name).toBe('Shed');
    const comments = (await call(OWNER, 'GET', REPORTBUILDER_API.commentsOf(id))).json<CommentsAnswer>();
    expect(comments.comment).toBe('Two sections');
  });

  it('deletes a section only without buildings, unless they moved to another section', async () => {
    const id = await request();
    const first = await saveSections(OPERATOR, id, {
      a: section('Main', { buildings: [building('House')] }),
      b: section('Garden'),
    });
    expect(first.statusCode).toBe(200);
    const refused = await saveSections(OPERATOR, id, { b: section('Garden') }, 1);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().messages).toEqual([SECTION_TEXT.sectionHasBuildings('Main')]);
    const moved = await saveSections(
      OPERATOR,
      id,
      { b: section('Garden', { buildings: [building('House')] }) },
      1,
    );
    expect(moved.statusCode).toBe(200);
    const emptied = await saveSections(OPERATOR, id, { c: section('New') }, 2);
    expect(emptied.statusCode).toBe(400);
  });

  it('refuses a stale save (409) with the report as it is now', async () => {
    const id = await request();
    expect((await saveSections(OPERATOR, id, { a: section('Main') }, 0)).statusCode).toBe(200);
    expect((await saveSections(QC, id, { a: section('Main'), b: section('Pool') }, 1)).statusCode).toBe(200);
    const stale = await saveSections(OPERATOR, id, { a: section('Renamed') }, 1);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(REPORT_TEXT.stale(2));
    expect(stale.json().current).toMatchObject({ version: 2, sections: { b: { name: 'Pool' } } });
    // a details save moves the same version
    const stale2 = await call(OPERATOR, 'POST', REPORTBUILDER_API.note, { ID: id, note: 'x', version: 1 });
    expect(stale2.statusCode).toBe(409);
    expect(stale2.json().current).toMatchObject({ version: 2, note: { text: '' } });
  });

  it('two saves of the same version at once: one wins, the other is refused', async () => {
    const id = await request();
    const answers = await Promise.all([
      saveSections(OPERATOR, id, { a: section('One') }, 0),
      saveSections(QC, id, { a: section('Two') }, 0),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const read = (await call(OPERATOR, 'GET', REPORTBUILDER_API.sections(id))).json<SectionsAnswer>();
    expect(read.version).toBe(1);
  });
});

describe('atomic saves', () => {
  afterEach(async () => {
    await rb.db.dataSource.query('DROP TRIGGER IF EXISTS test_fail ON reportbuilder.report_edits');
    await rb.db.dataSource.query('DROP FUNCTION IF EXISTS reportbuilder.test_fail()');
  });

  it('leaves nothing half-written when a save fails midway (500, logged)', async () => {
    const id = await request();
    expect((await saveSections(OPERATOR, id, { a: section('Main') }, 0)).statusCode).toBe(200);
    // The edit line is the save's last write: make it fail.
    await rb.db.dataSource.query(`
      CREATE FUNCTION reportbuilder.test_fail() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'test failure'; END $$`);
    await rb.db.dataSource.query(`
      CREATE TRIGGER test_fail BEFORE INSERT ON reportbuilder.report_edits
      FOR EACH ROW EXECUTE FUNCTION reportbuilder.test_fail()`);
    const failed = await call(OPERATOR, 'POST', REPORTBUILDER_API.saveSections, {
      ID: id,
      sections: { a: section('Changed'), b: section('Pool') },
      comment: 'lost',
      version: 1,
    });
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toMatchObject({ statusCode: 500, message: 'Internal Server Error' });
    const read = (await call(OPERATOR, 'GET', REPORTBUILDER_API.sections(id))).json<SectionsAnswer>();
    expect(read.version).toBe(1);
    expect(Object.keys(read.sections)).toEqual(['a']);
    expect(read.sections.a!.name).toBe('Main');
    expect((await call(OPERATOR, 'GET', REPORTBUILDER_API.commentsOf(id))).json().comment).toBe('');
    // A first save that fails leaves no report at all.
    const fresh = await request();
    expect((await saveSections(OPERATOR, fresh, { a: section('Main') })).statusCode).toBe(500);
    const rows = await rb.db.dataSource.query('SELECT 1 FROM reportbuilder.reports WHERE request_id = $1', [
      fresh,
    ]);
    expect(rows).toEqual([]);
  });
});

describe('comments, note, details, address, extra field', () => {
  it('reads and writes comments and the note with and without the id in the path', async () => {
    const id = await request();
    const operator = await rb.db.dataSource.getRepository(UserEntity).findOneByOrFail({ email: OPERATOR });
    const posted = await call(OPERATOR, 'POST', REPORTBUILDER_API.comments, {
      ID: id,
      userID: 'ignored',
      comment: 'Roof checked',
    });
    expect(posted.json<CommentsAnswer>()).toEqual({
      ID: id,
      userID: operator.id,
      comment: 'Roof checked',
      version: 1,
    });
    const byPath = await call(OPERATOR, 'POST', REPORTBUILDER_API.commentsOf(id), {
      comment: 'Roof and walls',
    });
    expect(byPath.json<CommentsAnswer>().comment).toBe('Roof and walls');
    expect((await call(OWNER, 'GET', `${REPORTBUILDER_API.comments}?ID=${id}`)).json().comment).toBe(
      'Roof and walls',
    );
    expect((await call(OWNER, 'GET', REPORTBUILDER_API.comments)).statusCode).toBe(400);
    const mismatch = await call(OPERATOR, 'POST', REPORTBUILDER_API.commentsOf(id), {
      ID: '00000000-0000-4000-8000-000000000000',
      comment: 'x',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toBe(REPORT_TEXT.idMismatch);

    await call(OPERATOR, 'POST', REPORTBUILDER_API.note, { ID: id, note: 'Plain text' });
    expect((await call(OWNER, 'GET', REPORTBUILDER_API.noteOf(id))).json<NoteAnswer>().note).toEqual({
      text: 'Plain text',
    });
    await call(OPERATOR, 'POST', REPORTBUILDER_API.noteOf(id), { note: { text: 'As an object' } });
    const note = (await call(OWNER, 'GET', `${REPORTBUILDER_API.note}/?ID=${id}`)).json<NoteAnswer>();
    expect(note).toMatchObject({ note: { text: 'As an object' }, version: 4 });
  });

  it('answers the details from the request and the report; the address is edited', async () => {
    const id = await request();
    const details = (await call(OWNER, 'GET', REPORTBUILDER_API.details(id))).json<ReportDetails>();
    expect(details).toMatchObject({
      ID: id,
      location: '12 Dorp Street, Stellenbosch',
      suburb: 'Die Boord',
      town: 'Stellenbosch',
      suburbTownCity: 'Die Boord, Stellenbosch',
      coordinates: { lat: -33.9376, lng: 18.8603 },
      comments: '',
      note: { text: '' },
      extraField: { include: false, description: 'Betterments', value: 0 },
      vatPercentage: 15,
      group: { name: 'Karoo Mutual Insurance' },
      version: 0,
      editable: false,
    });
    const saved = await call(OPERATOR, 'POST', REPORTBUILDER_API.saveAddress, {
      requestID: id,
      addressDetails: { location: ' 14 Dorp Street ', suburbTownCity: 'Stellenbosch Central, Stellenbosch' },
      version: 0,
    });
    expect(saved.statusCode).toBe(200);
    const address = (await call(OWNER, 'GET', REPORTBUILDER_API.addressDetails(id))).json();
    expect(address).toMatchObject({
      location: '14 Dorp Street',
      suburbTownCity: 'Stellenbosch Central, Stellenbosch',
      version: 1,
    });
    expect((await call(OPERATOR, 'POST', REPORTBUILDER_API.saveAddress, { requestID: id })).statusCode).toBe(
      400,
    );
  });

  it('sets the extra field: included, description, value (blank → 0, commas stripped, text refused)', async () => {
    const id = await request();
    const post = (path: string, body: object) => call(OPERATOR, 'POST', path, { requestID: id, ...body });
    expect((await post(REPORTBUILDER_API.extraFieldIncluded, { included: true })).statusCode).toBe(200);
    await post(REPORTBUILDER_API.extraFieldDescription, { description: ' Outbuildings ' });
    let answer = await post(REPORTBUILDER_API.extraFieldValue, { value: '12,345.67' });
    expect(answer.json<ReportDetails>().extraField).toEqual({
      include: true,
      description: 'Outbuildings',
      value: 12345.67,
    });
    answer = await post(REPORTBUILDER_API.extraFieldValue, { value: '' });
    expect(answer.json<ReportDetails>().extraField.value).toBe(0);
    answer = await post(REPORTBUILDER_API.extraFieldValue, { value: 2500 });
    expect(answer.json<ReportDetails>().extraField.value).toBe(2500);
    const bad = await post(REPORTBUILDER_API.extraFieldValue, { value: 'lots' });
    expect(bad.statusCode).toBe(400);
    expect((await post(REPORTBUILDER_API.extraFieldIncluded, {})).statusCode).toBe(400);
    expect((await call(OWNER, 'GET', REPORTBUILDER_API.details(id))).json<ReportDetails>().version).toBe(5);
  });
});

describe('totals', () => {
  it("equal libs/domain's hand-worked report 1 with the group's settings", async () => {
    const [group] = (await rb.db.dataSource.query(
      `INSERT INTO identity.groups (name, code, include_vat, include_professional_fee, professional_fee_percentage,
                                    double_volume_percent)
       VALUES ('Worked Example', 'WEX', true, true, 12, 15) RETURNING id`,
    )) as { id: string }[];
    const id = await request('In progress', 'SAVI', group!.id);
    const floor = (size: number, doubleVolume = false) => ({ size, doubleVolume, location: '' });
    const sections: ReportSectionsBody = {
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
    expect((await saveSections(OPERATOR, id, sections, 0)).statusCode).toBe(200);
    const post = (path: string, body: object) => call(OPERATOR, 'POST', path, { requestID: id, ...body });
    await post(REPORTBUILDER_API.extraFieldIncluded, { included: true });
    await post(REPORTBUILDER_API.extraFieldValue, { value: '12,345.67' });
    const answer = await call(OWNER, 'GET', REPORTBUILDER_API.totals(id));
    expect(answer.statusCode).toBe(200);
    const { totals, formatted, settings } = answer.json<TotalsAnswer>();
    expect(settings).toEqual({
      doubleVolumePercent: 15,
      includeProfessionalFee: true,
      professionalFeePercentage: 12,
      includeVAT: true,
      vatPercentage: 15,
    });
    expect(totals.sections.s1!.buildings).toEqual([
      { area: 270.38, value: 2298187.5, improvements: 25000, total: 2323187.5 },
      { area: 36, value: 153027, improvements: 0, total: 153027 },
    ]);
    expect(totals.sections.s1!.subtotal).toBe(2534024.5);
    expect(totals.sections.s2!.subtotal).toBe(116174.99);
    expect(totals).toMatchObject({
      extraField: 12345.67,
      subtotal: 2662545.16,
      professionalFee: 319505.42,
      vat: 447307.59,
      grandTotal: 3429358.17,
    });
    expect(formatted).toEqual({
      extraField: '12,345.67',
      subtotal: '2,662,545.16',
      professionalFee: '319,505.42',
      vat: '447,307.59',
      grandTotal: '3,429,358.17',
    });
    expect((await call(OTHER, 'GET', REPORTBUILDER_API.totals(id))).statusCode).toBe(403);
  });
});

describe("totals: the sum-insured check (issue 13 'Beyond the spec')", () => {
  /** A request of a group without VAT or fee whose report totals R 1,000,000.00, with `reference`. */
  async function reportWith(reference: object) {
    const [group] = (await rb.db.dataSource.query(
      `INSERT INTO identity.groups (name, code, include_vat, include_professional_fee, professional_fee_percentage,
                                    double_volume_percent)
       VALUES ('Sum Insured ' || gen_random_uuid(), 'SI-' || gen_random_uuid()::text, false, false, 0, 0)
       RETURNING id`,
    )) as { id: string }[];
    const id = await request('In progress', 'SAVI', group!.id);
    await rb.db.dataSource.query('UPDATE requests.requests SET reference = $2::jsonb WHERE id = $1', [
      id,
      JSON.stringify(reference),
    ]);
    const sections = { s1: section('Main', { improvements: [improvement('Paving', 100, 10000)] }) };
    expect((await saveSections(OPERATOR, id, sections, 0)).statusCode).toBe(200);
    const answer = await call(OWNER, 'GET', REPORTBUILDER_API.totals(id));
    expect(answer.statusCode).toBe(200);
    const body = answer.json<TotalsAnswer>();
    expect(body.totals.grandTotal).toBe(1_000_000);
    return body.sumInsured;
  }

  it('is within the tolerance (10 % by default), its limit included', async () => {
    expect(await reportWith({ POLICY_NUMBER: 'KM1', SUM_INSURED: 'R 1 050,000' })).toEqual({
      value: 1_050_000,
      verdict: 'within',
      differencePercent: 5,
      tolerancePercent: 10,
    });
    expect((await reportWith({ SUM_INSURED: '900000' }))?.verdict).toBe('within');
  });

  it('flags under-insured and over-insured beyond it', async () => {
    expect(await reportWith({ SUM_INSURED: '750,000.00' })).toEqual({
      value: 750_000,
      verdict: 'under-insured',
      differencePercent: -25,
      tolerancePercent: 10,
    });
    expect(await reportWith({ BUILDING_SUM_INSURED: 1_200_000 })).toMatchObject({
      value: 1_200_000,
      verdict: 'over-insured',
      differencePercent: 20,
    });
  });

  it('takes its tolerance from REPORTBUILDER_SUM_INSURED_TOLERANCE_PERCENT', () => {
    const tolerance = (value?: string) =>
      loadReportBuilderConfig({ VAR_DIR: rb.varDir, REPORTBUILDER_SUM_INSURED_TOLERANCE_PERCENT: value })
        .sumInsuredTolerancePercent;
    expect(tolerance()).toBe(10);
    expect(tolerance('5')).toBe(5);
    expect(tolerance('-1')).toBe(10);
    expect(tolerance('many')).toBe(10);
  });

  it('is null without a sum insured (or one that is not an amount)', async () => {
    expect(await reportWith({ POLICY_NUMBER: 'KM1' })).toBeNull();
    expect(await reportWith({ SUM_INSURED: 'unknown' })).toBeNull();
    expect(await reportWith({})).toBeNull();
  });
});

describe('versions kept at each submission', () => {
  /** What services/requests' submit does: the status, its history line, one transaction. */
  async function submit(id: string, email: string) {
    await rb.db.dataSource.transaction(async (em) => {
      await em.query(`UPDATE requests.requests SET status = 'QC check' WHERE id = $1`, [id]);
      await em.query(
        `INSERT INTO requests.request_history (request_id, user_id, user_name, field, from_value, to_value)
         SELECT $1, u.id, u.name, 'status', 'In progress', 'QC check' FROM identity.users u WHERE u.email = $2`,
        [id, email],
      );
    });
  }

  it('keeps the report at each move to QC check and says what changed since the last one', async () => {
    const id = await request('In progress');
    await submit(id, OPERATOR); // no report yet: no version
    await setStatus(id, 'In progress');
    await saveSections(OPERATOR, id, {
      a: section('Main', { buildings: [building('House', { rate: 100 })] }),
    });
    await submit(id, OPERATOR);
    await setStatus(id, 'Query');
    await saveSections(
      QC,
      id,
      { a: section('Main', { buildings: [building('House', { rate: 200 })] }), b: section('Pool') },
      1,
    );
    await call(QC, 'POST', REPORTBUILDER_API.note, { ID: id, note: 'Rate corrected' });
    const before = (await call(QC, 'GET', REPORTBUILDER_API.versions(id))).json<VersionsAnswer>();
    expect(before.versions).toHaveLength(1);
    expect(before.sinceLast).toMatchObject({
      sectionsAdded: ['Pool'],
      sectionsChanged: ['Main'],
      detailsChanged: ['note'],
    });
    await submit(id, QC);
    const answer = await call(OWNER, 'GET', REPORTBUILDER_API.versions(id));
    expect(answer.statusCode).toBe(200);
    const { versions, sinceLast } = answer.json<VersionsAnswer>();
    expect(versions.map((v) => [v.number, v.reportVersion, v.submittedBy?.name])).toEqual([
      [2, 3, 'Ayesha Patel'],
      [1, 1, 'Pieter van der Merwe'],
    ]);
    expect(versions[1]!.changes).toMatchObject({ sectionsAdded: ['Main'], grandTotalBefore: null });
    expect(versions[0]!.changes).toMatchObject({
      sectionsAdded: ['Pool'],
      sectionsRemoved: [],
      sectionsChanged: ['Main'],
      detailsChanged: ['note'],
    });
    expect(versions[0]!.sections.b!.name).toBe('Pool');
    expect(sinceLast).toMatchObject({ sectionsAdded: [], sectionsChanged: [], detailsChanged: [] });
  });
});

describe('paths', () => {
  it('answers every path with and without its trailing slash', async () => {
    const id = await request();
    const gets = [
      REPORTBUILDER_API.sections(id),
      REPORTBUILDER_API.commentsOf(id),
      `${REPORTBUILDER_API.comments}?ID=${id}`,
      REPORTBUILDER_API.noteOf(id),
      `${REPORTBUILDER_API.note}?ID=${id}`,
      REPORTBUILDER_API.details(id),
      REPORTBUILDER_API.addressDetails(id),
      REPORTBUILDER_API.totals(id),
      REPORTBUILDER_API.versions(id),
    ];
    for (const url of gets) {
      const [path, query] = url.split('?');
      for (const spelling of [path, `${path}/`]) {
        const answer = await call(OWNER, 'GET', query ? `${spelling}?${query}` : spelling!);
        expect([spelling, answer.statusCode]).toEqual([spelling, 200]);
      }
    }
    const posts: [string, object][] = [
      [REPORTBUILDER_API.saveSections, { ID: id, sections: {} }],
      [REPORTBUILDER_API.comments, { ID: id, comment: 'c' }],
      [REPORTBUILDER_API.commentsOf(id), { comment: 'c' }],
      [REPORTBUILDER_API.note, { ID: id, note: 'n' }],
      [REPORTBUILDER_API.noteOf(id), { note: 'n' }],
      [
        REPORTBUILDER_API.saveAddress,
        { requestID: id, addressDetails: { location: 'l', suburbTownCity: 's' } },
      ],
      [REPORTBUILDER_API.extraFieldIncluded, { requestID: id, included: true }],
      [REPORTBUILDER_API.extraFieldDescription, { requestID: id, description: 'd' }],
      [REPORTBUILDER_API.extraFieldValue, { requestID: id, value: '1' }],
    ];
    for (const [path, body] of posts)
      for (const spelling of [path, `${path}/`]) {
        const answer = await call(ADMIN, 'POST', spelling, body);
        expect([spelling, answer.statusCode]).toEqual([spelling, 200]);
      }
  });

  it('does not serve the rates (services-admin owns them)', async () => {
    expect((await call(ADMIN, 'GET', '/api/v1.0/reportbuilder/rates/x')).statusCode).toBe(404);
  });
});

describe('paths with and without their trailing slash', () => {
  it('answers every registered route both ways, and the gateway sends both forms to reportbuilder', async () => {
    expect(await trailingSlashProblems(rb.app, { service: 'reportbuilder' })).toEqual([]);
  });
});
