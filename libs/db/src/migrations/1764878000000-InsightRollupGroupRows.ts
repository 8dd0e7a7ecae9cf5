import { type MigrationInterface, type QueryRunner } from 'typeorm';
import {
  EVERY_KIND_IN_GROUP_ROWS,
  insightRollupRebuild,
  type InGroupRows,
} from './1764875000000-InsightRollupMonths';
import { insightRollupApplyTrigger } from './1764876000000-InsightRollupDeferred';

/** Every fact but the per-group counts goes to its group's own rows too. */
const NOT_THE_GROUP_COUNTS: InGroupRows = (fact) => `${fact}.kind NOT IN ('created_group', 'finished_group')`;

/**
 * The operations dashboard's rollup (docs/insight.md "The rollup") without the rows it kept twice: in a
 * group's own rows (`scope_group` the group), `created_group` and `finished_group` counted the same requests
 * as `created` and `finished` — a tenth of the rollup at 1 000 000 requests (542 524 of 5 563 321 rows,
 * bench/README.md "Operations dashboard") and three more upserts per request created and per first
 * Dispatch. A group's reads take its counts from `created` and `finished` (services/requests rollup.ts
 * periodTotals); every group's rows keep `created_group` and `finished_group` (the counts per group).
 */
export class InsightRollupGroupRows1764878000000 implements MigrationInterface {
  name = 'InsightRollupGroupRows1764878000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q(insightRollupApplyTrigger(NOT_THE_GROUP_COUNTS));
    await q(insightRollupRebuild(NOT_THE_GROUP_COUNTS));
    await q(`DELETE FROM requests.insight_rollup
              WHERE scope_group IS NOT NULL AND kind IN ('created_group', 'finished_group')`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q(insightRollupApplyTrigger(EVERY_KIND_IN_GROUP_ROWS));
    await q(insightRollupRebuild(EVERY_KIND_IN_GROUP_ROWS));
    // A group's counts as they were kept: its created and finished rows, the group as the key.
    await q(`INSERT INTO requests.insight_rollup
               (scope_group, grain, start, kind, request_type, subtype, status, key_id, key_name, n, hist)
             SELECT scope_group, grain, start, kind || '_group', request_type, subtype, status, scope_group, NULL, n,
                    NULL
               FROM requests.insight_rollup WHERE scope_group IS NOT NULL AND kind IN ('created', 'finished')`);
  }
}
