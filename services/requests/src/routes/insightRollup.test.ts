import { randomUUID } from 'node:crypto';
import { DEFAULT_AGEING_TARGETS } from '@portal/domain';
import { ROLE } from '@portal/contracts';
import type { Caller } from '@portal/server-kit';
import { changeRequest, changeRequests } from '../queue/changes';
import { histogramPercentile, rollupFigures, totalPieces } from '../insight/rollup';
import { insightScope, REQUEST_SUB_TYPES, type InsightScope } from '../insight/scope';
import { backlogCounts, backlogSeries, createdCounts, historyFigures } from '../insight/exact';
import { env, useRequestsApp } from '../testing/harness';

// The operations dashboard's rollup (requests.insight_rollup, kept by triggers) against the exact read of
// the status lines (store.ts), over a seeded random history of a few hundred requests, after a status change
// by each writer: the console's single and bulk changes (queue/changes.ts), the address editor's "located"
// (an address and a status line in one statement), IRiS finalising (a line with no user), several moves in
// one transaction (one rolled back to a savepoint), a line written out of order, a line removed, a request
// moved to another group and type, a request removed.

/** mulberry32: the same history on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOUR = 3_600_000;
const TYPES = ['SAVI', 'AVS', 'IRIS'];
/** Where a request may go from each status (the console's workflow, roughly), and how often it stops. */
const NEXT: Record<string, string[]> = {
  New: ['Ready for QS', 'Ready for QS', 'Cancelled_rejected'],
  'Ready for QS': ['In progress'],
  'In progress': ['QC check', 'QC check', 'Pending'],
  Pending: ['In progress'],
  'QC check': ['Dispatch', 'Dispatch', 'Query'],
  Query: ['In progress'],
  Dispatch: ['Delivered', 'QC check'],
  Delivered: ['Finalised'],
};

const caller = (id: string, name: string): Caller =>
  ({
    id,
    name,
    email: `${name.replace(/\W/g, '').toLowerCase()}@rollup.test`,
    roles: ['authenticated', ROLE.admin],
    claimsUser: false,
    group: null,
    services: [],
  }) as unknown as Caller;

const operators = Array.from({ length: 6 }, (_, i) => ({ id: randomUUID(), name: `Operator ${i + 1}` }));
const requestIds: string[] = [];
const q = (sql: string, values: unknown[] = []) => env.db.dataSource.query(sql, values);

async function buildHistory() {
  const next = random(24);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const groups = (
    (await q('SELECT id, name, code FROM identity.groups ORDER BY code LIMIT 4')) as {
      id: string;
      name: string;
      code: string;
    }[]
  ).concat([{ id: null as unknown as string, name: '', code: '' }]);
  const now = Date.now();
  for (let i = 0; i < 300; i++) {
    const group = pick(groups);
    const created = now - next() * 150 * 24 * HOUR;
    // A walk through the workflow, 10 minutes to 3 days a step (sometimes two steps in one day), up to now.
    const lines: [Date, string, string, { id: string; name: string }][] = [];
    let status = 'New';
    let at = created;
    while (NEXT[status] && next() < 0.85) {
      at += (next() < 0.3 ? 0.2 + next() * 3 : 1 + next() * 72) * HOUR;
      if (at >= now) break;
      const to = pick(NEXT[status]);
      lines.push([new Date(at), status, to, pick(operators)]);
      status = to;
    }
    const [{ id }] = (await q(
      `INSERT INTO requests.requests (request_type, request_sub_type, status, user_id, user_name, user_email,
                                      group_id, group_name, group_code, created_at, status_changed_at)
       VALUES ($1, $2, $3, $4, 'Owner', 'owner@rollup.test', $5, $6, $7, $8, $9) RETURNING id`,
      [
        pick(TYPES),
        pick(REQUEST_SUB_TYPES),
        status,
        randomUUID(),
        group.id,
        group.name || null,
        group.code || null,
        new Date(created),
        new Date(at),
      ],
    )) as { id: string }[];
    requestIds.push(id);
    // Every seventh request's lines are written newest first (a writer catching up out of order).
    const ordered = i % 7 === 3 ? [...lines].reverse() : lines;
    for (const [when, from, to, by] of ordered)
      await q(
        `INSERT INTO requests.request_history (request_id, at, user_id, user_name, field, from_value, to_value)
         VALUES ($1, $2, $3, $4, 'status', $5, $6)`,
        [id, when, by.id, by.name, from, to],
      );
  }
}

/** The requests now in a status, newest first. */
const inStatus = async (status: string, count: number) =>
  (
    (await q('SELECT id FROM requests.requests WHERE status = $1 ORDER BY created_at DESC, id LIMIT $2', [
      status,
      count,
    ])) as { id: string }[]
  ).map((row) => row.id);

async function writerChanges() {
  const ds = env.appDatabase;
  const op = operators[0];
  // The console's single change: New → Ready for QS, then the same request on to In progress (twice today).
  const [single] = await inStatus('New', 1);
  for (const to of ['Ready for QS', 'In progress'])
    await changeRequest(ds, { id: single, caller: caller(op.id, op.name) }, (row) => ({
      set: { status: to },
      history: [{ field: 'status', from: row.status, to }],
    }));
  // The console's bulk change: two requests in QC check approved together.
  const bulk = await inStatus('QC check', 2);
  await changeRequests(ds, { ids: bulk, caller: caller(op.id, op.name) }, (row) => ({
    set: { status: 'Dispatch' },
    history: [{ field: 'status', from: row.status, to: 'Dispatch' }],
  }));
  // The address editor's "located" (avs-editor cantLocate.ts): an address line and a status line together.
  const [located] = await inStatus('Ready for QS', 1);
  await ds.transaction(async (em) => {
    await em.query(
      `UPDATE requests.requests SET status = 'In progress', status_changed_at = now() WHERE id = $1`,
      [located],
    );
    await em.query(
      `INSERT INTO requests.request_history (request_id, user_id, user_name, field, from_value, to_value, comment)
       VALUES ($1, $2, $3, 'address', NULL, '1 Main Road', 'Located'), ($1, $2, $3, 'status', 'Ready for QS', 'In progress', 'Located')`,
      [located, op.id, op.name],
    );
  });
  // IRiS finalising a delivered request (iris store.ts): a status line with no user.
  const [finalised] = await inStatus('Delivered', 1);
  await ds.transaction(async (em) => {
    await em.query(
      `UPDATE requests.requests SET status = 'Finalised', status_changed_at = now() WHERE id = $1`,
      [finalised],
    );
    await em.query(
      `INSERT INTO requests.request_history (request_id, user_id, user_name, field, from_value, to_value, comment)
       VALUES ($1, NULL, 'IRiS', 'status', 'Delivered', 'Finalised', 'Risk report PDF ready (version 1).')`,
      [finalised],
    );
  });
  // Several requests moved in one transaction, and a further move rolled back to a savepoint: the rollup is
  // written once, at commit, from the facts that stayed (requests.insight_rollup_pending).
  const batch = await inStatus('In progress', 3);
  await ds.transaction(async (em) => {
    const move = async (id: string, from: string, to: string) => {
      await em.query(`UPDATE requests.requests SET status = $2, status_changed_at = now() WHERE id = $1`, [
        id,
        to,
      ]);
      await em.query(
        `INSERT INTO requests.request_history (request_id, user_id, user_name, field, from_value, to_value)
         VALUES ($1, $2, $3, 'status', $4, $5)`,
        [id, op.id, op.name, from, to],
      );
    };
    for (const id of batch) await move(id, 'In progress', 'QC check');
    await em.query('SAVEPOINT undone');
    await move(batch[0], 'QC check', 'Dispatch');
    await em.query('ROLLBACK TO SAVEPOINT undone');
  });
  // A line written late, between two of a request's lines; a line removed; a request moved to another group
  // and type; a request removed (its lines go with it).
  const [{ request_id: backdated, at }] = (await q(
    `SELECT request_id, min(at) + interval '1 minute' AS at FROM requests.request_history
      WHERE field = 'status' GROUP BY request_id HAVING count(*) >= 3 ORDER BY request_id LIMIT 1`,
  )) as { request_id: string; at: Date }[];
  await q(
    `INSERT INTO requests.request_history (request_id, at, user_id, user_name, field, from_value, to_value)
     VALUES ($1, $2, $3, $4, 'status', 'Ready for QS', 'Ready for QS')`,
    [backdated, at, op.id, op.name],
  );
  await q(
    `DELETE FROM requests.request_history WHERE id = (
       SELECT id FROM requests.request_history WHERE field = 'status' AND to_value = 'Dispatch' ORDER BY id LIMIT 1)`,
  );
  const [{ id: otherGroup }] = (await q('SELECT id FROM identity.groups ORDER BY code DESC LIMIT 1')) as {
    id: string;
  }[];
  await q(`UPDATE requests.requests SET group_id = $2, request_type = 'AVS' WHERE id = $1`, [
    requestIds[10],
    otherGroup,
  ]);
  await q('DELETE FROM requests.requests WHERE id = $1', [requestIds[20]]);
}

useRequestsApp({ seed: async () => undefined });
beforeAll(async () => {
  await buildHistory();
  await writerChanges();
}, 120_000);

const admin = caller(randomUUID(), 'Admin');
const day = (daysAgo: number) =>
  new Date(Date.now() + 2 * HOUR - daysAgo * 24 * HOUR).toISOString().slice(0, 10);
const scopes: [string, InsightScope][] = [
  ['160 days', insightScope(admin, { from: day(159), to: day(0) })],
  ['100 days ending a month ago, SAVI', insightScope(admin, { from: day(130), to: day(31), type: 'SAVI' })],
  ['70 days, one sub-type', insightScope(admin, { from: day(75), to: day(6), subtype: 'Report' })],
  ['a week, by day', insightScope(admin, { from: day(6), to: day(0) })],
];
/** The first or last day of the month `monthsAgo` before this one (SAST). */
const monthDay = (monthsAgo: number, last = false) => {
  const [year, month] = day(0).split('-').map(Number);
  return new Date(Date.UTC(year, month - 1 - monthsAgo + (last ? 1 : 0), last ? 0 : 1))
    .toISOString()
    .slice(0, 10);
};
scopes.push(
  // Whole months only, and months with part-months at both ends (read as weeks and days).
  [
    'the four whole months before this one',
    insightScope(admin, { from: monthDay(4), to: monthDay(1, true) }),
  ],
  [
    'from a 15th to the 14th, three months on',
    insightScope(admin, {
      from: monthDay(4).replace(/01$/, '15'),
      to: monthDay(1).replace(/01$/, '14'),
    }),
  ],
);

const ONE_GROUP = '150 days of one group';
/** One group's long period (its rows are kept apart as well), once the history is there. */
beforeAll(async () => {
  const [{ group_id: group }] = (await q(
    `SELECT group_id FROM requests.requests WHERE group_id IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
  )) as { group_id: string }[];
  scopes.find(([label]) => label === ONE_GROUP)![1].group = group;
});
scopes.push([ONE_GROUP, insightScope(admin, { from: day(149), to: day(0) })]);

/** The exact percentile within the rollup's hour (the histogram's resolution). */
const withinAnHour = (rolled: number | null, exact: number | null) => {
  if (exact === null) return expect(rolled).toBeNull();
  expect(Math.abs((rolled as number) - exact)).toBeLessThanOrEqual(1.01);
};

describe.each(scopes)('the rollup over %s', (_label, scope) => {
  it('counts what the exact read counts: created, finished, per group, work, QC decisions', async () => {
    const db = env.appDatabase;
    const [created, exact, { created: rolledCreated, history: rolled }] = await Promise.all([
      createdCounts(db, scope),
      historyFigures(db, scope, DEFAULT_AGEING_TARGETS),
      rollupFigures(db, scope, DEFAULT_AGEING_TARGETS),
    ]);
    // Compared as sets of rows, each with its keys in one order.
    const sorted = <T extends object>(rows: T[]) =>
      rows.map((row) => JSON.stringify(Object.entries(row).sort(([a], [b]) => a.localeCompare(b)))).sort();
    expect(sorted(rolledCreated.flow)).toEqual(sorted(created.flow));
    expect(sorted(rolledCreated.groups)).toEqual(sorted(created.groups));
    expect(sorted(rolled.finishedFlow)).toEqual(sorted(exact.finishedFlow));
    expect(sorted(rolled.finishedGroups.map(({ groupId, finished }) => ({ groupId, finished })))).toEqual(
      sorted(exact.finishedGroups.map(({ groupId, finished }) => ({ groupId, finished }))),
    );
    expect(sorted(rolled.operators)).toEqual(sorted(exact.operators));
    expect(sorted(rolled.sendBacks)).toEqual(sorted(exact.sendBacks));
    expect(exact.finishedFlow.length).toBeGreaterThan(0);
  });

  it('gives the turnaround and time in each status within the hour, and the stays over target exactly', async () => {
    const db = env.appDatabase;
    const [exact, { history: rolled }] = await Promise.all([
      historyFigures(db, scope, DEFAULT_AGEING_TARGETS),
      rollupFigures(db, scope, DEFAULT_AGEING_TARGETS),
    ]);
    expect(rolled.turnaround.map((t) => [t.type, t.count])).toEqual(
      exact.turnaround.map((t) => [t.type, t.count]),
    );
    rolled.turnaround.forEach((t, i) => {
      withinAnHour(t.medianHours, exact.turnaround[i].medianHours);
      withinAnHour(t.p90Hours, exact.turnaround[i].p90Hours);
    });
    const byStatus = new Map(exact.statusTimes.map((s) => [s.status, s]));
    expect(rolled.statusTimes.map((s) => s.status).sort()).toEqual([...byStatus.keys()].sort());
    for (const s of rolled.statusTimes) {
      const e = byStatus.get(s.status)!;
      expect([s.stays, s.overTarget, s.targetHours]).toEqual([e.stays, e.overTarget, e.targetHours]);
      withinAnHour(s.medianHours, e.medianHours);
      withinAnHour(s.p90Hours, e.p90Hours);
    }
  });

  it('draws the backlog the exact read draws', async () => {
    const db = env.appDatabase;
    const [counts, { backlog: rolled }] = await Promise.all([
      backlogCounts(db, scope),
      rollupFigures(db, scope, DEFAULT_AGEING_TARGETS),
    ]);
    expect(rolled).toEqual(backlogSeries(scope.buckets, counts));
  });
});

it('keeps the rollup equal to one made again from the whole history', async () => {
  // The migration's backfill, run again into a scratch table: what the triggers kept must be the same.
  const kept = (await q(
    `SELECT scope_group, grain, start::text, kind, request_type, subtype, status, key_id, n::int,
            (SELECT coalesce(jsonb_object_agg(i - 1, hist[i]) FILTER (WHERE hist[i] <> 0), '{}')
               FROM generate_subscripts(hist, 1) i) AS hist
       FROM requests.insight_rollup WHERE n <> 0
      ORDER BY 1, 2, 3, 4, 5, 6, 7, 8`,
  )) as unknown[];
  const fresh = (await q(
    `WITH f AS (
       SELECT s.scope, g.grain, g.start, x.kind, r.request_type, coalesce(r.request_sub_type, '') AS subtype, x.status,
              x.key_id, x.hours, x.n
         FROM requests.requests r,
              LATERAL requests.insight_facts(r.id, r.created_at, r.status, r.group_id, NULL, NULL) x,
              LATERAL (VALUES ('d'::"char", x.day), ('w'::"char", date_trunc('week', x.day)::date),
                              ('m'::"char", date_trunc('month', x.day)::date)) g(grain, start),
              -- A group's own rows keep no per-group counts (its created and finished are them).
              LATERAL (SELECT NULL::uuid AS scope UNION ALL SELECT r.group_id WHERE r.group_id IS NOT NULL
                         AND x.kind NOT IN ('created_group', 'finished_group')) s
     ), byHour AS (
       SELECT scope AS scope_group, grain, start, kind, request_type, subtype, status, key_id, hours, sum(n) AS n
         FROM f GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
     )
     SELECT scope_group, grain, start::text, kind, request_type, subtype, status, key_id, sum(n)::int AS n,
            coalesce(jsonb_object_agg(hours, n) FILTER (WHERE hours IS NOT NULL AND n <> 0), '{}') AS hist
       FROM byHour GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
     HAVING sum(n) <> 0
      ORDER BY 1, 2, 3, 4, 5, 6, 7, 8`,
  )) as unknown[];
  expect(kept.length).toBeGreaterThan(1000);
  expect(kept).toEqual(fresh);
  // Every transaction's facts were written at its commit; none is left waiting.
  expect(await q('SELECT count(*)::int AS n FROM requests.insight_rollup_pending')).toEqual([{ n: 0 }]);
});

it('counts the late requests (each status now, from the rollup, less the recent) as a count of them does', async () => {
  const { lateRequests } = await import('../insight/store');
  for (const [, scope] of scopes) {
    const params: unknown[] = [JSON.stringify(DEFAULT_AGEING_TARGETS)];
    const filters = [
      ...(scope.group ? [`r.group_id = $${params.push(scope.group)}`] : []),
      ...(scope.type ? [`r.request_type = $${params.push(scope.type)}`] : []),
      ...(scope.subtype ? [`r.request_sub_type = $${params.push(scope.subtype)}`] : []),
    ];
    const [{ n }] = (await q(
      `SELECT count(*)::int AS n FROM requests.requests r
         JOIN jsonb_each_text($1::jsonb) t(status, hours) ON t.status = r.status
        WHERE r.status_changed_at <= now() - (floor(t.hours::float8) + 1) * interval '1 hour'
          ${filters.map((f) => `AND ${f}`).join(' ')}`,
      params,
    )) as { n: number }[];
    expect((await lateRequests(env.appDatabase, scope, DEFAULT_AGEING_TARGETS)).total).toBe(n);
  }
});

it('reads a period as the months, weeks (Monday to Sunday) and days wholly in it', () => {
  const n = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
  const text = (d: number | null) =>
    d === null ? null : new Date(d * 86_400_000).toISOString().slice(0, 10);
  const pieces = (from: string | null, to: string) =>
    totalPieces(from === null ? null : n(from), n(to)).map((p) => [p.grain, text(p.first), text(p.last)]);
  // A year from a Saturday: two days, eleven months, then November's Sunday, two weeks and six days.
  expect(pieces('2025-11-29', '2026-11-28')).toEqual([
    ['d', '2025-11-29', '2025-11-30'],
    ['m', '2025-12-01', '2026-10-01'],
    ['w', '2026-11-02', '2026-11-16'],
    ['d', '2026-11-01', '2026-11-01'],
    ['d', '2026-11-23', '2026-11-28'],
  ]);
  // Everything before a Tuesday (the backlog's start): every month before its own, then its days.
  expect(pieces(null, '2026-03-10')).toEqual([
    ['m', null, '2026-02-01'],
    ['w', '2026-03-02', '2026-03-02'],
    ['d', '2026-03-01', '2026-03-01'],
    ['d', '2026-03-09', '2026-03-10'],
  ]);
  // Within one month and no whole week: days.
  expect(pieces('2026-11-10', '2026-11-20')).toEqual([['d', '2026-11-10', '2026-11-20']]);
  // Whole months only.
  expect(pieces('2026-01-01', '2026-03-31')).toEqual([['m', '2026-01-01', '2026-03-01']]);
});

it('estimates a percentile from whole hours as percentile_cont would within the hour', () => {
  // Values 0.5, 1.5, 1.7, 9.2 h: hours 1, 2, 2, 10.
  const histogram = new Map([
    [1, 1],
    [2, 2],
    [10, 1],
  ]);
  expect(histogramPercentile(histogram, 0.5)).toBeCloseTo(1.5, 5); // exact: 1.6
  expect(histogramPercentile(new Map(), 0.5)).toBeNull();
  expect(histogramPercentile(new Map([[0, 3]]), 0.9)).toBe(0);
});
