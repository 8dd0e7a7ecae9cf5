import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The address editor (issue 14; spec 03 §2, §3, §5, §7): services/avs-editor joins the geodata tools as a
 * writer of `geo` (addresses, POIs, the editor's parcel codes), and keeps its own audit trail and request
 * holds in schema `avs_editor`.
 *
 * - `version` on parcels, addresses and POIs: every edit names the version it saw and bumps it; an older
 *   one is a 409 with the row as it is now (never a silent overwrite). The importers' upserts leave it.
 * - `geo.parcels.address_count` is kept exact by statement triggers on `geo.addresses` (transition tables:
 *   one UPDATE per statement, however many rows a generator batch or an import writes), so the two parcel
 *   queues — more than one address, none — are partial indexes walked in id order, not a count over a
 *   million addresses per dequeue.
 * - Holds: a dequeued parcel carries who holds it and until when (`held_by`, `held_until`) on its own row,
 *   taken under `FOR NO KEY UPDATE SKIP LOCKED`: a concurrent dequeue skips the locked row, and one that
 *   reaches it after the commit re-reads the new row version (PostgreSQL re-checks the conditions of a
 *   locked row), so two operators never get the same parcel. An abandoned hold simply expires. Requests
 *   live in `requests.requests` (services/requests' table), so their holds are rows of
 *   `avs_editor.request_holds` instead, re-checked under the request's row lock.
 * - `reviewed_at` ends a multi-address parcel's turn in its queue (the operator's 'Parcel done').
 * - `avs_editor.edits`: one row per edit — who, when, what, before → after — written in the edit's
 *   transaction.
 */

/** The queues' conditions, written once: the partial indexes and the service's statements use the same text. */
const WORKABLE = 'parcel_type_id NOT IN (90, 100) AND data_quality_id NOT IN (-10, -90)';

export class AvsEditor1764600000000 implements MigrationInterface {
  name = 'AvsEditor1764600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q(`
      ALTER TABLE geo.parcels
        ADD COLUMN version integer NOT NULL DEFAULT 1,
        ADD COLUMN address_count integer NOT NULL DEFAULT 0,
        ADD COLUMN reviewed_at timestamptz,
        ADD COLUMN reviewed_by text,
        ADD COLUMN held_by uuid,
        ADD COLUMN held_by_email text,
        ADD COLUMN held_until timestamptz,
        ADD COLUMN edited_by text,
        ADD COLUMN edited_at timestamptz`);
    await q(`
      ALTER TABLE geo.addresses
        ADD COLUMN version integer NOT NULL DEFAULT 1,
        ADD COLUMN review text CONSTRAINT addresses_review_check CHECK (review IN ('accepted', 'rejected')),
        ADD COLUMN edited_by text,
        ADD COLUMN edited_at timestamptz`);
    await q(`
      ALTER TABLE geo.pois
        ADD COLUMN version integer NOT NULL DEFAULT 1,
        ADD COLUMN edited_by text,
        ADD COLUMN edited_at timestamptz`);

    // The count of what is there already, then the triggers keep it. Only parcels whose count moved are
    // written (a re-run of the generator updates every address in place and moves none).
    await q(`
      UPDATE geo.parcels p SET address_count = c.n
      FROM (SELECT parcel_id, count(*)::int AS n FROM geo.addresses WHERE parcel_id IS NOT NULL GROUP BY parcel_id) c
      WHERE p.id = c.parcel_id`);
    await q(`
      CREATE FUNCTION geo.count_parcel_addresses() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          UPDATE geo.parcels p SET address_count = p.address_count + d.delta
          FROM (SELECT parcel_id, count(*)::int AS delta FROM added WHERE parcel_id IS NOT NULL GROUP BY parcel_id) d
          WHERE p.id = d.parcel_id;
        ELSIF TG_OP = 'DELETE' THEN
          UPDATE geo.parcels p SET address_count = p.address_count - d.delta
          FROM (SELECT parcel_id, count(*)::int AS delta FROM removed WHERE parcel_id IS NOT NULL GROUP BY parcel_id) d
          WHERE p.id = d.parcel_id;
        ELSE
          UPDATE geo.parcels p SET address_count = p.address_count + d.delta
          FROM (
            SELECT parcel_id, sum(delta)::int AS delta FROM (
              SELECT parcel_id, 1 AS delta FROM added WHERE parcel_id IS NOT NULL
              UNION ALL
              SELECT parcel_id, -1 FROM removed WHERE parcel_id IS NOT NULL
            ) moved
            GROUP BY parcel_id HAVING sum(delta) <> 0
          ) d
          WHERE p.id = d.parcel_id;
        END IF;
        RETURN NULL;
      END $$`);
    await q(`
      CREATE TRIGGER addresses_count_insert AFTER INSERT ON geo.addresses
      REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION geo.count_parcel_addresses()`);
    await q(`
      CREATE TRIGGER addresses_count_update AFTER UPDATE ON geo.addresses
      REFERENCING OLD TABLE AS removed NEW TABLE AS added
      FOR EACH STATEMENT EXECUTE FUNCTION geo.count_parcel_addresses()`);
    await q(`
      CREATE TRIGGER addresses_count_delete AFTER DELETE ON geo.addresses
      REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION geo.count_parcel_addresses()`);
    await q(`
      CREATE FUNCTION geo.clear_parcel_address_counts() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE geo.parcels SET address_count = 0 WHERE address_count <> 0;
        RETURN NULL;
      END $$`);
    await q(`
      CREATE TRIGGER addresses_count_truncate AFTER TRUNCATE ON geo.addresses
      FOR EACH STATEMENT EXECUTE FUNCTION geo.clear_parcel_address_counts()`);

    // The queues, each walked in id order from its own small index.
    await q(`CREATE INDEX parcels_multi_address_queue_idx ON geo.parcels (id)
             WHERE address_count > 1 AND reviewed_at IS NULL AND ${WORKABLE}`);
    await q(`CREATE INDEX parcels_no_address_queue_idx ON geo.parcels (id)
             WHERE address_count = 0 AND ${WORKABLE}`);
    await q(`CREATE INDEX parcels_validate_queue_idx ON geo.parcels (id)
             WHERE parcel_type_id = 90 OR data_quality_id = -10`);
    // An operator's own holds, given back when they take the next item.
    await q('CREATE INDEX parcels_held_by_idx ON geo.parcels (held_by) WHERE held_by IS NOT NULL');
    // "Not already on that street": a street's numbers, whatever their case.
    await q(
      `CREATE INDEX addresses_street_house_number_idx ON geo.addresses (street_id, lower(house_number))`,
    );

    await q('CREATE SCHEMA avs_editor');
    await q(`
      CREATE TABLE avs_editor.edits (
        id bigint GENERATED ALWAYS AS IDENTITY,
        at timestamptz NOT NULL DEFAULT now(),
        user_id uuid NOT NULL,
        user_email text NOT NULL,
        user_name text NOT NULL,
        action text NOT NULL,
        entity text NOT NULL,
        entity_id text NOT NULL,
        parcel_id bigint,
        before jsonb,
        after jsonb,
        CONSTRAINT edits_pkey PRIMARY KEY (id),
        CONSTRAINT edits_entity_check CHECK (entity IN ('address', 'poi', 'parcel', 'request'))
      )`);
    await q('CREATE INDEX edits_parcel_idx ON avs_editor.edits (parcel_id, at DESC, id DESC)');
    await q('CREATE INDEX edits_entity_idx ON avs_editor.edits (entity, entity_id, at DESC, id DESC)');
    await q(`
      CREATE TABLE avs_editor.request_holds (
        request_id uuid NOT NULL,
        held_by uuid NOT NULL,
        held_by_email text NOT NULL,
        held_until timestamptz NOT NULL,
        CONSTRAINT request_holds_pkey PRIMARY KEY (request_id),
        CONSTRAINT request_holds_request_id_fkey FOREIGN KEY (request_id)
          REFERENCES requests.requests (id) ON DELETE CASCADE
      )`);
    // The can't-locate queue: AVS requests of subtype Can't Locate, prioritised ones first, then oldest.
    await q(`CREATE INDEX requests_cant_locate_queue_idx ON requests.requests (priority DESC, created_at, id)
             WHERE request_type = 'AVS' AND request_sub_type = 'Can''t Locate'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q('DROP INDEX requests.requests_cant_locate_queue_idx');
    await q('DROP SCHEMA avs_editor CASCADE');
    await q('DROP INDEX geo.addresses_street_house_number_idx');
    await q('DROP TRIGGER addresses_count_truncate ON geo.addresses');
    await q('DROP TRIGGER addresses_count_delete ON geo.addresses');
    await q('DROP TRIGGER addresses_count_update ON geo.addresses');
    await q('DROP TRIGGER addresses_count_insert ON geo.addresses');
    await q('DROP FUNCTION geo.clear_parcel_address_counts()');
    await q('DROP FUNCTION geo.count_parcel_addresses()');
    await q('ALTER TABLE geo.pois DROP COLUMN version, DROP COLUMN edited_by, DROP COLUMN edited_at');
    await q(`ALTER TABLE geo.addresses DROP COLUMN version, DROP COLUMN review, DROP COLUMN edited_by,
             DROP COLUMN edited_at`);
    // The partial indexes go with their columns.
    await q(`ALTER TABLE geo.parcels DROP COLUMN version, DROP COLUMN address_count, DROP COLUMN reviewed_at,
             DROP COLUMN reviewed_by, DROP COLUMN held_by, DROP COLUMN held_by_email, DROP COLUMN held_until,
             DROP COLUMN edited_by, DROP COLUMN edited_at`);
  }
}
