import { Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';
import type { ServiceConfig, ServiceIdentifier } from '@portal/contracts';
import { IDENTITY_SCHEMA } from './transformers';

/** One of the portal's services (spec 03 §3 Service): AVS, IRiS, SAVi and SpatialKey. */
@Entity({ schema: IDENTITY_SCHEMA, name: 'services' })
@Unique('services_identifier_key', ['identifier'])
export class ServiceEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'services_pkey' })
  id: string;

  @Column('text')
  identifier: ServiceIdentifier;

  @Column('text')
  name: string;

  @Column('text', { default: '' })
  description: string;

  /** Where the service lives in the portal, e.g. '/savi'. */
  @Column('text', { default: '' })
  url: string;

  @Column('text', { default: '' })
  image: string;

  @Column('boolean', { default: true })
  active: boolean;

  /** Map settings of the service: country, centre and zoom. */
  @Column('jsonb')
  config: ServiceConfig;
}
