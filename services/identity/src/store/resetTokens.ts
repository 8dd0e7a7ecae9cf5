import { createHash, randomBytes } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { PasswordResetTokenEntity, UserEntity } from '@portal/db';

export type ResetPurpose = 'reset-link' | 'callback';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Makes a random single-use token; only its hash is stored. */
export async function createResetToken(
  ds: DataSource,
  userId: string,
  purpose: ResetPurpose,
  ttlMinutes: number,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await ds.getRepository(PasswordResetTokenEntity).insert({
    userId,
    tokenHash: hashToken(token),
    purpose,
    expiresAt: new Date(Date.now() + ttlMinutes * 60_000),
  });
  return token;
}

/**
 * Spends a token inside the caller's transaction: the row is locked, checked (unused, unexpired, of the
 * expected purpose, user still active) and marked used. Null when the token does not qualify.
 */
export async function spendResetToken(
  manager: EntityManager,
  token: string,
  purpose: ResetPurpose,
): Promise<UserEntity | null> {
  const row = await manager
    .getRepository(PasswordResetTokenEntity)
    .createQueryBuilder('t')
    .setLock('pessimistic_write')
    .where('t.tokenHash = :hash', { hash: hashToken(token) })
    .andWhere('t.purpose = :purpose', { purpose })
    .andWhere('t.usedAt IS NULL')
    .andWhere('t.expiresAt > now()')
    .getOne();
  if (!row) return null;
  const user = await manager.getRepository(UserEntity).findOneBy({ id: row.userId });
  if (!user || !user.active) return null;
  await manager.getRepository(PasswordResetTokenEntity).update({ id: row.id }, { usedAt: new Date() });
  // Any other outstanding token of this user dies too: one reset ends every open reset.
  await manager
    .getRepository(PasswordResetTokenEntity)
    .createQueryBuilder()
    .update()
    .set({ usedAt: () => 'now()' })
    .where('user_id = :userId AND used_at IS NULL', { userId: user.id })
    .execute();
  return user;
}
