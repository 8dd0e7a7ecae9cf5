import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
  Unique,
} from 'typeorm';
import { IDENTITY_SCHEMA } from './transformers';
import { UserEntity } from './user.entity';

/** How the token reaches the user: the e-mailed reset link, or the key of the reset callback. */
export const PASSWORD_RESET_PURPOSES = ['reset-link', 'callback'] as const;
export type PasswordResetPurpose = (typeof PASSWORD_RESET_PURPOSES)[number];

/**
 * A single-use password reset token. Only the SHA-256 (hex) of the random token is stored, so a leaked
 * table cannot be used to reset passwords.
 */
@Entity({ schema: IDENTITY_SCHEMA, name: 'password_reset_tokens' })
@Unique('password_reset_tokens_token_hash_key', ['tokenHash'])
@Check('password_reset_tokens_purpose_check', `purpose IN ('reset-link', 'callback')`)
@Index('password_reset_tokens_user_id_idx', ['userId'])
export class PasswordResetTokenEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'password_reset_tokens_pkey' })
  id: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'password_reset_tokens_user_id_fkey' })
  user?: Relation<UserEntity>;

  @Column('text', { name: 'token_hash' })
  tokenHash: string;

  @Column('text')
  purpose: PasswordResetPurpose;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  @Column('timestamptz', { name: 'used_at', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
