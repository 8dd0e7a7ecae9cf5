import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { IDENTITY_SCHEMA } from './transformers';

/**
 * An audit trail entry (spec 01 §3 Audit record), written by the client's audit call and by admin changes.
 * Deliberately no foreign keys: the trail must outlive the users and rows it talks about.
 */
@Entity({ schema: IDENTITY_SCHEMA, name: 'audit_records' })
@Index('audit_records_created_at_idx', ['createdAt'])
@Index('audit_records_entity_idx', ['entity', 'entityId'])
export class AuditRecordEntity {
  /** bigint: node-postgres reads int8 as a string, so no precision is lost past 2^53. */
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'audit_records_pkey',
  })
  id: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column('text')
  message: string;

  @Column('jsonb', { nullable: true })
  details: unknown;

  /** user_name, user_email and user_id as sent by the client (spec 01 §7), unverified. */
  @Column('text', { name: 'user_name', nullable: true })
  userName: string | null;

  @Column('text', { name: 'user_email', nullable: true })
  userEmail: string | null;

  @Column('text', { name: 'user_id', nullable: true })
  userId: string | null;

  /** The authenticated user of the session that wrote the record, when there was one. */
  @Column('uuid', { name: 'actor_user_id', nullable: true })
  actorUserId: string | null;

  /** What was changed, e.g. 'group' and its id, for admin changes. */
  @Column('text', { nullable: true })
  entity: string | null;

  @Column('text', { name: 'entity_id', nullable: true })
  entityId: string | null;

  @Column('jsonb', { nullable: true })
  before: unknown;

  @Column('jsonb', { nullable: true })
  after: unknown;

  @Column('text', { nullable: true })
  ip: string | null;
}
