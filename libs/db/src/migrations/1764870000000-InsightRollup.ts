import { type MigrationInterface, type QueryRunner } from 'typeorm';

// The functions InsightRollupMonths1764875000000 replaces, kept as constants so that its down() puts these back.

/** Adds n of one fact to its day's row and its week's. */
export const INSIGHT_ROLLUP_ADD = `CREATE FUNCTION requests.insight_rollup_add(
        p_day date, p_kind text, p_type text, p_subtype text, p_group uuid, p_status text, p_key uuid,
        p_name text, p_hours int, p_n bigint) RETURNS void LANGUAGE plpgsql AS $$
        DECLARE
          h int[];
        BEGIN
          IF p_hours IS NOT NULL THEN h[p_hours + 1] := p_n; END IF;
          INSERT INTO requests.insight_rollup AS r
                 (scope_group, grain, start, kind, request_type, subtype, status, key_id, key_name, n, hist)
          SELECT g.scope, v.grain, v.start, p_kind, p_type, p_subtype, p_status, p_key, p_name, p_n, h
            FROM (VALUES ('d'::"char", p_day), ('w'::"char", date_trunc('week', p_day)::date)) v(grain, start),
                 (SELECT NULL::uuid AS scope UNION ALL SELECT p_group WHERE p_group IS NOT NULL) g
          ON CONFLICT ON CONSTRAINT insight_rollup_key DO UPDATE
             SET n = r.n + excluded.n, key_name = greatest(r.key_name, excluded.key_name),
                 hist = CASE WHEN p_hours IS NULL THEN r.hist
                             ELSE requests.insight_hist_add(r.hist, p_hours + 1, p_n) END;
        END $$`;

/** The difference a change made to one request's facts: the facts after it less the facts before it. */
export const INSIGHT_ROLLUP_CHANGE = `CREATE FUNCTION requests.insight_rollup_change(
        o_request uuid, o_type text, o_subtype text, o_created timestamptz, o_status text, o_group uuid,
        o_without bigint, o_extra requests.request_history,
        n_request uuid, n_type text, n_subtype text, n_created timestamptz, n_status text, n_group uuid)
      RETURNS void LANGUAGE plpgsql AS $$
        DECLARE
          f record;
        BEGIN
          FOR f IN
            SELECT x.request_type, x.subtype, x.grp, x.day, x.kind, x.status, x.key_id, max(x.key_name) AS key_name,
                   x.hours, sum(x.n) AS n
              FROM (SELECT o_type AS request_type, o_subtype AS subtype, o_group AS grp, b.day, b.kind, b.status, b.key_id,
                           b.key_name, b.hours, -b.n AS n
                      FROM requests.insight_facts(o_request, o_created, o_status, o_group, o_without, o_extra) b
                     WHERE o_request IS NOT NULL
                    UNION ALL
                    SELECT n_type, n_subtype, n_group, a.day, a.kind, a.status, a.key_id, a.key_name, a.hours, a.n
                      FROM requests.insight_facts(n_request, n_created, n_status, n_group, NULL, NULL) a
                     WHERE n_request IS NOT NULL) x
             GROUP BY x.request_type, x.subtype, x.grp, x.day, x.kind, x.status, x.key_id, x.hours
            HAVING sum(x.n) <> 0
          LOOP
            PERFORM requests.insight_rollup_add(f.day, f.kind, f.request_type, f.subtype, f.grp, f.status,
                                                f.key_id, f.key_name, f.hours, f.n);
          END LOOP;
        END $$`;

/**
 * The history so far, in one pass: every request's facts, summed per day and per week. A function, so that a
 * bulk load which sets the row triggers aside (bench/lib/requests-dataset.mjs) rebuilds the same.
 */
export const INSIGHT_ROLLUP_REBUILD = `CREATE FUNCTION requests.insight_rollup_rebuild() RETURNS void LANGUAGE sql AS $$
      DELETE FROM requests.insight_rollup;
      INSERT INTO requests.insight_rollup
             (scope_group, grain, start, kind, request_type, subtype, status, key_id, key_name, n, hist)
      SELECT s.scope, g.grain, g.start, f.kind, f.request_type, f.subtype, f.status, f.key_id, max(f.key_name), sum(f.n),
             CASE WHEN bool_or(f.hours IS NOT NULL)
                  THEN requests.insight_hist_of(array_agg(f.hours), array_agg(f.n::bigint)) END
        FROM (SELECT r.request_type, coalesce(r.request_sub_type, '') AS subtype, r.group_id, x.*
                FROM requests.requests r,
                     LATERAL requests.insight_facts(r.id, r.created_at, r.status, r.group_id, NULL, NULL) x) f,
             LATERAL (VALUES ('d'::"char", f.day), ('w'::"char", date_trunc('week', f.day)::date)) g(grain, start),
             LATERAL (SELECT NULL::uuid AS scope UNION ALL SELECT f.group_id WHERE f.group_id IS NOT NULL) s
       GROUP BY s.scope, g.grain, g.start, f.kind, f.request_type, f.subtype, f.status, f.key_id
       -- Written in the key's order: a period's rows of one figure sit on neighbouring pages.
       ORDER BY s.scope NULLS FIRST, f.kind, g.grain, g.start;
    $$`;

/**
 * The operations dashboard's rollup (issue 24; docs/insight.md "The rollup"): what the figures count, kept
 * per SAST day and per week (Monday) × type × sub-type, so a year is read as some fifty weeks of rows instead
 * of a million status lines.
 *
 * Every row is kept twice: for every group (scope_group NULL) and for the request's group, so one group's
 * long period is as quick as everyone's.
 *
 * Each request contributes a set of facts (requests.insight_facts): created; its backlog deltas (its status
 * now at its creation day, each status line undone at the creation day and done again at the line's day, so
 * the sum up to a day is every request created by then at its status then — figures.ts backlogSeries' rule);
 * each stay (hours since the line before, or creation, in the line's `from` status); its first Dispatch
 * (finished, with the turnaround in hours); the operators' work; the QC decisions against the submitter.
 * Hours are kept as histograms: element b counts the values in (b - 1, b] hours (whole hours rounded up, 0 for
 * none), so a percentile is right to within the hour and "longer than a whole-hour target" is exact.
 *
 * Kept in the writer's own transaction by row triggers on requests.requests and requests.request_history's
 * status lines: a change recomputes that one request's facts before and after it (a request has a handful of
 * lines) and adds the difference, so any writer, a line written out of order or a request moved between
 * groups keeps the rollup exact. The cost is a read of the request's lines and a few upserts per status line.
 */
export class InsightRollup1764870000000 implements MigrationInterface {
  name = 'InsightRollup1764870000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    // The key leads with what a read fixes (the scope, the figure, the grain) before the range of days.
    await q(`CREATE TABLE requests.insight_rollup (
        grain "char" NOT NULL CHECK (grain IN ('d', 'w')),
        start date NOT NULL,
        kind text NOT NULL,
        request_type text NOT NULL,
        subtype text NOT NULL,
        status text NOT NULL,
        key_id uuid,
        scope_group uuid,
        key_name text,
        n bigint NOT NULL,
        hist int[],
        CONSTRAINT insight_rollup_key UNIQUE NULLS NOT DISTINCT (scope_group, kind, grain, start, request_type, subtype, status, key_id)
      )`);
    // A value's histogram element: whole hours rounded up, within a leap year (a longer one counts as a year).
    await q(`CREATE FUNCTION requests.insight_hour_bucket(span interval) RETURNS int LANGUAGE sql IMMUTABLE AS $$
        SELECT least(greatest(ceil(extract(epoch FROM span) / 3600), 0), 8784)::int $$`);
    await q(`CREATE FUNCTION requests.insight_hist_add(h int[], i int, n bigint) RETURNS int[] LANGUAGE plpgsql
        IMMUTABLE AS $$
        BEGIN
          h[i] := coalesce(h[i], 0) + n;
          RETURN h;
        END $$`);
    await q(`CREATE FUNCTION requests.insight_hist_of(hours int[], ns bigint[]) RETURNS int[] LANGUAGE plpgsql
        IMMUTABLE AS $$
        DECLARE
          h int[];
        BEGIN
          FOR i IN 1 .. coalesce(array_length(hours, 1), 0) LOOP
            IF hours[i] IS NOT NULL THEN
              h[hours[i] + 1] := coalesce(h[hours[i] + 1], 0) + ns[i];
            END IF;
          END LOOP;
          RETURN h;
        END $$`);
    // One request's facts, from its row's values and its status lines (less p_without, plus p_extra: the
    // state before the change a trigger sees). The rules are store.ts historyFigures' (the exact read).
    await q(`CREATE FUNCTION requests.insight_facts(
        p_request uuid, p_created timestamptz, p_status text, p_group uuid,
        p_without bigint, p_extra requests.request_history)
      RETURNS TABLE (day date, kind text, status text, key_id uuid, key_name text, hours int, n int)
      LANGUAGE sql STABLE AS $$
        WITH lines AS (
          SELECT h.id, h.at, h.user_id, h.user_name, h.from_value, h.to_value
            FROM requests.request_history h
           WHERE h.request_id = p_request AND h.field = 'status' AND h.id IS DISTINCT FROM p_without
          UNION ALL
          SELECT (p_extra).id, (p_extra).at, (p_extra).user_id, (p_extra).user_name, (p_extra).from_value,
                 (p_extra).to_value
           WHERE (p_extra).id IS NOT NULL AND (p_extra).field = 'status'
        ),
        w AS (
          SELECT l.*, (l.at AT TIME ZONE 'Africa/Johannesburg')::date AS day,
                 coalesce(lag(l.at) OVER o, p_created) AS entered_at, lag(l.to_value) OVER o AS prev_to,
                 lag(l.user_id) OVER o AS prev_user, lag(l.user_name) OVER o AS prev_name,
                 count(*) FILTER (WHERE l.to_value = 'Dispatch')
                   OVER (o ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS dispatches_before
            FROM lines l WINDOW o AS (ORDER BY l.at, l.id)
        ),
        c AS (SELECT (p_created AT TIME ZONE 'Africa/Johannesburg')::date AS day WHERE p_created IS NOT NULL)
        SELECT c.day, 'created', '', NULL::uuid, NULL::text, NULL::int, 1 FROM c
        UNION ALL SELECT c.day, 'created_group', '', p_group, NULL, NULL, 1 FROM c
        UNION ALL SELECT c.day, 'backlog', p_status, NULL, NULL, NULL, 1 FROM c WHERE p_status IS NOT NULL
        UNION ALL SELECT c.day, 'backlog', w.from_value, NULL, NULL, NULL, 1 FROM c, w WHERE w.from_value IS NOT NULL
        UNION ALL SELECT c.day, 'backlog', w.to_value, NULL, NULL, NULL, -1 FROM c, w WHERE w.to_value IS NOT NULL
        UNION ALL SELECT w.day, 'backlog', w.to_value, NULL, NULL, NULL, 1 FROM c, w WHERE w.to_value IS NOT NULL
        UNION ALL SELECT w.day, 'backlog', w.from_value, NULL, NULL, NULL, -1 FROM c, w WHERE w.from_value IS NOT NULL
        UNION ALL SELECT w.day, 'stay', w.from_value, NULL, NULL, requests.insight_hour_bucket(w.at - w.entered_at), 1
                    FROM c, w WHERE w.from_value IS NOT NULL
        UNION ALL SELECT w.day, 'finished', '', NULL, NULL, requests.insight_hour_bucket(w.at - p_created), 1
                    FROM c, w WHERE w.to_value = 'Dispatch' AND w.dispatches_before = 0
        UNION ALL SELECT w.day, 'finished_group', '', p_group, NULL, NULL, 1
                    FROM c, w WHERE w.to_value = 'Dispatch' AND w.dispatches_before = 0
        UNION ALL SELECT w.day, 'work',
                         CASE WHEN w.to_value = 'In progress' THEN 'started' WHEN w.to_value = 'QC check' THEN 'submitted'
                              ELSE 'approved' END,
                         w.user_id, w.user_name, NULL, 1
                    FROM c, w WHERE w.to_value IN ('In progress', 'QC check')
                                 OR (w.from_value = 'QC check' AND w.to_value = 'Dispatch')
        UNION ALL SELECT w.day, 'decision', w.to_value,
                         CASE WHEN w.prev_to = 'QC check' THEN w.prev_user END,
                         CASE WHEN w.prev_to = 'QC check' THEN w.prev_name END, NULL, 1
                    FROM c, w WHERE w.from_value = 'QC check' AND w.to_value IN ('Dispatch', 'Query')
      $$`);
    await q(INSIGHT_ROLLUP_ADD);
    await q(INSIGHT_ROLLUP_CHANGE);
    // A status line written, changed or removed: its request's facts without it (or with its old values)
    // and with it. A request already gone (a cascade) has none.
    await q(`CREATE FUNCTION requests.insight_rollup_history() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
          r requests.requests;
        BEGIN
          SELECT * INTO r FROM requests.requests WHERE id = coalesce(NEW.request_id, OLD.request_id);
          IF NOT FOUND THEN RETURN NULL; END IF;
          IF TG_OP = 'UPDATE' AND OLD.request_id <> NEW.request_id THEN
            RAISE EXCEPTION 'a status line cannot move to another request';
          END IF;
          PERFORM requests.insight_rollup_change(
            r.id, r.request_type, coalesce(r.request_sub_type, ''), r.created_at, r.status, r.group_id,
            CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE NEW.id END,
            CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD END,
            r.id, r.request_type, coalesce(r.request_sub_type, ''), r.created_at, r.status, r.group_id);
          RETURN NULL;
        END $$`);
    await q(`CREATE TRIGGER insight_rollup_history AFTER INSERT ON requests.request_history
        FOR EACH ROW WHEN (NEW.field = 'status') EXECUTE FUNCTION requests.insight_rollup_history()`);
    await q(`CREATE TRIGGER insight_rollup_history_delete AFTER DELETE ON requests.request_history
        FOR EACH ROW WHEN (OLD.field = 'status') EXECUTE FUNCTION requests.insight_rollup_history()`);
    await q(`CREATE TRIGGER insight_rollup_history_update AFTER UPDATE ON requests.request_history
        FOR EACH ROW WHEN (OLD.field = 'status' OR NEW.field = 'status')
        EXECUTE FUNCTION requests.insight_rollup_history()`);
    // A request created, changed in what the figures count it by, or removed (before its lines cascade).
    await q(`CREATE FUNCTION requests.insight_rollup_request() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'INSERT' THEN
            PERFORM requests.insight_rollup_change(
              NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
              NEW.id, NEW.request_type, coalesce(NEW.request_sub_type, ''), NEW.created_at, NEW.status, NEW.group_id);
            RETURN NULL;
          ELSIF TG_OP = 'DELETE' THEN
            PERFORM requests.insight_rollup_change(
              OLD.id, OLD.request_type, coalesce(OLD.request_sub_type, ''), OLD.created_at, OLD.status, OLD.group_id,
              NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
            RETURN OLD;
          END IF;
          PERFORM requests.insight_rollup_change(
            OLD.id, OLD.request_type, coalesce(OLD.request_sub_type, ''), OLD.created_at, OLD.status, OLD.group_id,
            NULL, NULL,
            NEW.id, NEW.request_type, coalesce(NEW.request_sub_type, ''), NEW.created_at, NEW.status, NEW.group_id);
          RETURN NULL;
        END $$`);
    await q(`CREATE TRIGGER insight_rollup_request AFTER INSERT ON requests.requests
        FOR EACH ROW EXECUTE FUNCTION requests.insight_rollup_request()`);
    await q(`CREATE TRIGGER insight_rollup_request_update AFTER UPDATE ON requests.requests
        FOR EACH ROW WHEN (OLD.request_type IS DISTINCT FROM NEW.request_type
                           OR OLD.request_sub_type IS DISTINCT FROM NEW.request_sub_type
                           OR OLD.group_id IS DISTINCT FROM NEW.group_id
                           OR OLD.created_at IS DISTINCT FROM NEW.created_at
                           OR OLD.status IS DISTINCT FROM NEW.status)
        EXECUTE FUNCTION requests.insight_rollup_request()`);
    await q(`CREATE TRIGGER insight_rollup_request_delete BEFORE DELETE ON requests.requests
        FOR EACH ROW EXECUTE FUNCTION requests.insight_rollup_request()`);
    await q(INSIGHT_ROLLUP_REBUILD);
    await q('SELECT requests.insight_rollup_rebuild()');
    // The planner's statistics at once, not at autovacuum's next pass: the first dashboard call reads it.
    await q('ANALYZE requests.insight_rollup');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q('DROP TRIGGER insight_rollup_request_delete ON requests.requests');
    await q('DROP TRIGGER insight_rollup_request_update ON requests.requests');
    await q('DROP TRIGGER insight_rollup_request ON requests.requests');
    await q('DROP TRIGGER insight_rollup_history_update ON requests.request_history');
    await q('DROP TRIGGER insight_rollup_history_delete ON requests.request_history');
    await q('DROP TRIGGER insight_rollup_history ON requests.request_history');
    await q('DROP FUNCTION requests.insight_rollup_rebuild()');
    await q('DROP FUNCTION requests.insight_rollup_request()');
    await q('DROP FUNCTION requests.insight_rollup_history()');
    await q('DROP FUNCTION requests.insight_rollup_change');
    await q('DROP FUNCTION requests.insight_rollup_add');
    await q('DROP FUNCTION requests.insight_facts');
    await q('DROP FUNCTION requests.insight_hist_of');
    await q('DROP FUNCTION requests.insight_hist_add');
    await q('DROP FUNCTION requests.insight_hour_bucket');
    await q('DROP TABLE requests.insight_rollup');
  }
}
