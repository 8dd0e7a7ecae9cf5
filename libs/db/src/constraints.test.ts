import { AuditRecordEntity } from './entities/audit-record.entity';
import { GroupEntity } from './entities/group.entity';
import { GroupServiceEntity } from './entities/group-service.entity';
import { PasswordResetTokenEntity } from './entities/password-reset-token.entity';
import { UserEntity } from './entities/user.entity';
import { createTestDatabase, type TestDatabase } from './testing';

/** The PostgreSQL error code of a rejected promise (23505 unique, 23503 foreign key, 23514 check). */
const pgCode = (promise: Promise<unknown>) =>
  promise.then(
    () => 'no error',
    (err: { code?: string }) => err.code,
  );

describe('constraints', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({ seed: true });
  });
  afterAll(() => db?.drop());

  const users = () => db.dataSource.getRepository(UserEntity);
  const groups = () => db.dataSource.getRepository(GroupEntity);

  it('keeps e-mail addresses unique, whatever their case', async () => {
    await users().insert({ email: '  Zanele.Mthembu@Example.CO.ZA ', passwordHash: 'x' });
    const stored = await users().findOneByOrFail({ email: 'zanele.mthembu@example.co.za' });
    expect(stored).toMatchObject({ email: 'zanele.mthembu@example.co.za', name: 'Anonymous', active: true });

    expect(await pgCode(users().insert({ email: 'ZANELE.MTHEMBU@example.co.za', passwordHash: 'x' }))).toBe(
      '23505',
    );
    // Raw SQL skips the entity's normalisation; the check constraint still refuses upper case.
    expect(
      await pgCode(
        db.dataSource.query(
          `INSERT INTO identity.users (email, password_hash) VALUES ('Zanele@Example.co.za', 'x')`,
        ),
      ),
    ).toBe('23514');
  });

  it('refuses to delete a group that still has users', async () => {
    const kmi = await groups().findOneByOrFail({ code: 'KMI' });
    expect(await pgCode(groups().delete(kmi.id))).toBe('23503');
    expect(await groups().existsBy({ id: kmi.id })).toBe(true);
  });

  it('deletes an empty group with its service links', async () => {
    const hvv = await groups().findOneByOrFail({ code: 'HVV' });
    await groups().delete(hvv.id);
    expect(await db.dataSource.getRepository(GroupServiceEntity).countBy({ groupId: hvv.id })).toBe(0);
  });

  it('clears the group admin and the reset tokens of a deleted user', async () => {
    const user = await users().save(users().create({ email: 'gone@portal.test', passwordHash: 'x' }));
    const ops = await groups().findOneByOrFail({ code: 'OPS' });
    await groups().update(ops.id, { adminUserId: user.id });
    await db.dataSource.getRepository(PasswordResetTokenEntity).insert({
      userId: user.id,
      tokenHash: 'a'.repeat(64),
      purpose: 'reset-link',
      expiresAt: new Date(Date.now() + 3_600_000),
    });

    await users().delete(user.id);
    expect((await groups().findOneByOrFail({ id: ops.id })).adminUserId).toBeNull();
    expect(await db.dataSource.getRepository(PasswordResetTokenEntity).countBy({ userId: user.id })).toBe(0);
  });

  it('numbers audit records and reads their bigint id as a string', async () => {
    const audit = db.dataSource.getRepository(AuditRecordEntity);
    const saved = await audit.save(audit.create({ message: 'Viewed report', details: { reportId: 42 } }));
    expect(typeof saved.id).toBe('string');
    expect(await audit.findOneByOrFail({ id: saved.id })).toMatchObject({
      message: 'Viewed report',
      details: { reportId: 42 },
      actorUserId: null,
    });
  });
});
