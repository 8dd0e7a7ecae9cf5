// One file on purpose (over 500 lines): every describe reads the one history built by hand below (its
// requests, status lines and jobs, worked out figure by figure); split, each file would build it again.
import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import {
  INSIGHT_API,
  INSIGHT_TEXTS,
  REQUEST_STATUSES,
  ROLE,
  SESSION_COOKIE,
  type InsightAnswer,
  type InsightQuery,
} from '@portal/contracts';
import { DEFAULT_AGEING_TARGETS } from '@portal/domain';
import type { Caller } from '@portal/server-kit';
import { historyFigures } from '../insight/exact';
import { insightScope } from '../insight/scope';
import {
  ADMIN,
  CLAIMS,
  OPERATOR,
  PLAIN,
  QC,
  env,
  signSession,
  useRequestsApp,
  userByEmail,
} from '../testing/harness';

// The operations dashboard (issue 24) over a history built by hand: a handful of requests whose every status
// line has a known time, so each figure has one right answer, worked out below in the comments. The route
// answers from the rollup, whose medians and p90s are within the hour: those are worked out against the
// exact read (insight/exact.ts), and the route's checked to be within the hour of it.

const OP1 = { id: randomUUID(), name: 'Op One' };
const OP2 = { id: randomUUID(), name: 'Op Two' };
const QCER = { id: randomUUID(), name: 'Q Checker' };
const OWNER = { id: randomUUID(), name: 'Owner' };

/** A SAST time in January 2026 (or December 2025): '01-05 08:00'. */
const sast = (when: string) => {
  const [md, hm] = when.split(' ');
  const year = md.startsWith('12-') || md.startsWith('09-') ? '2025' : '2026';
  return new Date(`${year}-${md}T${hm}:00+02:00`);
};
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);

type Line = [at: string, from: string, to: string, by: { id: string; name: string }];
const ids: Record<string, string> = {};

async function request(
  key: string,
  fields: { type: string; subtype: string; group: string; created: Date; status: string; statusAt: Date },
  lines: Line[] = [],
) {
  const [group] = await env.db.dataSource.query(
    'SELECT id, name, code FROM identity.groups WHERE code = $1',
    [fields.group],
  );
  const [{ id }] = await env.db.dataSource.query(
    `INSERT INTO requests.requests (request_type, request_sub_type, status, user_id, user_name, user_email,
                                    group_id, group_name, group_code, created_at, status_changed_at)
     VALUES ($1, $2, $3, $4, 'Owner', 'owner@insight.test', $5, $6, $7, $8, $9) RETURNING id`,
    [
      fields.type,
      fields.subtype,
      fields.status,
      OWNER.id,
      group.id,
      group.name,
      group.code,
      fields.created,
      fields.statusAt,
    ],
  );
  ids[key] = id;
  for (const [at, from, to, by] of lines)
    await env.db.dataSource.query(
      `INSERT INTO requests.request_history (request_id, at, user_id, user_name, field, from_value, to_value)
       VALUES ($1, $2, $3, $4, 'status', $5, $6)`,
      [id, sast(at), by.id, by.name, from, to],
    );
}

const RVE = 'Replacement Value Estimate';

/**
 * The period: Monday 5 to Sunday 11 January 2026.
 * R1 SAVI KMI: created 01-05 08:00, Dispatch 01-06 10:00 (26 h), Delivered 01-12 (after the period).
 * R2 SAVI KMI: created 01-05 09:00, sent back once by QC, Dispatch 01-07 11:00 (50 h).
 * R3 IRIS HVV: created 01-06 08:00, Dispatch 01-07 08:00 (24 h).
 * R4 SAVI KMI: created in December and dispatched then; disputed in the period and approved again (not a
 *    first Dispatch: no turnaround, but a QC decision).
 * R5 SAVI KMI: created 01-09 09:00, still New.
 * R6, R7, R8: created now (outside the period), for the late list: R6 10 h in New (target 4: late),
 *    R7 2 h in New (not late), R8 HVV 100 h in progress (target 48: late).
 */
async function buildHistory() {
  await request(
    'R1',
    {
      type: 'SAVI',
      subtype: RVE,
      group: 'KMI',
      created: sast('01-05 08:00'),
      status: 'Delivered',
      statusAt: sast('01-12 09:00'),
    },
    [
      ['01-05 10:00', 'New', 'Ready for QS', QCER],
      ['01-05 12:00', 'Ready for QS', 'In progress', OP1],
      ['01-06 08:00', 'In progress', 'QC check', OP1],
      ['01-06 10:00', 'QC check', 'Dispatch', QCER],
      ['01-12 09:00', 'Dispatch', 'Delivered', QCER],
    ],
  );
  await request(
    'R2',
    {
      type: 'SAVI',
      subtype: RVE,
      group: 'KMI',
      created: sast('01-05 09:00'),
      status: 'Dispatch',
      statusAt: sast('01-07 11:00'),
    },
    [
      ['01-05 11:00', 'New', 'Ready for QS', QCER],
      ['01-05 13:00', 'Ready for QS', 'In progress', OP2],
      ['01-06 09:00', 'In progress', 'QC check', OP2],
      ['01-06 11:00', 'QC check', 'Query', QCER],
      ['01-06 13:00', 'Query', 'In progress', OP2],
      ['01-07 09:00', 'In progress', 'QC check', OP2],
      ['01-07 11:00', 'QC check', 'Dispatch', QCER],
    ],
  );
  await request(
    'R3',
    {
      type: 'IRIS',
      subtype: 'Report',
      group: 'HVV',
      created: sast('01-06 08:00'),
      status: 'Dispatch',
      statusAt: sast('01-07 08:00'),
    },
    [
      ['01-06 09:00', 'New', 'Ready for QS', QCER],
      ['01-06 10:00', 'Ready for QS', 'In progress', OP1],
      ['01-06 20:00', 'In progress', 'QC check', OP1],
      ['01-07 08:00', 'QC check', 'Dispatch', QCER],
    ],
  );
  await request(
    'R4',
    {
      type: 'SAVI',
      subtype: RVE,
      group: 'KMI',
      created: sast('12-20 08:00'),
      status: 'Dispatch',
      statusAt: sast('01-08 12:00'),
    },
    [
      ['12-20 10:00', 'New', 'Ready for QS', QCER],
      ['12-21 08:00', 'Ready for QS', 'In progress', OP1],
      ['12-22 08:00', 'In progress', 'QC check', OP1],
      ['12-22 10:00', 'QC check', 'Dispatch', QCER],
      ['01-08 08:00', 'Dispatch', 'Query', OWNER],
      ['01-08 10:00', 'Query', 'QC check', OP1],
      ['01-08 12:00', 'QC check', 'Dispatch', QCER],
    ],
  );
  await request('R5', {
    type: 'SAVI',
    subtype: RVE,
    group: 'KMI',
    created: sast('01-09 09:00'),
    status: 'New',
    statusAt: sast('01-09 09:00'),
  });
  // Dispatched in September, more than INSIGHT_LOOKBACK_DAYS before the period: its earlier lines are looked up.
  await request(
    'R9',
    {
      type: 'SAVI',
      subtype: RVE,
      group: 'KMI',
      created: new Date('2025-09-01T08:00:00+02:00'),
      status: 'Dispatch',
      statusAt: sast('01-10 10:00'),
    },
    [
      ['09-03 10:00', 'QC check', 'Dispatch', QCER],
      ['01-10 08:00', 'Dispatch', 'Query', OWNER],
      ['01-10 09:00', 'Query', 'QC check', OP2],
      ['01-10 10:00', 'QC check', 'Dispatch', QCER],
    ],
  );
  await request('R6', {
    type: 'SAVI',
    subtype: RVE,
    group: 'KMI',
    created: hoursAgo(10),
    status: 'New',
    statusAt: hoursAgo(10),
  });
  await request('R7', {
    type: 'SAVI',
    subtype: RVE,
    group: 'KMI',
    created: hoursAgo(2),
    status: 'New',
    statusAt: hoursAgo(2),
  });
  await request('R8', {
    type: 'IRIS',
    subtype: 'Report',
    group: 'HVV',
    created: hoursAgo(100),
    status: 'In progress',
    statusAt: hoursAgo(100),
  });
}

useRequestsApp({ seed: async () => undefined });
beforeAll(buildHistory);

const PERIOD = 'from=2026-01-05&to=2026-01-11';

/** Calls as the user (a group's admin with groupAdmin in the session, as identity signs it). */
async function get(email: string, url: string, groupAdmin = false) {
  const user = await userByEmail(email);
  const session = signSession(groupAdmin ? ({ ...user, groupAdmin: true } as typeof user) : user);
  return env.app.inject({ method: 'GET', url, cookies: { [SESSION_COOKIE]: session } });
}

/**
 * The exact read's figures (percentile_cont over real hours) for the period, as an administrator; the
 * statuses in the answer's order.
 */
const exactFigures = async (query: InsightQuery) => {
  const figures = await historyFigures(
    env.appDatabase,
    insightScope(
      { id: randomUUID(), roles: ['authenticated', ROLE.admin], group: null } as unknown as Caller,
      query,
    ),
    DEFAULT_AGEING_TARGETS,
  );
  const order = REQUEST_STATUSES as readonly string[];
  figures.statusTimes.sort((a, b) => order.indexOf(a.status) - order.indexOf(b.status));
  return figures;
};

type Percentiles = { medianHours: number | null; p90Hours: number | null };
/** The route's rows (the rollup) are the exact read's, each median and p90 within the hour (its histogram's). */
function withinTheHour<T extends Percentiles>(rolled: T[], exact: T[]) {
  const rest = ({ medianHours: _median, p90Hours: _p90, ...row }: T) => row;
  expect(rolled.map(rest)).toEqual(exact.map(rest));
  rolled.forEach((row, i) => {
    for (const key of ['medianHours', 'p90Hours'] as const) {
      if (exact[i][key] === null) expect(row[key]).toBeNull();
      else expect(Math.abs((row[key] as number) - (exact[i][key] as number))).toBeLessThanOrEqual(1);
    }
  });
}

const groupId = async (code: string) =>
  (
    (await env.db.dataSource.query('SELECT id FROM identity.groups WHERE code = $1', [code])) as {
      id: string;
    }[]
  )[0].id;

describe('GET /api/v1.0/requests/insight over a history built by hand', () => {
  let answer: InsightAnswer;
  beforeAll(async () => {
    const res = await get(ADMIN, `${INSIGHT_API.insight}?${PERIOD}`);
    expect(res.statusCode).toBe(200);
    answer = res.json();
  });

  it('buckets the period by SAST day', () => {
    expect(answer.period).toEqual({
      from: '2026-01-05',
      to: '2026-01-11',
      bucket: 'day',
      buckets: [
        '2026-01-05',
        '2026-01-06',
        '2026-01-07',
        '2026-01-08',
        '2026-01-09',
        '2026-01-10',
        '2026-01-11',
      ],
    });
    expect(answer.targets).toEqual(DEFAULT_AGEING_TARGETS);
  });

  it('counts requests created and finished (first Dispatch) per day, type and sub-type, and per group', () => {
    expect(answer.flow).toEqual([
      { bucket: '2026-01-05', type: 'SAVI', subtype: RVE, created: 2, finished: 0 },
      { bucket: '2026-01-06', type: 'IRIS', subtype: 'Report', created: 1, finished: 0 },
      { bucket: '2026-01-06', type: 'SAVI', subtype: RVE, created: 0, finished: 1 },
      { bucket: '2026-01-07', type: 'IRIS', subtype: 'Report', created: 0, finished: 1 },
      { bucket: '2026-01-07', type: 'SAVI', subtype: RVE, created: 0, finished: 1 },
      { bucket: '2026-01-09', type: 'SAVI', subtype: RVE, created: 1, finished: 0 },
    ]);
    expect(answer.groups.map(({ groupName, created, finished }) => [groupName, created, finished])).toEqual([
      [expect.any(String), 3, 2],
      [expect.any(String), 1, 1],
    ]);
  });

  it('gives the turnaround New → Dispatch: median and p90 hours (percentile_cont), overall and per type', async () => {
    // 24, 26 and 50 h: the median 26; p90 at 0.9 × 2 = 1.8 → 26 + 0.8 × 24 = 45.2. SAVI 26 and 50; IRIS 24.
    const { turnaround } = await exactFigures({ from: '2026-01-05', to: '2026-01-11' });
    withinTheHour(answer.turnaround, turnaround);
    expect(turnaround).toEqual([
      { type: 'All', count: 3, medianHours: 26, p90Hours: 45.2 },
      { type: 'IRIS', count: 1, medianHours: 24, p90Hours: 24 },
      { type: 'SAVI', count: 2, medianHours: 38, p90Hours: 47.6 },
    ]);
  });

  it('gives the time spent in each status against its target', async () => {
    // QC check stays 2, 2, 2, 12, 2, 1 → median 2, p90 at 0.9 × 5 = 4.5: 2 + 0.5 × 10 = 7, one over 8 h. R4
    // waited in Dispatch from 22 December 10:00 to 8 January 08:00 (406 h), R9 from 3 September 10:00 to
    // 10 January 08:00 (3 094 h): median 1 750, p90 406 + 0.9 × 2 688 = 2 825.2.
    const { statusTimes } = await exactFigures({ from: '2026-01-05', to: '2026-01-11' });
    withinTheHour(answer.statusTimes, statusTimes);
    expect(statusTimes).toEqual([
      { status: 'New', stays: 3, medianHours: 2, p90Hours: 2, targetHours: 4, overTarget: 0 },
      { status: 'Ready for QS', stays: 3, medianHours: 2, p90Hours: 2, targetHours: 8, overTarget: 0 },
      { status: 'In progress', stays: 4, medianHours: 20, p90Hours: 20, targetHours: 48, overTarget: 0 },
      { status: 'QC check', stays: 6, medianHours: 2, p90Hours: 7, targetHours: 8, overTarget: 1 },
      { status: 'Query', stays: 3, medianHours: 2, p90Hours: 2, targetHours: 24, overTarget: 0 },
      { status: 'Dispatch', stays: 2, medianHours: 1750, p90Hours: 2825.2, targetHours: 24, overTarget: 2 },
    ]);
  });

  it('counts QC send-backs against the operator who submitted, as a rate', () => {
    // Decisions: R1 (Op One), R2 sent back and then approved (Op Two), R3 (Op One), R4 (Op One), R9 (Op Two).
    expect(answer.sendBacks).toEqual([
      { userId: null, name: 'Everyone', decisions: 6, sentBack: 1, rate: 0.1667 },
      { userId: OP1.id, name: 'Op One', decisions: 3, sentBack: 0, rate: 0 },
      { userId: OP2.id, name: 'Op Two', decisions: 3, sentBack: 1, rate: 0.3333 },
    ]);
  });

  it('counts the work per operator: reports started, submitted, approved', () => {
    expect(answer.operators).toEqual([
      { userId: OP1.id, name: 'Op One', started: 2, submitted: 3, approved: 0 },
      { userId: OP2.id, name: 'Op Two', started: 2, submitted: 3, approved: 0 },
      { userId: QCER.id, name: 'Q Checker', started: 0, submitted: 0, approved: 5 },
    ]);
  });

  it('gives the backlog by status at the end of each day', () => {
    const on = (bucket: string) =>
      Object.fromEntries(
        answer.backlog.filter((b) => b.bucket === bucket && b.count).map((b) => [b.status, b.count]),
      );
    // End of 5 January: R1 and R2 in progress, R4 and R9 dispatched before.
    expect(on('2026-01-05')).toEqual({ 'In progress': 2, Dispatch: 2 });
    // End of 6 January: R1 dispatched, R2 back in progress after QC's query, R3 in QC check.
    expect(on('2026-01-06')).toEqual({ 'In progress': 1, 'QC check': 1, Dispatch: 3 });
    // End of 8 January: R4 disputed and approved again the same day.
    expect(on('2026-01-08')).toEqual({ Dispatch: 5 });
    // End of 11 January: R5 waiting; R1's delivery on the 12th is after the period.
    expect(on('2026-01-11')).toEqual({ New: 1, Dispatch: 5 });
  });

  it('lists the requests late now, most overdue first, with the whole hours in their status', () => {
    expect(answer.late.total).toBe(7);
    expect(answer.late.rows.map((row) => row.requestID)).toEqual(
      ['R3', 'R2', 'R4', 'R5', 'R9', 'R8', 'R6'].map((key) => ids[key]),
    );
    const r6 = answer.late.rows.find((row) => row.requestID === ids.R6)!;
    expect(r6).toMatchObject({ status: 'New', hoursInStatus: 10, targetHours: 4, hoursOver: 6 });
    expect(answer.late.rows.find((row) => row.requestID === ids.R8)).toMatchObject({
      hoursInStatus: 100,
      hoursOver: 52,
    });
    expect(answer.late.rows.some((row) => row.requestID === ids.R7)).toBe(false);
  });

  it('lists the PDF and export queues to administrators', () => {
    expect(answer.queues.map((q) => q.queue)).toEqual(['reportbuilder-pdf', 'request-console']);
    expect(answer.queues[0]).toMatchObject({
      done: 0,
      failedInPeriod: 0,
      durationP50Seconds: null,
      waiting: 0,
    });
  });

  it('narrows to one type, and pages the late list', async () => {
    const res = await get(OPERATOR, `${INSIGHT_API.insight}?${PERIOD}&type=IRIS&latePage=1`);
    expect(res.statusCode).toBe(200);
    const iris: InsightAnswer = res.json();
    const exactIris = await exactFigures({ from: '2026-01-05', to: '2026-01-11', type: 'IRIS' });
    expect(exactIris.turnaround[0]).toEqual({ type: 'All', count: 1, medianHours: 24, p90Hours: 24 });
    withinTheHour(iris.turnaround, exactIris.turnaround);
    expect(iris.late.rows.map((row) => row.requestID)).toEqual([ids.R3, ids.R8]);
    const page2: InsightAnswer = (await get(ADMIN, `${INSIGHT_API.insight}?${PERIOD}&latePage=2`)).json();
    expect(page2.late).toMatchObject({ total: 7, page: 2, rows: [] });
  });
});

describe('job durations from the jobs recorded in PostgreSQL', () => {
  it('gives p50/p95 seconds of the PDF jobs done in the period', async () => {
    const subject = randomUUID();
    for (const [i, seconds] of [10, 20, 30, 40, 50].entries())
      await env.db.dataSource.query(
        `INSERT INTO pdf.jobs (id, kind, subject_id, version, state, started_at, finished_at)
         VALUES ($1, 'savi', $2, $3, 'done', $4, $5)`,
        [
          `savi:${subject}:v${i}`,
          subject,
          i,
          sast('01-06 10:00'),
          new Date(sast('01-06 10:00').getTime() + seconds * 1000),
        ],
      );
    await env.db.dataSource.query(
      `INSERT INTO pdf.jobs (id, kind, subject_id, version, state, started_at, finished_at)
       VALUES ($1, 'savi', $2, 9, 'failed', $3, $3)`,
      [`savi:${subject}:v9`, subject, sast('01-07 10:00')],
    );
    const answer: InsightAnswer = (await get(ADMIN, `${INSIGHT_API.insight}?${PERIOD}`)).json();
    // 10…50 s: p50 30; p95 at 0.95 × 4 = 3.8 → 40 + 0.8 × 10 = 48.
    expect(answer.queues[0]).toMatchObject({
      done: 5,
      failedInPeriod: 1,
      durationP50Seconds: 30,
      durationP95Seconds: 48,
    });
  });
});

describe('who may see it', () => {
  it('lets a group admin see their own group only, and refuses another group (403)', async () => {
    const kmi = await groupId('KMI');
    const own = await get(CLAIMS, `${INSIGHT_API.insight}?${PERIOD}`, true);
    expect(own.statusCode).toBe(200);
    const answer: InsightAnswer = own.json();
    expect(answer.filters.group).toBe(kmi);
    // KMI's: R1 and R2 finished (R3 is HVV's); no queues (the portal's, not a group's).
    const exactKmi = await exactFigures({ from: '2026-01-05', to: '2026-01-11', group: kmi });
    expect(exactKmi.turnaround[0]).toEqual({ type: 'All', count: 2, medianHours: 38, p90Hours: 47.6 });
    withinTheHour(answer.turnaround, exactKmi.turnaround);
    expect(answer.late.rows.map((row) => row.requestID)).toEqual([ids.R2, ids.R4, ids.R5, ids.R9, ids.R6]);
    expect(answer.queues).toEqual([]);
    expect((await get(CLAIMS, `${INSIGHT_API.insight}?${PERIOD}&group=${kmi}`, true)).statusCode).toBe(200);

    const other = await get(CLAIMS, `${INSIGHT_API.insight}?${PERIOD}&group=${await groupId('HVV')}`, true);
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe(INSIGHT_TEXTS.otherGroup);
    const otherExport = await get(
      CLAIMS,
      `${INSIGHT_API.exportCsv}?chart=late&group=${await groupId('HVV')}`,
      true,
    );
    expect(otherExport.statusCode).toBe(403);
  });

  it('lets an administrator or SAVi operator name any group', async () => {
    const hvv = await groupId('HVV');
    const res = await get(OPERATOR, `${INSIGHT_API.insight}?${PERIOD}&group=${hvv}`);
    expect(res.statusCode).toBe(200);
    expect((res.json() as InsightAnswer).late.rows.map((row) => row.requestID)).toEqual([ids.R3, ids.R8]);
  });

  it('refuses a plain requester (403), a stale group-admin session (403) and no session (401)', async () => {
    for (const email of [PLAIN]) {
      const res = await get(email, `${INSIGHT_API.insight}?${PERIOD}`);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(INSIGHT_TEXTS.staffOnly);
    }
    // A group's admin whose group no longer names them: the role in the session is stale, the row says no.
    const stale = await get(PLAIN, `${INSIGHT_API.insight}?${PERIOD}`, true);
    expect(stale.statusCode).toBe(403);
    expect((await env.app.inject({ method: 'GET', url: INSIGHT_API.insight })).statusCode).toBe(401);
    // QC's account is also a SAVi operator in the seed: let in.
    expect((await get(QC, `${INSIGHT_API.insight}?${PERIOD}`)).statusCode).toBe(200);
  });
});

describe('bad parameters', () => {
  it.each([
    ['from=2026-01-12&to=2026-01-05', INSIGHT_TEXTS.badRange],
    ['from=2025-01-01&to=2026-01-05', INSIGHT_TEXTS.tooLong],
    ['from=2026-02-30&to=2026-03-01', INSIGHT_TEXTS.badDay('from')],
    ['from=2026-1-5', null],
    ['group=not-a-uuid', null],
    ['type=HOUSE', 'type must be one of SAVI, AVS, IRIS.'],
    ['subtype=Other', null],
    ['latePage=0', null],
  ])('answers 400 for %s', async (query, message) => {
    const res = await get(ADMIN, `${INSIGHT_API.insight}?${query}`);
    expect(res.statusCode).toBe(400);
    if (message) expect(res.json().message).toBe(message);
  });

  it('answers 400 for an export without a known chart', async () => {
    expect((await get(ADMIN, `${INSIGHT_API.exportCsv}?${PERIOD}`)).statusCode).toBe(400);
    expect((await get(ADMIN, `${INSIGHT_API.exportXlsx}?${PERIOD}&chart=pie`)).statusCode).toBe(400);
  });
});

describe('exports', () => {
  it("writes a chart's rows as CSV", async () => {
    const res = await get(ADMIN, `${INSIGHT_API.exportCsv}?${PERIOD}&chart=turnaround`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="insight-turnaround-2026-01-05_2026-01-11.csv"',
    );
    expect(res.body).toBe(
      // The rollup's estimates: a whole-hour value (24 h) is taken as the middle of its hour (23.5 h).
      'Type,Finished,Median hours,P90 hours\r\nAll,3,25.5,44.7\r\nIRIS,1,23.5,23.5\r\nSAVI,2,37.5,47.1\r\n',
    );
  });

  it('writes the late list as a spreadsheet', async () => {
    const res = await get(ADMIN, `${INSIGHT_API.exportXlsx}?${PERIOD}&chart=late`);
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.name).toBe('Late requests');
    expect(sheet.rowCount).toBe(8);
    expect(sheet.getRow(1).getCell(1).value).toBe('GRiP reference');
    expect(sheet.getRow(2).getCell(4).value).toBe('Dispatch');
  });
});
