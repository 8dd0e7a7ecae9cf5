import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Webhooks (issue 22): a group's endpoints, the events outbox, one delivery per event and endpoint, and
 * one row per HTTP attempt.
 *
 * - `endpoints.secret` is the Standard Webhooks secret (`whsec_` + base64 of 32 random bytes). It has to
 *   be kept readable (the worker signs with it), so it is shown once at creation and on rotation, never
 *   listed. `failing_since` is the first failed attempt since the last success: a day of it disables the
 *   endpoint (`disabled_at`, `disabled_reason`).
 * - `events` is the outbox: a row written in the same transaction as the change it announces (libs/db
 *   sql/webhook-events.ts), `id` is the Standard Webhooks `webhook-id` (`msg_…`). `payload` is filled once,
 *   by the fan-out, so every endpoint and every retry is sent the same bytes. `endpoint_id` names the one
 *   endpoint of a test event (null: every subscribed endpoint of the group). `dispatched_at` is set once
 *   the deliveries exist; the sweeper dispatches rows left without it.
 * - `deliveries` is unique per (event, endpoint): an event dispatched twice is still delivered once.
 */
export class Webhooks1764820000000 implements MigrationInterface {
  name = 'Webhooks1764820000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q('CREATE SCHEMA IF NOT EXISTS webhooks');
    await q(`
      CREATE TABLE webhooks.endpoints (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        group_id uuid NOT NULL REFERENCES identity.groups(id) ON DELETE CASCADE,
        url text NOT NULL CONSTRAINT endpoints_url_http CHECK (url ~ '^https?://' AND length(url) <= 2000),
        description text NOT NULL DEFAULT '' CONSTRAINT endpoints_description_length CHECK (length(description) <= 500),
        events text[] NOT NULL
          CONSTRAINT endpoints_events_known
          CHECK (events <@ ARRAY['request.created', 'request.status_changed', 'report.ready']::text[]
                 AND cardinality(events) > 0),
        secret text NOT NULL CONSTRAINT endpoints_secret_form CHECK (secret ~ '^whsec_[A-Za-z0-9+/=]{40,}$'),
        enabled boolean NOT NULL DEFAULT true,
        disabled_at timestamptz,
        disabled_reason text,
        failing_since timestamptz,
        created_by uuid REFERENCES identity.users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q('CREATE INDEX endpoints_group_idx ON webhooks.endpoints (group_id, created_at)');
    await q(`
      CREATE TABLE webhooks.events (
        id text PRIMARY KEY DEFAULT ('msg_' || replace(gen_random_uuid()::text, '-', '')),
        type text NOT NULL
          CONSTRAINT events_type_known
          CHECK (type IN ('request.created', 'request.status_changed', 'report.ready', 'webhook.test')),
        group_id uuid NOT NULL REFERENCES identity.groups(id) ON DELETE CASCADE,
        request_id uuid,
        endpoint_id uuid REFERENCES webhooks.endpoints(id) ON DELETE CASCADE,
        payload jsonb,
        occurred_at timestamptz NOT NULL DEFAULT now(),
        dispatched_at timestamptz
      )`);
    await q(
      'CREATE INDEX events_undispatched_idx ON webhooks.events (occurred_at) WHERE dispatched_at IS NULL',
    );
    await q(`
      CREATE TABLE webhooks.deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        event_id text NOT NULL REFERENCES webhooks.events(id) ON DELETE CASCADE,
        endpoint_id uuid NOT NULL REFERENCES webhooks.endpoints(id) ON DELETE CASCADE,
        status text NOT NULL DEFAULT 'pending'
          CONSTRAINT deliveries_status_known CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        last_status_code integer,
        last_error text,
        last_duration_ms integer,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz,
        CONSTRAINT deliveries_event_endpoint_unique UNIQUE (event_id, endpoint_id)
      )`);
    await q(
      'CREATE INDEX deliveries_endpoint_idx ON webhooks.deliveries (endpoint_id, created_at DESC, id DESC)',
    );
    await q(
      `CREATE INDEX deliveries_pending_idx ON webhooks.deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
    await q(`
      CREATE TABLE webhooks.attempts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        delivery_id uuid NOT NULL REFERENCES webhooks.deliveries(id) ON DELETE CASCADE,
        status_code integer,
        duration_ms integer NOT NULL,
        error text,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await q('CREATE INDEX attempts_delivery_idx ON webhooks.attempts (delivery_id, at)');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP SCHEMA webhooks CASCADE');
  }
}
