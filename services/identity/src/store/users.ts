import type { DataSource, EntityManager, QueryDeepPartialEntity } from 'typeorm';
import { AuditRecordEntity, UserEntity } from '@portal/db';

// The identity service's reads and writes of users and of the audit log (accounts.ts: their services and
// the session's user; resetTokens.ts: the password reset tokens).

/**
 * The person with that e-mail, with their group (whether they are its admin goes into the session). An
 * API key's own account row (kind 'apiKey', issue 22) is never one: it cannot log in (it answers as a wrong
 * password would) nor be sent a reset link.
 */
export const userByEmail = (ds: DataSource, email: string) =>
  ds
    .getRepository(UserEntity)
    .createQueryBuilder('u')
    .leftJoinAndSelect('u.group', 'g')
    .where('u.email = :email', { email })
    .andWhere(`u.kind = 'person'`)
    .getOne();

export const userById = (ds: DataSource, id: string) => ds.getRepository(UserEntity).findOneBy({ id });

/** The user with their group (the reference fields of the request form). */
export const userWithGroup = (ds: DataSource, id: string) =>
  ds.getRepository(UserEntity).findOne({ where: { id }, relations: { group: true } });

export const emailTaken = (ds: DataSource, email: string) => ds.getRepository(UserEntity).existsBy({ email });

/** A new account (a unique index on the e-mail decides between two registrations racing for one address). */
export function insertUser(ds: DataSource, user: { name: string; email: string; passwordHash: string }) {
  const users = ds.getRepository(UserEntity);
  return users.save(users.create(user));
}

export async function recordLogin(ds: DataSource, userId: string): Promise<void> {
  await ds.getRepository(UserEntity).update({ id: userId }, { lastLoginAt: new Date() });
}

/** Sessions signed before `at` stop counting (logout). */
export async function revokeTokensBefore(ds: DataSource, userId: string, at: Date): Promise<void> {
  await ds.getRepository(UserEntity).update({ id: userId }, { tokensValidAfter: at });
}

/** A new password, inside the transaction that spent the reset token; sessions signed before `at` end. */
export async function setPassword(
  manager: EntityManager,
  userId: string,
  passwordHash: string,
  at: Date,
): Promise<void> {
  await manager.getRepository(UserEntity).update({ id: userId }, { passwordHash, tokensValidAfter: at });
}

/** A line of the audit log (spec 01 §7). */
export async function insertAuditRecord(
  ds: DataSource,
  record: QueryDeepPartialEntity<AuditRecordEntity>,
): Promise<void> {
  await ds.getRepository(AuditRecordEntity).insert(record);
}
