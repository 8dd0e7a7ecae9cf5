import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { GroupEntity } from './group.entity';
import { ServiceEntity } from './service.entity';
import { IDENTITY_SCHEMA } from './transformers';

/** A service granted to a group, and so to all its users. */
@Entity({ schema: IDENTITY_SCHEMA, name: 'group_services' })
// The primary key starts with group_id; this one serves "who has service X" and the cascade from services.
@Index('group_services_service_id_idx', ['serviceId'])
export class GroupServiceEntity {
  @PrimaryColumn('uuid', { name: 'group_id', primaryKeyConstraintName: 'group_services_pkey' })
  groupId: string;

  @PrimaryColumn('uuid', { name: 'service_id', primaryKeyConstraintName: 'group_services_pkey' })
  serviceId: string;

  @ManyToOne(() => GroupEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id', foreignKeyConstraintName: 'group_services_group_id_fkey' })
  group?: Relation<GroupEntity>;

  @ManyToOne(() => ServiceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'service_id', foreignKeyConstraintName: 'group_services_service_id_fkey' })
  service?: Relation<ServiceEntity>;
}
