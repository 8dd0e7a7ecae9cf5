import { type MigrationInterface, type QueryRunner } from 'typeorm';
import {
  INSIGHT_ROLLUP_ADD,
  INSIGHT_ROLLUP_CHANGE,
  INSIGHT_ROLLUP_REBUILD,
} from './1764870000000-InsightRollup';

/**
 * The condition (on the fact aliased `fact`) under which a fact is kept in its group's own rows too: every
 * fact here; from InsightRollupGroupRows1764878000000 on, all but the per-group counts, which in a group's
 * own rows repeat its `created` and `finished`.
 */
export type InGroupRows = (fact: string) => string;
export const EVERY_KIND_IN_GROUP_ROWS: InGroupRows = () => 'true';

/**
 * Facts (`f`: request_type, subtype, grp, day, kind, status, key_id, key_name, hours, n) summed per rollup row
 * — day, week and month; every group's and (where `inGroupRows`) the request's group's; the hour histograms
 * merged — and written in one INSERT … ON CONFLICT in the key's order, so two writers lock the rows in the
 * same order. Follows a `WITH f AS (…)`.
 */
export const insightRollupApply = (inGroupRows: InGroupRows) => `
        INSERT INTO requests.insight_rollup AS r
               (scope_group, grain, start, kind, request_type, subtype, status, key_id, key_name, n, hist)
        SELECT d.* FROM (
          SELECT s.scope, g.grain, g.start, x.kind, x.request_type, x.subtype, x.status, x.key_id,
                 max(x.key_name) AS key_name, sum(x.n) AS n,
                 requests.insight_hist_of(array_agg(x.hours), array_agg(x.n)) AS hist
            FROM (SELECT f.request_type, f.subtype, f.grp, f.day, f.kind, f.status, f.key_id,
                         max(f.key_name) AS key_name, f.hours, sum(f.n)::bigint AS n
                    FROM f
                   GROUP BY f.request_type, f.subtype, f.grp, f.day, f.kind, f.status, f.key_id, f.hours
                  HAVING sum(f.n) <> 0) x,
                 LATERAL (VALUES ('d'::"char", x.day), ('w'::"char", date_trunc('week', x.day)::date),
                                 ('m'::"char", date_trunc('month', x.day)::date)) g(grain, start),
                 LATERAL (SELECT NULL::uuid AS scope UNION ALL
                          SELECT x.grp WHERE x.grp IS NOT NULL AND (${inGroupRows('x')})) s
           GROUP BY s.scope, g.grain, g.start, x.kind, x.request_type, x.subtype, x.status, x.key_id) d
         -- A request moved to another group nets to nothing in every group's rows: nothing to write there.
         WHERE d.n <> 0 OR EXISTS (SELECT 1 FROM unnest(d.hist) v WHERE v <> 0)
         ORDER BY d.scope NULLS FIRST, d.kind, d.grain, d.start, d.request_type, d.subtype, d.status, d.key_id
        ON CONFLICT ON CONSTRAINT insight_rollup_key DO UPDATE
           SET n = r.n + excluded.n, key_name = greatest(r.key_name, excluded.key_name),
               hist = requests.insight_hist_merge(r.hist, excluded.hist);`;

/** The rollup made again from the whole history (its facts as `f`, the request's group `f.group_id`). */
export const insightRollupRebuild = (
  inGroupRows: InGroupRows,
) => `CREATE OR REPLACE FUNCTION requests.insight_rollup_rebuild() RETURNS void LANGUAGE sql AS $$
      DELETE FROM requests.insight_rollup;
      INSERT INTO requests.insight_rollup
             (scope_group, grain, start, kind, request_type, subtype, status, key_id, key_name, n, hist)
      SELECT s.scope, g.grain, g.start, f.kind, f.request_type, f.subtype, f.status, f.key_id, max(f.key_name), sum(f.n),
             CASE WHEN bool_or(f.hours IS NOT NULL)
                  THEN requests.insight_hist_of(array_agg(f.hours), array_agg(f.n::bigint)) END
        FROM (SELECT r.request_type, coalesce(r.request_sub_type, '') AS subtype, r.group_id, x.*
                FROM requests.requests r,
                     LATERAL requests.insight_facts(r.id, r.created_at, r.status, r.group_id, NULL, NULL) x) f,
             LATERAL (VALUES ('d'::"char", f.day), ('w'::"char", date_trunc('week', f.day)::date),
                             ('m'::"char", date_trunc('month', f.day)::date)) g(grain, start),
             LATERAL (SELECT NULL::uuid AS scope UNION ALL
                      SELECT f.group_id WHERE f.group_id IS NOT NULL AND (${inGroupRows('f')})) s
       GROUP BY s.scope, g.grain, g.start, f.kind, f.request_type, f.subtype, f.status, f.key_id
       -- Written in the key's order: a period's rows of one figure sit on neighbouring pages.
       ORDER BY s.scope NULLS FIRST, f.kind, g.grain, g.start;
    $$`;

/**
 * A request's facts before and after a change, their difference written at once (the function
 * InsightRollupDeferred1764876000000 replaces, kept so that its down() puts it back).
 */
export const INSIGHT_ROLLUP_CHANGE_MONTHS = `CREATE OR REPLACE FUNCTION requests.insight_rollup_change(
        o_request uuid, o_type text, o_subtype text, o_created timestamptz, o_status text, o_group uuid,
        o_without bigint, o_extra requests.request_history,
        n_request uuid, n_type text, n_subtype text, n_created timestamptz, n_status text, n_group uuid)
      RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
        -- plpgsql, not sql: its statement's plan is kept for the session, not made again at every call.
        WITH f AS (
          SELECT o_type AS request_type, o_subtype AS subtype, o_group AS grp, b.day, b.kind, b.status, b.key_id,
                 b.key_name, b.hours, -b.n AS n
            FROM requests.insight_facts(o_request, o_created, o_status, o_group, o_without, o_extra) b
           WHERE o_request IS NOT NULL
          UNION ALL
          SELECT n_type, n_subtype, n_group, a.day, a.kind, a.status, a.key_id, a.key_name, a.hours, a.n
            FROM requests.insight_facts(n_request, n_created, n_status, n_group, NULL, NULL) a
           WHERE n_request IS NOT NULL)
        ${insightRollupApply(EVERY_KIND_IN_GROUP_ROWS)}
        END $$`;

/**
 * The operations dashboard's rollup (migration 1764870000000-InsightRollup; docs/insight.md "The rollup")
 * gets month rows beside its day and week rows, and its triggers write a change in one statement.
 *
 * Why months: a year's totals (per group, per operator, the QC decisions, the hour histograms) read some
 * fifty week rows per key; with months they read eleven or twelve months and the weeks and days at the ends
 * (at most about twenty rows), less than half (bench/README.md "Operations dashboard"). The weekly chart and
 * the backlog still read week rows, only of the few figures they draw.
 *
 * Why one statement: the trigger added a change's facts one by one (an INSERT … ON CONFLICT each, per grain
 * and scope); now the facts are summed per rollup row first — the hour histograms merged — and written by
 * one INSERT … ON CONFLICT in the key's order, so two writers take the rows' locks in the same order
 * (they wait for each other rather than deadlock) and a line costs one statement, not one per fact.
 */
export class InsightRollupMonths1764875000000 implements MigrationInterface {
  name = 'InsightRollupMonths1764875000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q(`ALTER TABLE requests.insight_rollup DROP CONSTRAINT insight_rollup_grain_check`);
    await q(`ALTER TABLE requests.insight_rollup ADD CONSTRAINT insight_rollup_grain_check
               CHECK (grain IN ('d', 'w', 'm'))`);
    // Two histograms added element by element (their lower bounds may differ: each starts at its first hour).
    await q(`CREATE FUNCTION requests.insight_hist_merge(a int[], b int[]) RETURNS int[] LANGUAGE plpgsql
        IMMUTABLE AS $$
        BEGIN
          IF b IS NULL THEN RETURN a; END IF;
          IF a IS NULL THEN RETURN b; END IF;
          FOR i IN array_lower(b, 1) .. array_upper(b, 1) LOOP
            IF b[i] IS NOT NULL AND b[i] <> 0 THEN
              a[i] := coalesce(a[i], 0) + b[i];
            END IF;
          END LOOP;
          RETURN a;
        END $$`);
    await q(`CREATE AGGREGATE requests.insight_hist_sum(int[]) (
        SFUNC = requests.insight_hist_merge, STYPE = int[])`);
    await q(INSIGHT_ROLLUP_CHANGE_MONTHS);
    await q('DROP FUNCTION requests.insight_rollup_add');
    // The rebuild (a bulk load that set the triggers aside, bench/lib/requests-dataset.mjs) writes months too.
    await q(insightRollupRebuild(EVERY_KIND_IN_GROUP_ROWS));
    // The months of the history so far, summed from its day rows (not the whole history read again).
    await q(`INSERT INTO requests.insight_rollup
               (scope_group, grain, start, kind, request_type, subtype, status, key_id, key_name, n, hist)
             SELECT scope_group, 'm', date_trunc('month', start)::date, kind, request_type, subtype, status,
                    key_id, max(key_name), sum(n), requests.insight_hist_sum(hist)
               FROM requests.insight_rollup WHERE grain = 'd'
              GROUP BY scope_group, kind, date_trunc('month', start)::date, request_type, subtype, status, key_id
              ORDER BY scope_group NULLS FIRST, kind, 3`);
    await q('ANALYZE requests.insight_rollup');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q(`DELETE FROM requests.insight_rollup WHERE grain = 'm'`);
    await q(`ALTER TABLE requests.insight_rollup DROP CONSTRAINT insight_rollup_grain_check`);
    await q(`ALTER TABLE requests.insight_rollup ADD CONSTRAINT insight_rollup_grain_check
               CHECK (grain IN ('d', 'w'))`);
    await q('DROP FUNCTION requests.insight_rollup_change');
    await q('DROP FUNCTION requests.insight_rollup_rebuild()');
    await q(INSIGHT_ROLLUP_ADD);
    await q(INSIGHT_ROLLUP_CHANGE);
    await q(INSIGHT_ROLLUP_REBUILD);
    await q('DROP AGGREGATE requests.insight_hist_sum(int[])');
    await q('DROP FUNCTION requests.insight_hist_merge');
  }
}
