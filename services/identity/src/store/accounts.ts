import type { DataSource } from 'typeorm';
import { type GroupEntity, ServiceEntity, UserEntity } from '@portal/db';
import type { Service, SessionClaims, SessionUser } from '@portal/contracts';
import { rolesOf, sessionClaimsOf } from '@portal/domain';

/** The services a user may use: their own plus their (active) group's, only those switched on. */
export async function ownServices(
  ds: DataSource,
  user: Pick<UserEntity, 'id' | 'groupId'>,
): Promise<ServiceEntity[]> {
  return ds
    .getRepository(ServiceEntity)
    .createQueryBuilder('s')
    .where('s.active')
    .andWhere(
      `(s.id IN (SELECT us.service_id FROM identity.user_services us WHERE us.user_id = :userId)
        OR s.id IN (SELECT gs.service_id FROM identity.group_services gs
                    JOIN identity.groups g ON g.id = gs.group_id AND g.active
                    WHERE gs.group_id = :groupId))`,
      { userId: user.id, groupId: user.groupId },
    )
    .orderBy('s.name')
    .getMany();
}

export function toServiceAnswer(s: ServiceEntity): Service {
  return {
    _id: s.id,
    identifier: s.identifier,
    name: s.name,
    description: s.description,
    url: s.url,
    image: s.image,
    active: s.active,
    config: s.config,
  };
}

export function toSessionUser(
  user: UserEntity,
  group: GroupEntity | null,
  services: ServiceEntity[],
): SessionUser {
  return {
    _id: user.id,
    name: user.name,
    email: user.email,
    authenticated: true,
    isAdmin: user.isAdmin,
    group: group
      ? {
          _id: group.id,
          name: group.name,
          code: group.code,
          doubleVolumePercent: group.doubleVolumePercent,
          professionalFeePercentage: group.professionalFeePercentage,
          includeVAT: group.includeVAT,
          includeProfessionalFee: group.includeProfessionalFee,
        }
      : null,
    groupID: group?.id ?? null,
    groupName: group?.name ?? '',
    active: user.active,
    avsServiceUrl: user.avsServiceUrl,
    includeIds: user.includeIds,
    includeAll: user.includeAll,
    ratesEditor: user.ratesEditor,
    saviOperator: user.saviOperator,
    saviQC: user.saviQC,
    claimsUser: user.claimsUser,
    roles: rolesOf({ ...user, groupAdmin: isGroupAdmin({ ...user, group }) }),
    services: services.map((s) => s.identifier),
    groupDoubleVolumePercent: group?.doubleVolumePercent ?? 0,
    groupIncludeProfessionalFee: group?.includeProfessionalFee ?? false,
    groupProfessionalFeePercentage: group?.professionalFeePercentage ?? 0,
    groupIncludeVAT: group?.includeVAT ?? false,
  };
}

/**
 * Whether the user is the admin of their own group (role 'groupAdmin'): read from the group loaded with
 * the user (login, users/me); a user read without it (just registered) has no group anyway.
 */
export const isGroupAdmin = (user: Pick<UserEntity, 'id' | 'group'>): boolean =>
  !!user.group && user.group.active && user.group.adminUserId === user.id;

/** The claims of `user`'s session (libs/domain's `sessionClaimsOf`, which the tests' sessions use too). */
export const claimsOf = (user: UserEntity): SessionClaims =>
  sessionClaimsOf({ ...user, groupAdmin: isGroupAdmin(user) });

/**
 * The current user for a verified session, read fresh from the database so role and group changes show
 * at once; null when the user is gone, inactive, or the token predates a revocation (logout, new password).
 */
export async function sessionUserFor(
  ds: DataSource,
  claims: { sub: string; ims: number },
): Promise<{ user: UserEntity; answer: SessionUser } | null> {
  const user = await ds
    .getRepository(UserEntity)
    .findOne({ where: { id: claims.sub }, relations: { group: true } });
  if (!user || !user.active) return null;
  if (user.tokensValidAfter && claims.ims < user.tokensValidAfter.getTime()) return null;
  const services = await ownServices(ds, user);
  return { user, answer: toSessionUser(user, user.group ?? null, services) };
}
