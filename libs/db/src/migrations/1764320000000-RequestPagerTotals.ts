import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** What the kept totals are counted by: the columns of the console's common filters (and delivery). */
const GROUPED_COLUMNS = ['request_type', 'cant_locate', 'status', 'priority'];
/**
 * What moves a request in some sort or filter of the console (and so the list's revision): every column a
 * sort or a filter of services/requests/src/queue reads.
 */
const LISTED_COLUMNS = [
  'id',
  'request_type',
  'request_sub_type',
  'status',
  'priority',
  'created_at',
  'grip_reference',
  'user_id',
  'user_name',
  'user_email',
  'address',
  'group_name',
  'delivered_at',
  'first_user_name',
  'report_invoice_number',
  'rve_total',
  'number_of_buildings',
  'unit_price',
  'cant_locate',
  'report_disputed',
  'report_pdf_downloaded',
  'reference_string',
  'reference',
];
/** The filter columns every sort index carries, so the default filter is checked index-only. */
const CARRIED = 'INCLUDE (request_type, cant_locate)';
/** The sort indexes of the grid's columns (key, id): one walk serves a sort both ways. */
const SORT_INDEXES: Record<string, string> = {
  requests_created_id_idx: 'created_at, id',
  requests_status_id_idx: 'status, id',
  requests_type_id_idx: 'request_type, id',
  requests_priority_id_idx: 'priority, id',
  requests_grip_reference_id_idx: 'grip_reference, id',
  requests_user_name_id_idx: 'user_name, id',
  requests_address_id_idx: 'address, id',
  requests_group_name_id_idx: 'group_name, id',
  requests_first_user_name_id_idx: 'first_user_name, id',
  requests_invoice_id_idx: 'report_invoice_number, id',
  requests_rve_total_id_idx: 'rve_total, id',
  requests_report_fee_id_idx: '(number_of_buildings * unit_price), id',
  requests_number_of_buildings_id_idx: 'number_of_buildings, id',
  requests_unit_price_id_idx: 'unit_price, id',
};

/**
 * The request pager at 1 000 000 requests (issue 11; bench/request-pager.mjs).
 *
 * - requests.request_totals counts the requests per (type, can't locate, status, priority, delivered),
 *   kept exact by triggers in the writer's transaction: per statement for inserts and deletes (transition
 *   tables), per row for a change of a grouped column. The total of a page whose filters are only those
 *   columns is a sum over a few rows instead of a count over up to every request.
 * - requests.request_list_revision counts the changes that move requests in a sort or filter. It is bumped
 *   BEFORE each writing statement, so every writer takes its row lock first: writers of requests queue
 *   there (as the totals' rows would make them anyway), never deadlock on the totals' rows.
 * - requests.sort_checkpoints(query, step, params) walks a sort once and returns its key at every `step`-th
 *   position and the number of rows (the service keeps them per sort, filter and revision).
 * - Sort indexes (key, id) for every sortable column of the grid, carrying the default filter's columns;
 *   they replace requests_created_at_idx ((created_at, id) serves both ways).
 */
export class RequestPagerTotals1764320000000 implements MigrationInterface {
  name = 'RequestPagerTotals1764320000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q(`
      CREATE TABLE requests.request_list_revision (
        singleton boolean NOT NULL DEFAULT true,
        revision bigint NOT NULL DEFAULT 0,
        CONSTRAINT request_list_revision_pkey PRIMARY KEY (singleton),
        CONSTRAINT request_list_revision_singleton CHECK (singleton)
      )`);
    await q('INSERT INTO requests.request_list_revision DEFAULT VALUES');
    await q(`
      CREATE FUNCTION requests.bump_request_list_revision() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE requests.request_list_revision SET revision = revision + 1;
        RETURN NULL;
      END $$`);
    await q(`
      CREATE TRIGGER requests_list_revision
      BEFORE INSERT OR DELETE OR TRUNCATE OR UPDATE OF ${LISTED_COLUMNS.join(', ')}
      ON requests.requests FOR EACH STATEMENT EXECUTE FUNCTION requests.bump_request_list_revision()`);

    await q(`
      CREATE TABLE requests.request_totals (
        request_type text NOT NULL,
        cant_locate boolean NOT NULL,
        status text NOT NULL,
        priority boolean NOT NULL,
        delivered boolean NOT NULL,
        requests bigint NOT NULL,
        CONSTRAINT request_totals_pkey PRIMARY KEY (request_type, cant_locate, status, priority, delivered),
        CONSTRAINT request_totals_requests_check CHECK (requests >= 0)
      )`);
    const grouped = `${GROUPED_COLUMNS.join(', ')}, delivered_at IS NOT NULL`;
    const upsert = `ON CONFLICT (${GROUPED_COLUMNS.join(', ')}, delivered)
                    DO UPDATE SET requests = request_totals.requests + excluded.requests`;
    await q(`
      CREATE FUNCTION requests.count_added_requests() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO requests.request_totals AS request_totals
        SELECT ${grouped}, count(*) FROM added GROUP BY ${grouped} ORDER BY ${grouped}
        ${upsert};
        RETURN NULL;
      END $$`);
    await q(`
      CREATE FUNCTION requests.count_removed_requests() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE requests.request_totals t SET requests = t.requests - g.n
          FROM (SELECT ${grouped} AS delivered, count(*) AS n FROM removed GROUP BY ${grouped}) g
         WHERE (t.request_type, t.cant_locate, t.status, t.priority, t.delivered)
             = (g.request_type, g.cant_locate, g.status, g.priority, g.delivered);
        RETURN NULL;
      END $$`);
    await q(`
      CREATE FUNCTION requests.count_moved_request() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE requests.request_totals SET requests = requests - 1
         WHERE (request_type, cant_locate, status, priority, delivered)
             = (OLD.request_type, OLD.cant_locate, OLD.status, OLD.priority, OLD.delivered_at IS NOT NULL);
        INSERT INTO requests.request_totals AS request_totals
        VALUES (NEW.request_type, NEW.cant_locate, NEW.status, NEW.priority, NEW.delivered_at IS NOT NULL, 1)
        ${upsert};
        RETURN NULL;
      END $$`);
    await q(`
      CREATE FUNCTION requests.clear_request_totals() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM requests.request_totals;
        RETURN NULL;
      END $$`);
    await q(`
      CREATE TRIGGER requests_totals_insert AFTER INSERT ON requests.requests
      REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION requests.count_added_requests()`);
    await q(`
      CREATE TRIGGER requests_totals_delete AFTER DELETE ON requests.requests
      REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION requests.count_removed_requests()`);
    await q(`
      CREATE TRIGGER requests_totals_update AFTER UPDATE OF ${GROUPED_COLUMNS.join(', ')}, delivered_at
      ON requests.requests FOR EACH ROW
      WHEN ((OLD.request_type, OLD.cant_locate, OLD.status, OLD.priority, OLD.delivered_at IS NOT NULL)
            IS DISTINCT FROM (NEW.request_type, NEW.cant_locate, NEW.status, NEW.priority, NEW.delivered_at IS NOT NULL))
      EXECUTE FUNCTION requests.count_moved_request()`);
    await q(`
      CREATE TRIGGER requests_totals_truncate AFTER TRUNCATE ON requests.requests
      FOR EACH STATEMENT EXECUTE FUNCTION requests.clear_request_totals()`);
    // The initial fill, from the rows there are (the table is locked against writers meanwhile).
    await q('LOCK TABLE requests.requests IN SHARE MODE');
    await q(`INSERT INTO requests.request_totals
             SELECT ${grouped}, count(*) FROM requests.requests GROUP BY ${grouped}`);

    // A sort walked once: its key every `step`-th row, and the number of rows. The query's parameters are
    // the elements of `params` ($1[n]), as text.
    await q(`
      CREATE FUNCTION requests.sort_checkpoints(keys_query text, step integer, params text[],
                                                OUT total integer, OUT checkpoints text[])
      LANGUAGE plpgsql STABLE AS $$
      DECLARE
        walk refcursor;
        key text[];
        moved integer;
      BEGIN
        IF step < 1 THEN
          RAISE EXCEPTION 'sort_checkpoints: step must be at least 1, not %', step;
        END IF;
        total := 0;
        checkpoints := '{}';
        OPEN walk NO SCROLL FOR EXECUTE keys_query USING params;
        LOOP
          FETCH walk INTO key;
          EXIT WHEN NOT FOUND;
          checkpoints := checkpoints || ARRAY[key];
          total := total + 1;
          IF step > 1 THEN
            MOVE FORWARD step - 1 FROM walk;
            GET DIAGNOSTICS moved = ROW_COUNT;
            total := total + moved;
          END IF;
        END LOOP;
        CLOSE walk;
      END $$`);

    await q('DROP INDEX requests.requests_created_at_idx');
    for (const [index, keys] of Object.entries(SORT_INDEXES))
      await q(`CREATE INDEX ${index} ON requests.requests (${keys}) ${CARRIED}`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    for (const index of Object.keys(SORT_INDEXES).reverse()) await q(`DROP INDEX requests.${index}`);
    await q('CREATE INDEX requests_created_at_idx ON requests.requests (created_at DESC, id DESC)');
    await q('DROP FUNCTION requests.sort_checkpoints(text, integer, text[])');
    for (const trigger of [
      'requests_totals_truncate',
      'requests_totals_update',
      'requests_totals_delete',
      'requests_totals_insert',
      'requests_list_revision',
    ])
      await q(`DROP TRIGGER ${trigger} ON requests.requests`);
    for (const fn of [
      'clear_request_totals',
      'count_moved_request',
      'count_removed_requests',
      'count_added_requests',
      'bump_request_list_revision',
    ])
      await q(`DROP FUNCTION requests.${fn}()`);
    await q('DROP TABLE requests.request_totals');
    await q('DROP TABLE requests.request_list_revision');
  }
}
