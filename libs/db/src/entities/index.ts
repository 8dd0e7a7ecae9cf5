import { AuditRecordEntity } from './audit-record.entity';
import { GroupServiceEntity } from './group-service.entity';
import { GroupEntity } from './group.entity';
import { PasswordResetTokenEntity } from './password-reset-token.entity';
import { RateEntity } from './rate.entity';
import { ServiceEntity } from './service.entity';
import { UserServiceEntity } from './user-service.entity';
import { UserTotalsEntity } from './user-totals.entity';
import { UserEntity } from './user.entity';

export * from './transformers';
export {
  AuditRecordEntity,
  GroupEntity,
  GroupServiceEntity,
  PasswordResetTokenEntity,
  RateEntity,
  ServiceEntity,
  UserEntity,
  UserServiceEntity,
  UserTotalsEntity,
};
export { PASSWORD_RESET_PURPOSES, type PasswordResetPurpose } from './password-reset-token.entity';

/** Every entity of the data layer, as classes (no globs: works from TypeScript sources and from dist/). */
export const ENTITIES = [
  UserEntity,
  GroupEntity,
  ServiceEntity,
  UserServiceEntity,
  GroupServiceEntity,
  PasswordResetTokenEntity,
  AuditRecordEntity,
  RateEntity,
  UserTotalsEntity,
];
