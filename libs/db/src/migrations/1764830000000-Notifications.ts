import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Notifications for people (issue 24): what a person is told about requests, in the portal (the header's
 * bell) and by mail.
 *
 * - `notifications` holds one row per event and person, written in the same transaction as the change it
 *   tells of (libs/db sql/notifications.ts), and is at once the in-portal list (`read_at`) and the mail's
 *   outbox (`mail_status`). `event_key` names the event (`report.ready:<request>:<version>`, one per change
 *   of the request's row; `request.late:<request>`, once per request): unique with the person, so an event
 *   recorded twice (a job run again) is told once. A row is written only for an active person (never an
 *   API key's account) whose preference for the kind is on.
 * - `mail_status`: 'pending' until the worker's mail job claims it ('sending'), then 'sent' or, after the
 *   last retry, 'failed'. Only a 'pending' row is claimed, so a mail is never sent twice; a worker killed
 *   while sending leaves 'sending' (the mail may or may not have gone: it is not sent again).
 * - `preferences` keeps only what a person turned off: a missing row is on (the default).
 * - `late_requests`: the requests already announced late (once per request, whatever their status next).
 */
export class Notifications1764830000000 implements MigrationInterface {
  name = 'Notifications1764830000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q('CREATE SCHEMA IF NOT EXISTS notifications');
    const kinds = `('report.ready', 'request.queried', 'request.located', 'request.assigned', 'request.late')`;
    await q(`
      CREATE TABLE notifications.notifications (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES identity.users(id) ON DELETE CASCADE,
        kind text NOT NULL CONSTRAINT notifications_kind_known CHECK (kind IN ${kinds}),
        event_key text NOT NULL,
        request_id uuid,
        grip_reference text,
        data jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        read_at timestamptz,
        mail_status text NOT NULL DEFAULT 'pending'
          CONSTRAINT notifications_mail_status_known CHECK (mail_status IN ('pending', 'sending', 'sent', 'failed')),
        mailed_at timestamptz,
        mail_error text,
        CONSTRAINT notifications_once_per_event UNIQUE (event_key, user_id)
      )`);
    // The bell's list (newest first) and its unread count.
    await q(
      'CREATE INDEX notifications_user_idx ON notifications.notifications (user_id, created_at DESC, id DESC)',
    );
    await q(
      'CREATE INDEX notifications_unread_idx ON notifications.notifications (user_id) WHERE read_at IS NULL',
    );
    // The sweeper's look for mails whose job was lost.
    await q(
      `CREATE INDEX notifications_mail_pending_idx ON notifications.notifications (created_at) WHERE mail_status = 'pending'`,
    );
    await q(`
      CREATE TABLE notifications.preferences (
        user_id uuid NOT NULL REFERENCES identity.users(id) ON DELETE CASCADE,
        kind text NOT NULL CONSTRAINT preferences_kind_known CHECK (kind IN ${kinds}),
        enabled boolean NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, kind)
      )`);
    await q(`
      CREATE TABLE notifications.late_requests (
        request_id uuid PRIMARY KEY REFERENCES requests.requests(id) ON DELETE CASCADE,
        status text NOT NULL,
        noted_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP SCHEMA IF EXISTS notifications CASCADE');
  }
}
