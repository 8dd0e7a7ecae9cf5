import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { ServiceEntity } from './service.entity';
import { IDENTITY_SCHEMA } from './transformers';
import { UserEntity } from './user.entity';

/** A service granted to one user directly (on top of the services of the user's group). */
@Entity({ schema: IDENTITY_SCHEMA, name: 'user_services' })
// The primary key starts with user_id; this one serves "who has service X" and the cascade from services.
@Index('user_services_service_id_idx', ['serviceId'])
export class UserServiceEntity {
  @PrimaryColumn('uuid', { name: 'user_id', primaryKeyConstraintName: 'user_services_pkey' })
  userId: string;

  @PrimaryColumn('uuid', { name: 'service_id', primaryKeyConstraintName: 'user_services_pkey' })
  serviceId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'user_services_user_id_fkey' })
  user?: Relation<UserEntity>;

  @ManyToOne(() => ServiceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'service_id', foreignKeyConstraintName: 'user_services_service_id_fkey' })
  service?: Relation<ServiceEntity>;
}
