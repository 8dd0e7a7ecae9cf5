import { type MigrationInterface, type QueryRunner } from 'typeorm';
import {
  EVERY_KIND_IN_GROUP_ROWS,
  INSIGHT_ROLLUP_CHANGE_MONTHS,
  insightRollupApply,
  type InGroupRows,
} from './1764875000000-InsightRollupMonths';

/** At commit: the transaction's pending facts summed per rollup row and written (by its first firing). */
export const insightRollupApplyTrigger = (inGroupRows: InGroupRows) =>
  `CREATE OR REPLACE FUNCTION requests.insight_rollup_apply() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          WITH f AS (DELETE FROM requests.insight_rollup_pending WHERE tx = txid_current() RETURNING *)
          ${insightRollupApply(inGroupRows)}
          RETURN NULL;
        END $$`;

/**
 * The operations dashboard's rollup (docs/insight.md "The rollup") written once per transaction, at its
 * commit, instead of once per changed row.
 *
 * Why: every status line of a day moves the same few rollup rows (that day's, week's and month's backlog
 * and stays, for everyone and the group). A transaction changing 500 requests — the console's bulk change
 * writes one request and one line per statement — updated those rows 500 times, and each update of a row
 * the transaction had already updated walks the versions it left: 500 lines cost 3.7 s at load ~10 (7 ms a
 * line) where 20 cost 2.9 ms a line (bench/README.md "Operations dashboard"). A statement-level trigger would
 * not help: the console's statements are one row each.
 *
 * How: the row triggers still compute each change's facts (the request's facts after it less before it) but
 * append them to requests.insight_rollup_pending, tagged with the transaction; a deferred constraint trigger
 * fires at commit, and its first firing sums the transaction's pending facts per rollup row and writes them
 * in one INSERT … ON CONFLICT in the key's order (the rest find nothing). The rows are locked only while
 * the transaction commits, not from its first change. A savepoint rolled back takes its pending facts
 * with it. The table is UNLOGGED: its rows never outlive their transaction.
 */
export class InsightRollupDeferred1764876000000 implements MigrationInterface {
  name = 'InsightRollupDeferred1764876000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q(`CREATE UNLOGGED TABLE requests.insight_rollup_pending (
        tx bigint NOT NULL DEFAULT txid_current(),
        request_type text, subtype text, grp uuid, day date, kind text, status text, key_id uuid,
        key_name text, hours int, n bigint NOT NULL)`);
    await q('CREATE INDEX insight_rollup_pending_tx_idx ON requests.insight_rollup_pending (tx)');
    // A change's facts (after less before), appended for the commit to write.
    await q(`CREATE OR REPLACE FUNCTION requests.insight_rollup_change(
        o_request uuid, o_type text, o_subtype text, o_created timestamptz, o_status text, o_group uuid,
        o_without bigint, o_extra requests.request_history,
        n_request uuid, n_type text, n_subtype text, n_created timestamptz, n_status text, n_group uuid)
      RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO requests.insight_rollup_pending
                 (request_type, subtype, grp, day, kind, status, key_id, key_name, hours, n)
          SELECT f.request_type, f.subtype, f.grp, f.day, f.kind, f.status, f.key_id, max(f.key_name), f.hours,
                 sum(f.n)
            FROM (SELECT o_type AS request_type, o_subtype AS subtype, o_group AS grp, b.day, b.kind,
                         b.status, b.key_id, b.key_name, b.hours, -b.n AS n
                    FROM requests.insight_facts(o_request, o_created, o_status, o_group, o_without, o_extra) b
                   WHERE o_request IS NOT NULL
                  UNION ALL
                  SELECT n_type, n_subtype, n_group, a.day, a.kind, a.status, a.key_id, a.key_name, a.hours, a.n
                    FROM requests.insight_facts(n_request, n_created, n_status, n_group, NULL, NULL) a
                   WHERE n_request IS NOT NULL) f
           GROUP BY f.request_type, f.subtype, f.grp, f.day, f.kind, f.status, f.key_id, f.hours
          HAVING sum(f.n) <> 0;
        END $$`);
    await q(insightRollupApplyTrigger(EVERY_KIND_IN_GROUP_ROWS));
    for (const [table, name, event, when] of [
      ['request_history', 'history', 'INSERT', `NEW.field = 'status'`],
      ['request_history', 'history_delete', 'DELETE', `OLD.field = 'status'`],
      ['request_history', 'history_update', 'UPDATE', `OLD.field = 'status' OR NEW.field = 'status'`],
      ['requests', 'request', 'INSERT', 'true'],
      [
        'requests',
        'request_update',
        'UPDATE',
        `OLD.request_type IS DISTINCT FROM NEW.request_type
         OR OLD.request_sub_type IS DISTINCT FROM NEW.request_sub_type OR OLD.group_id IS DISTINCT FROM NEW.group_id
         OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.status IS DISTINCT FROM NEW.status`,
      ],
      ['requests', 'request_delete', 'DELETE', 'true'],
    ])
      await q(`CREATE CONSTRAINT TRIGGER insight_rollup_apply_${name} AFTER ${event} ON requests.${table}
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (${when})
          EXECUTE FUNCTION requests.insight_rollup_apply()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    for (const [table, name] of [
      ['request_history', 'history'],
      ['request_history', 'history_delete'],
      ['request_history', 'history_update'],
      ['requests', 'request'],
      ['requests', 'request_update'],
      ['requests', 'request_delete'],
    ])
      await q(`DROP TRIGGER insight_rollup_apply_${name} ON requests.${table}`);
    await q('DROP FUNCTION requests.insight_rollup_apply()');
    await q(INSIGHT_ROLLUP_CHANGE_MONTHS);
    await q('DROP TABLE requests.insight_rollup_pending');
  }
}
